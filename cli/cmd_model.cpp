// Subcommands about models: robots, validate, fk.
#include <fstream>
#include <sstream>

#include <achain/model/apair.hpp>
#include <achain/model/dh_extract.hpp>
#include "common.hpp"
#include <achain/kinematics/fk.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/urdf.hpp>
#include <achain/model/robots.hpp>

namespace achain::cli {
namespace {

/// The summary `robots` and `validate` print. "dh": "given" (placed by DH constants), "extracted" (a URDF chain
/// with a DH description, listed in "dh_parameters", SI: m and rad), or "none (reason)".
json modelSummary(const Model& m) {
  json joints = json::array();
  for (const auto& j : m.joints) joints.push_back({{"name", j.name}, {"kind", toString(j.kind)}});
  json out = {{"name", m.name}, {"dof", m.nq}, {"joints", joints}, {"description", m.description}};
  if (m.has_dh) {
    out["dh"] = "given";
    return out;
  }
  const DHExtraction x = extractDH(m);
  if (!x.ok) {
    out["dh"] = "none (" + x.reason + ")";
    return out;
  }
  out["dh"] = "extracted";
  json table = json::array();
  for (const Joint& j : x.model.joints)
    table.push_back({{"joint", j.name}, {"a", j.a}, {"alpha", j.alpha}, {"d", j.d}, {"theta", j.theta_f}, {"sign", j.sign}});
  out["dh_parameters"] = table;
  out["dh_base"] = toJson(x.model.base.matrix());
  out["dh_tool"] = toJson(x.model.tool.matrix());
  return out;
}

/// The text of a built-in robot's description (its JSON file), or nullptr.
const std::string* builtinText(const std::string& name) {
  for (const auto& r : builtinRobots())
    if (r.name == name) return &r.json;
  return nullptr;
}

RegisterCommand robots_cmd("robots", [](CLI::App& app) {
  auto* sub = app.add_subcommand("robots", "List the built-in robots, or print one's description (--show NAME)");
  static std::string show;
  sub->add_option("--show", show, "Print the built-in robot NAME's description: the JSON a robot file holds (a starting point for your own)");
  sub->callback([] {
    run("robots", [] {
      if (!show.empty()) {
        const std::string* text = builtinText(show);
        if (!text) builtinModel(show);  // throws listing the known names
        return writeStdout(*text);
      }
      json list = json::array();
      for (const auto& r : builtinRobots()) list.push_back(modelSummary(builtinModel(r.name)));
      print({{"robots", list}});
    });
  });
});

RegisterCommand validate_cmd("validate", [](CLI::App& app) {
  auto* sub = app.add_subcommand("validate", "Check a robot file (JSON or URDF, or a built-in robot by name); prints its summary or names the bad field");
  static std::string file, tool_link;
  static bool dump = false, balance = false, keep_fixed = false;
  sub->add_option("FILE", file, "Robot description (JSON or URDF), or a built-in robot's name (see `achain robots`)")->required();
  addUrdfOptions(sub, tool_link, balance, keep_fixed);
  sub->add_flag("--si", dump, "Also print the model as loaded, in SI units");
  sub->callback([] {
    run("validate", [] {
      // A built-in name (when no file of that name exists) validates the built-in's own text.
      const std::string* builtin = std::ifstream(file) ? nullptr : builtinText(file);
      const std::string text = builtin ? *builtin : readRobotFile(file);  // bounded: /dev/zero is refused, not read forever
      Model m;
      try {
        if (looksLikeXml(text)) {
          UrdfOptions o;
          o.tool_link = tool_link;
          o.balance_inertia = balance;
          o.keep_fixed = keep_fixed;
          m = modelFromUrdfString(text, o);
        } else {
          if (!tool_link.empty()) throw Error("--tool-link: for URDF files only (a JSON description gives tool.link)");
          if (balance || keep_fixed) throw Error(std::string(balance ? "--balance-inertia" : "--keep-fixed") + ": for URDF files only");
          m = modelFromJsonString(text);
        }
      } catch (const Error& e) {
        throw Error(file + ": " + e.what());
      }
      reportUrdfWarnings("validate", m);
      json out = modelSummary(m);
      out["valid"] = true;
      out["builtin"] = builtin != nullptr;
      json warnings = json::array();
      for (const std::string& n : m.notes)
        if (n.rfind("URDF warning: ", 0) == 0) warnings.push_back(n.substr(14));
      if (!warnings.empty()) out["warnings"] = warnings;
      if (dump) out["model"] = modelToJson(m);
      print(out);
    });
  });
});

RegisterCommand fk_cmd("fk", [](CLI::App& app) {
  auto* sub = app.add_subcommand("fk", "Forward kinematics: tool pose (and optionally every link frame) in the base frame");
  static RobotArgs args;
  static bool frames = false, legs = false;
  args.add(sub);
  sub->add_flag("--frames", frames, "Also print every link frame as 4x4 matrices");
  sub->add_flag("--legs", legs, "Also print the six leg endpoints of every A-pair (world frame)");
  sub->callback([] {
    run("fk", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q);
      checkConfiguration(m, q);
      Data d(m);
      forwardKinematics(m, d, q);
      const Mat4 T = d.oMtool.matrix();
      json out = {{"T", toJson(T)},
                  {"p", {T(0, 3), T(1, 3), T(2, 3)}},
                  {"within_limits", withinLimits(m, q)}};
      if (frames) {
        json fr = json::array();
        for (const auto& F : d.oMi) fr.push_back(toJson(F.matrix()));
        out["frames"] = fr;
      }
      if (legs) {
        json L = json::array();
        for (int i = 0; i < m.njoints(); ++i) {
          if (m.joints[i].kind != JointKind::A) continue;
          std::array<Vec3, 6> b, p;
          apairLegEndpoints(m, d, i, q[m.idx_q[i]], b, p);
          json legs6 = json::array();
          for (int k = 0; k < 6; ++k) legs6.push_back({{b[k].x(), b[k].y(), b[k].z()}, {p[k].x(), p[k].y(), p[k].z()}});
          L.push_back({{"joint", i}, {"legs", legs6}});
        }
        out["legs"] = L;
      }
      print(out);
    });
  });
});

}  // namespace
}  // namespace achain::cli
