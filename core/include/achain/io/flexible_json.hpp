// The optional per-joint "flexible" blocks of a robot file (docs/robot-format.md#flexible-links): the link a joint
// moves is a flexible beam by assumed modes (model/flexible_link.hpp), in the file's units. Read beside the model
// (as jointFlexibilityFromJson reads the drive blocks); the Model itself stays rigid.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <achain/model/flexible_link.hpp>

namespace achain {

/// True when some joint of the document has a "flexible" block.
bool hasFlexibleLinks(const nlohmann::json& j);

/// The flexible links of a robot file whose model is `model` (modelFromJson of the same document), in SI: length,
/// EI (force·length²), GJ (torque·length per angle), torsional inertia (mass·length²), modes ("cubic", a family
/// object or explicit shapes). Each link is checked by flexibleLinkMatrices. Throws achain::Error naming the field
/// ("joints[2].flexible.ei_y: must be positive and finite (got 0.000000)"). A document without flexible blocks
/// gives an empty list.
FlexibleLinks flexibleLinksFromJson(const nlohmann::json& j, const Model& model);
FlexibleLinks flexibleLinksFromJsonString(const std::string& text, const Model& model);

}  // namespace achain
