#include "common.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include <achain/io/urdf.hpp>
#include <achain/model/robots.hpp>

namespace achain::cli {

void RobotArgs::add(CLI::App* app, bool with_q) {
  app->add_option("--robot", robot, "Built-in robot name (see `achain robots`), a robot JSON file or a URDF file")->required();
  if (with_q) app->add_option("--q", q, "Joint values as a comma list, e.g. 1,2,3 (radians / metres; A-pairs: theta_v)")->required();
  app->add_flag("--deg", deg, "Angular joint values (R, H, A) are in degrees");
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
    if (n.rfind("URDF warning: ", 0) == 0) std::cerr << (sub.empty() ? std::string("achain") : "achain " + sub) << ": warning: " << n.substr(14) << "\n";
}

Model RobotArgs::model() const {
  UrdfOptions o;
  o.tool_link = tool_link;
  o.balance_inertia = balance_inertia;
  o.keep_fixed = keep_fixed;
  Model m = loadRobot(robot, o);
  reportUrdfWarnings("", m);
  return m;
}

std::vector<double> parseList(const std::string& text, const std::string& what) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  size_t k = 0;
  while (std::getline(ss, item, ',')) {
    const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    const std::string t = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size())
      throw Error(what + "[" + std::to_string(k) + "]: '" + t + "' is not a number");
    if (!std::isfinite(v)) throw Error(what + "[" + std::to_string(k) + "]: must be finite (got " + t + ")");
    out.push_back(v);
    ++k;
  }
  if (out.empty()) throw Error(what + ": empty list");
  return out;
}

VecX RobotArgs::joints(const Model& m, const std::string& text, const std::string& what) const {
  const std::vector<double> v = parseList(text, what);
  if (static_cast<int>(v.size()) != m.nq)
    throw Error(what + ": robot '" + m.name + "' has " + std::to_string(m.nq) + " joints, got " + std::to_string(v.size()) + " values");
  VecX q(m.nq);
  for (int i = 0; i < m.njoints(); ++i) {
    const int k = m.idx_q[i];
    q[k] = (deg && isAngular(m.joints[i].kind)) ? v[k] * kDeg : v[k];
  }
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

void print(const json& j) { std::cout << j.dump() << std::endl; }

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
  } catch (const std::exception& e) {
    std::cerr << "achain " << sub << ": error: " << e.what() << std::endl;
    std::exit(1);
  }
}

}  // namespace achain::cli
