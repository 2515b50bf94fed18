// Position limits of a configuration: which joint is outside them, and a sentence that says so.
#pragma once
#include <string>

#include <achain/model/model.hpp>

namespace achain {

/// The first joint whose variable (scale·q + offset of its coordinate, mimic joints included) lies outside its
/// position limits by more than tol; −1 when every joint is within them. Does not allocate.
int firstOutsideLimits(const Model& model, const Eigen::Ref<const VecX>& q, double tol = 0.0);

/// "" when q is within the position limits (tolerance tol); otherwise one sentence naming the coordinate (q1 … qn,
/// 1-based as the studio and the CLI print them), its joint, the value and the limits, in degrees for an angular
/// joint and metres for a sliding one: "q1 (joint 'j1') = 320° is outside its limits [60°, 300°]".
std::string limitsProblem(const Model& model, const Eigen::Ref<const VecX>& q, double tol = 0.0);

}  // namespace achain
