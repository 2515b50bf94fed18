#include "common.hpp"
#include "progress.hpp"

#include <achain/math/decimal.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <achain/io/urdf.hpp>
#include <achain/math/progress.hpp>
#include <achain/math/text.hpp>
#include <achain/io/robot.hpp>

namespace achain::cli {

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<int> parseInfluenceRows(const std::string& text, const std::string& what) {
  std::vector<int> rows;
  for (const std::string& tok : splitList(text)) {
    const auto it = std::find(kInfluenceRowNames, kInfluenceRowNames + 6, tok);
    if (it == kInfluenceRowNames + 6)
      throw Error(what + ": " + nameInput(tok, 40) + " is not an influence row (x, y, z, wx, wy or wz)");
    const int r = static_cast<int>(it - kInfluenceRowNames);
    if (std::find(rows.begin(), rows.end(), r) != rows.end()) throw Error(what + ": " + tok + " is listed twice");
    rows.push_back(r);
  }
  return rows;
}

void RobotArgs::add(CLI::App* app, JointInputs inputs, const std::string& robot_help, bool required) {
  auto* opt = app->add_option(
      "--robot", robot, robot_help.empty() ? "Built-in robot name (see `achain robots`), a robot JSON file or a URDF file" : robot_help);
  if (required)
    opt->required();
  else if (!robot.empty())
    opt->capture_default_str();
  if (inputs == JointInputs::QDeg)
    app->add_option("--q", q, "Joint values as a comma list, e.g. 1,2,3 (radians / metres; A-pairs: theta_v)")->required();
  if (inputs != JointInputs::None) app->add_flag("--deg", deg, "Angular joint values (R, H, A) are in degrees");
  addUrdfOptions(app, tool_link, balance_inertia, keep_fixed);
}

void addUrdfOptions(CLI::App* app, std::string& tool_link, bool& balance_inertia, bool& keep_fixed) {
  app->add_option("--tool-link", tool_link, "URDF: the link carrying the tool, by name (default: the single leaf link)");
  app->add_flag("--balance-inertia", balance_inertia,
                "URDF: replace link inertias that break the triangle inequality by the mean of their principal moments");
  app->add_flag("--keep-fixed", keep_fixed, "URDF: keep fixed joints as joints (default: their links are merged into the parent links)");
}

void reportUrdfWarnings(const std::string& sub, const Model& m) {
  for (const std::string& n : m.notes)
    if (n.rfind("URDF warning: ", 0) == 0) std::cerr << (sub.empty() ? std::string("achain") : "achain " + sub) << ": warning: " << safeMessage(n.substr(14)) << "\n";
}

void reportNotes(const std::string& sub, const std::vector<std::string>& notes) {
  for (const std::string& n : notes) std::cerr << "achain " << sub << ": warning: " << safeMessage(n) << "\n";
}

void DriveArgs::add(CLI::App* app, const std::string& old_stiffness, const std::string& old_damping, bool with_damping) {
  const std::string old_s = old_stiffness.empty() ? "" : " (" + old_stiffness + ": its former name, kept for one release)";
  app->add_option("--drive-stiffness" + (old_stiffness.empty() ? "" : "," + old_stiffness), stiffness,
                  "Drive stiffness k between motor and link, N*m/rad (N/m prismatic): one value or one per coordinate "
                  "(default: the robot file's drive blocks)" + old_s);
  if (!with_damping) return;
  const std::string old_d = old_damping.empty() ? "" : " (" + old_damping + ": its former name, kept for one release)";
  app->add_option("--drive-damping" + (old_damping.empty() ? "" : "," + old_damping), damping,
                  "Drive damping c, N*m*s/rad: one value or one per coordinate (default: the file's, or 0)" + old_d);
}

JointFlexibility DriveArgs::read(const Robot& robot) const {
  const Model& m = robot.model;
  JointFlexibility f;
  if (stiffness.empty()) {
    if (!robot.drives)
      throw Error("--drive-stiffness: required (the robot file declares no joint drives; e.g. "
                  "core/robots/variants/prototype-4a-drive.json does)");
    f = *robot.drives;
  } else {
    f.stiffness = perCoordinate(m, stiffness, "--drive-stiffness");
    f.damping = VecX::Zero(m.nv);
  }
  if (!damping.empty()) f.damping = perCoordinate(m, damping, "--drive-damping");
  for (int i = 0; i < m.nv; ++i) {
    const std::string joint = " (joint '" + m.joints[m.coord_joint[i]].name + "')";
    if (!(f.stiffness[i] > 0))
      throw Error("--drive-stiffness: must be positive (got " + std::to_string(f.stiffness[i]) + " for coordinate " +
                  std::to_string(i) + joint + ")");
    if (!(f.damping[i] >= 0))
      throw Error("--drive-damping: must be zero or positive (got " + std::to_string(f.damping[i]) + " for coordinate " +
                  std::to_string(i) + joint + ")");
  }
  return f;
}

VecX perCoordinate(const Model& m, const std::string& text, const std::string& what) {
  const auto v = parseList(text, what);
  if (v.size() == 1) return VecX::Constant(m.nv, v[0]);
  if (static_cast<int>(v.size()) != m.nv)
    throw Error(what + ": expected 1 value or " + std::to_string(m.nv) + " (one per coordinate), got " + std::to_string(v.size()));
  return Eigen::Map<const VecX>(v.data(), m.nv);
}

Robot RobotArgs::read(bool parallel) const {
  UrdfOptions o;
  o.tool_link = tool_link;
  o.balance_inertia = balance_inertia;
  o.keep_fixed = keep_fixed;
  Robot r = readRobot(robot, o);
  if (!parallel) r.requireChain();
  reportUrdfWarnings("", r.model);
  return r;
}

Model RobotArgs::model() const { return read().model; }

Model RobotArgs::modelOr(const std::string& named) const {
  if (!robot.empty()) return model();
  if (named.empty()) throw Error("--robot: required (the trajectory names no robot)");
  RobotArgs other = *this;
  other.robot = named;
  return other.model();
}

const CLI::Validator kPositive(
    [](std::string& s) {
      double v = 0;
      if (!decimalProblem(s, false, v).empty()) return std::string();  // the number reader names that
      return v > 0 ? std::string() : "must be > 0 (got " + s + ")";
    },
    "> 0", "positive");

void requireDecimalNumbers(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    const std::string type = o->get_type_name();
    const bool whole = type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0;
    if (!whole && type.rfind("FLOAT", 0) != 0) continue;
    o->transform(CLI::Validator(  // transform: first of the option's validators, and it may rewrite "010"
        [whole](std::string& s) {
          double v = 0;
          std::string why = decimalProblem(s, whole, v);
          if (why.empty() && whole) {  // "010" is ten: the integer reader would take a leading 0 as octal
            const bool sign = s[0] == '+' || s[0] == '-';
            const size_t first = s.find_first_not_of('0', sign ? 1 : 0);
            s = (s[0] == '-' ? "-" : "") + (first == std::string::npos ? std::string("0") : s.substr(first));
          }
          return why;
        },
        "", "decimal"));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) requireDecimalNumbers(*sub);
}

std::vector<double> parseList(const std::string& text, const std::string& what) {
  std::vector<double> out;
  size_t k = 0, pos = 0;
  if (text.find_first_not_of(" \t") == std::string::npos) throw Error(what + ": empty list");
  while (true) {  // every item between commas, including an empty last one ("1,2,")
    const size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    const std::string t = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    const std::string at = what + "[" + std::to_string(k) + "]: ";
    if (t.empty()) throw Error(at + "missing number (an empty item between commas or at an end)");
    double v = 0;
    if (const std::string why = decimalProblem(t, false, v); !why.empty()) throw Error(at + why);
    if (std::abs(v) > kMaxInputMagnitude)
      throw Error(at + "magnitude " + t + " exceeds the input range (at most 1e9 in SI units)");
    out.push_back(v);
    ++k;
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

Mat4 parseMatrix4(const std::string& text, const std::string& what) {
  const std::vector<double> v = parseList(text, what);
  if (v.size() != 16) throw Error(what + ": expected 16 numbers (row-major 4x4), got " + std::to_string(v.size()));
  Mat4 T;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) T(r, c) = v[4 * r + c];
  return T;
}

Mat4 parsePose(const std::string& text, const std::string& what) {
  const std::vector<double> v = parseList(text, what);
  if (v.size() != 7) throw Error(what + ": expected 7 numbers x,y,z,qw,qx,qy,qz, got " + std::to_string(v.size()));
  const double nrm = std::sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6]);
  if (!(std::abs(nrm - 1) < 1e-6)) throw Error(what + ": quaternion must have unit norm (got " + std::to_string(nrm) + ")");
  Mat4 T = Mat4::Identity();
  T.topLeftCorner<3, 3>() = Eigen::Quaterniond(v[3], v[4], v[5], v[6]).toRotationMatrix();
  T.topRightCorner<3, 1>() << v[0], v[1], v[2];
  return T;
}

VecX RobotArgs::joints(const Model& m, const std::string& text, const std::string& what) const {
  const std::vector<double> v = parseList(text, what);
  if (static_cast<int>(v.size()) != m.nq)
    throw Error(what + ": robot '" + m.name + "' has " + std::to_string(m.nq) + " joints, got " + std::to_string(v.size()) + " values");
  VecX q(m.nq);
  for (int c = 0; c < m.nq; ++c)  // one value per coordinate (fixed and mimic joints have none of their own)
    q[c] = (deg && isAngular(m.joints[m.coord_joint[c]].kind)) ? v[c] * kDeg : v[c];
  return q;
}

json toJson(const Mat4& T) {
  json rows = json::array();
  for (int r = 0; r < 4; ++r) rows.push_back({T(r, 0), T(r, 1), T(r, 2), T(r, 3)});
  return rows;
}
json toJson(const VecX& v) {
  json a = json::array();
  for (int i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}
json toJson(const MatX& M) {
  json rows = json::array();
  for (int r = 0; r < M.rows(); ++r) {
    json row = json::array();
    for (int c = 0; c < M.cols(); ++c) row.push_back(M(r, c));
    rows.push_back(row);
  }
  return rows;
}

json toJson(const Tensor3& T) {
  json planes = json::array();
  for (int p = 0; p < T.planes(); ++p) planes.push_back(toJson(MatX(T.plane(p))));
  return planes;
}

json toJson(const FreemanModel& f) { return {{"Istar", toJson(f.Istar)}, {"Pstar", toJson(f.Pstar)}, {"TL", toJson(f.TL)}}; }

namespace {

/// Path of the first non-finite number in j ("" if none). nlohmann stores NaN/±Inf as numbers and dumps
/// them as null, which would pass a non-number to the reader silently.
std::string firstNonFinite(const json& j, const std::string& path) {
  if (j.is_number_float()) return std::isfinite(j.get<double>()) ? "" : (path.empty() ? "(value)" : path);
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string p = firstNonFinite(j[i], path + "[" + std::to_string(i) + "]");
      if (!p.empty()) return p;
    }
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string p = firstNonFinite(it.value(), path.empty() ? it.key() : path + "." + it.key());
      if (!p.empty()) return p;
    }
  }
  return "";
}

}  // namespace

void failNotFinite(const std::string& path) {
  throw Error("the result is not finite at '" + path +
              "': an input is outside the range this computation can represent (check its magnitude and units)");
}

void checkFinite(const json& j) {
  const std::string bad = firstNonFinite(j, "");
  if (!bad.empty()) failNotFinite(bad);
}

void writeStdout(const std::string& text) {
  std::cout << text;
  if (!text.empty() && text.back() != '\n') std::cout << '\n';
  std::cout.flush();
  if (!std::cout) throw Error("writing to standard output failed (disk full or output closed)");
}

void writeFile(const std::string& given, const std::function<void(std::ostream&)>& body, const std::string& what) {
  std::string path = given;
  struct stat st {};
  // A symlink is written through (the rename below would replace the link itself by a file)
  if (::lstat(given.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char* real = ::realpath(given.c_str(), nullptr);
    if (!real) throw Error(what + ": " + quoteInput(given, 200) + " is a symbolic link to a missing file");
    path = real;
    std::free(real);
  }
  const bool exists = ::stat(path.c_str(), &st) == 0;
  const bool special = exists && !S_ISREG(st.st_mode);  // /dev/stdout, a FIFO, a device
  // a read-only file stays as it is (the rename would replace it, since only its directory is checked)
  // (the mode bits too: for root access() says every file is writable)
  if (exists && !special && (::access(path.c_str(), W_OK) != 0 || (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0))
    throw Error(what + ": cannot write " + quoteInput(given, 200) + ": the file is read-only");
  const std::string target = special ? path : path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream f(target, std::ios::binary);
    if (!f) throw Error(what + ": cannot open " + quoteInput(path, 200) + " for writing");
    body(f);
    f.flush();
    if (!f) {
      f.close();
      if (!special) std::remove(target.c_str());
      throw Error(what + ": writing " + quoteInput(path, 200) + " failed (disk full?)");
    }
  }
  if (exists && !special) ::chmod(target.c_str(), st.st_mode & 07777);  // the file keeps its permissions
  // written in full, then renamed over the target: a reader never sees half a file
  if (!special && std::rename(target.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(target.c_str());
    throw Error(what + ": cannot write " + quoteInput(path, 200) + ": " + why);
  }
}

void print(const json& j) {
  checkFinite(j);
  writeStdout(j.dump());
}

std::vector<Command>& commands() {
  static std::vector<Command> c;
  return c;
}
RegisterCommand::RegisterCommand(const char* name, std::function<void(CLI::App&)> install) {
  commands().push_back({name, std::move(install)});
}

void run(const std::string& sub, const std::function<void()>& body) {
  try {
    body();
  } catch (const Cancelled& e) {  // stopped through a Progress: by SIGINT/SIGTERM (StopOnSignal)
    const int sig = stopSignal();
    std::cerr << "achain " << sub << ": stopped" << (sig == SIGINT ? " by SIGINT" : sig == SIGTERM ? " by SIGTERM" : "")
              << ": " << safeMessage(e.what()) << std::endl;
    std::exit(sig ? 128 + sig : 1);
  } catch (const std::exception& e) {
    // every message once through safeMessage: whatever input it quotes cannot drive the terminal or flood it
    std::cerr << "achain " << sub << ": error: " << safeMessage(e.what()) << std::endl;
    std::exit(1);
  }
}

}  // namespace achain::cli
