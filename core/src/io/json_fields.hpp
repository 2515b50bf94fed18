// The robot file's field readers (model_json.cpp), shared with the other readers of robot files
// (parallel_json.cpp): messages start with the field's path, values are taken to SI by the file's units.
#pragma once
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <achain/math/types.hpp>

namespace achain::io_detail {

/// Factors taking a document's "units" to SI (1 for absent keys); throws naming "units.<key>".
struct UnitFactors {
  double length = 1, angle = 1, mass = 1, torque = 1, force = 1;
};
UnitFactors unitFactors(const nlohmann::json& document);

[[noreturn]] void fail(const std::string& path, const std::string& msg);
void checkKeys(const nlohmann::json& obj, const std::string& path, const std::set<std::string>& allowed);
const nlohmann::json& requireObject(const nlohmann::json& v, const std::string& path);
double asNumber(const nlohmann::json& v, const std::string& path);
int exactInt(const nlohmann::json& v, const std::string& path, const char* what);
/// {"xyz", "rpy"} or {"matrix"}, lengths and angles in the file's units.
SE3 transform(const nlohmann::json& v, const std::string& path, const UnitFactors& u);
/// 3×3 or [Ixx, Iyy, Izz, Ixy, Iyz, Ixz], unscaled.
Mat3 inertia(const nlohmann::json& v, const std::string& path);
/// "name", "description" (strings) and "notes" (an array of strings) of a document, naming the field.
void descriptionFields(const nlohmann::json& doc, std::string& name, std::string& description,
                       std::vector<std::string>& notes);
/// "a string", "an array", … for messages.
const char* typeName(const nlohmann::json& v);

}  // namespace achain::io_detail
