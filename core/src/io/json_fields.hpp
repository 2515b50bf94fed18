// The robot file's field readers (json_fields.cpp), shared by every reader of robot files (model_json.cpp,
// loop_json.cpp, drive_json.cpp, flexible_json.cpp, parallel_json.cpp): messages start with the field's path,
// values are taken to SI by the file's units.
#pragma once
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <achain/math/types.hpp>
#include <achain/model/model.hpp>

namespace achain::io_detail {

/// Factors taking a document's "units" to SI (1 for absent keys); throws naming "units.<key>".
struct UnitFactors {
  double length = 1, angle = 1, mass = 1, torque = 1, force = 1;
};
UnitFactors unitFactors(const nlohmann::json& document);

/// Throws achain::Error "<path>: <msg>".
[[noreturn]] void fail(const std::string& path, const std::string& msg);
/// "a.b" (path, key) and "a[3]" (path, index): the paths errors name.
std::string join(const std::string& path, const std::string& key);
std::string idx(const std::string& path, size_t i);
/// "a string", "an array", … for messages.
const char* typeName(const nlohmann::json& v);
/// Refuses a key not in `allowed`, listing the allowed ones.
void checkKeys(const nlohmann::json& obj, const std::string& path, const std::set<std::string>& allowed);
const nlohmann::json& requireObject(const nlohmann::json& v, const std::string& path);
/// A number (not NaN).
double asNumber(const nlohmann::json& v, const std::string& path);
/// obj[key] as a number, or def when absent; requiredNumber: absent is an error.
double number(const nlohmann::json& obj, const std::string& path, const std::string& key, double def);
double requiredNumber(const nlohmann::json& obj, const std::string& path, const std::string& key);
/// An integer that fits an int exactly (no truncation of 4294967295 to −1).
int exactInt(const nlohmann::json& v, const std::string& path, const char* what);
/// [x, y, z].
Vec3 vec3(const nlohmann::json& v, const std::string& path);
/// {"xyz", "rpy"} or {"matrix"}, lengths and angles in the file's units; `extra` keys are allowed beside them.
SE3 transform(const nlohmann::json& v, const std::string& path, const UnitFactors& u, std::set<std::string> extra = {});
/// {"matrix": 4×4 rows}.
nlohmann::json transformToJson(const SE3& T);
/// 3×3 or [Ixx, Iyy, Izz, Ixy, Iyz, Ixz], unscaled.
Mat3 inertia(const nlohmann::json& v, const std::string& path);
/// True when the document's "joints" array has some joint object with the key (a "drive" or "flexible" block).
bool anyJointHas(const nlohmann::json& doc, const char* key);
/// "name", "description" (strings) and "notes" (an array of strings) of a document, naming the field.
void descriptionFields(const nlohmann::json& doc, std::string& name, std::string& description,
                       std::vector<std::string>& notes);

/// The model of a robot JSON document without its loop, drive and flexible-link sections (model_json.cpp):
/// robotFromJson reads those sections once into the Robot; modelFromJson reads them to validate them.
Model modelDescriptionFromJson(const nlohmann::json& doc);

}  // namespace achain::io_detail
