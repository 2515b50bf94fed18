// Subcommands about models: robots, validate, fk.
#include <fstream>
#include <sstream>

#include <achain/model/apair.hpp>
#include <achain/model/dh_extract.hpp>
#include "common.hpp"
#include <achain/kinematics/fk.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/urdf.hpp>
#include <achain/io/robot.hpp>

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

RegisterCommand robots_cmd("robots", [](CLI::App& app) {
  auto* sub = app.add_subcommand("robots", "List the built-in robots, or print one's description (--show NAME)");
  static std::string show;
  sub->add_option("--show", show, "Print the built-in robot NAME's description: the JSON a robot file holds (a starting point for your own)");
  sub->callback([] {
    run("robots", [] {
      if (!show.empty()) {
        const BuiltinRobot* b = findBuiltinRobot(show);
        if (!b) builtinModel(show);  // throws listing the known names
        return writeStdout(b->json);
      }
      json list = json::array(), parallel = json::array();
      for (const auto& r : builtinRobots()) list.push_back(modelSummary(builtinModel(r.name)));
      for (const auto& r : builtinParallelRobots()) {  // parallel robot files (`achain parallel`)
        const ParallelRobot p = loadParallel(r.name);
        parallel.push_back({{"name", p.name}, {"description", p.description}, {"legs", p.legs.size()}, {"freedoms", p.freedoms()}});
      }
      print({{"robots", list}, {"parallel", parallel}});
    });
  });
});

RegisterCommand validate_cmd("validate", [](CLI::App& app) {
  auto* sub = app.add_subcommand("validate", "Check a robot file (JSON or URDF, or a built-in robot by name); prints its summary or names the bad field");
  static RobotArgs args;
  static bool dump = false;
  sub->add_option("FILE", args.robot, "Robot description (JSON or URDF), or a built-in robot's name (see `achain robots`)")->required();
  addUrdfOptions(sub, args.tool_link, args.balance_inertia, args.keep_fixed);
  sub->add_flag("--si", dump, "Also print the model as loaded, in SI units");
  sub->callback([] {
    run("validate", [] {
      // A file of that name comes first; a built-in name (when no such file exists) validates the built-in's own
      // text. Every section of the file is read and checked (the loop, drives, flexible links), bounded: /dev/zero
      // is refused, not read forever.
      const bool is_file = static_cast<bool>(std::ifstream(args.robot));
      const bool builtin = !is_file && findBuiltinRobot(args.robot) != nullptr;
      RobotArgs which = args;
      if (is_file && findBuiltinRobot(args.robot) && args.robot.find('/') == std::string::npos) which.robot = "./" + args.robot;
      const Robot robot = which.read(true);  // prints the URDF warnings
      if (robot.parallel) {  // a parallel robot file: its legs were each read and checked as a model
        const ParallelRobot& p = *robot.parallel;
        json legs = json::array();
        for (size_t r = 0; r < p.legs.size(); ++r) legs.push_back({{"name", p.leg_names[r]}, {"joints", p.legs[r].njoints()}});
        print({{"name", p.name}, {"format", "parallel"}, {"planar", p.planar}, {"freedoms", p.freedoms()}, {"legs", legs},
               {"valid", true}, {"builtin", builtin}});
        return;
      }
      const Model& m = robot.model;
      json out = modelSummary(m);
      out["valid"] = true;
      out["builtin"] = builtin;
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
