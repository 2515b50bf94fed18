// Subcommands `flex-modes` and `flex-deflection`: a chain with the flexible links of its robot file
// (core/include/achain/dynamics/flexible_chain.hpp), joints locked: coupled natural modes, and the static deflection
// under a tool load.
#include <cmath>

#include "common.hpp"
#include <achain/dynamics/flexible_chain.hpp>
#include <achain/io/json_text.hpp>
#include <achain/kinematics/fk.hpp>

namespace achain::cli {
namespace {

/// The robot's flexible chain (its file's flexible blocks); an error when it has none.
FlexibleChain chainOf(const RobotArgs& args, const Model& m, FlexibleLinks& links) {
  nlohmann::json doc;
  try {
    doc = parseJsonText(robotText(args.robot));
  } catch (const Error&) {
    throw Error("--robot: flexible links are declared in a robot JSON file (joints[i].flexible); this robot is not one");
  }
  links = flexibleLinksFromJson(doc, m);
  if (links.links.empty())
    throw Error("--robot: " + args.robot + " declares no flexible link (joints[i].flexible; the built-in space-arm does)");
  return makeFlexibleChain(m, links.links);
}

/// "joint_name q1 (y bending)", one per modal coordinate.
json modalCoordinateNames(const FlexibleChain& c) {
  json names = json::array();
  for (size_t k = 0; k < c.links.size(); ++k)
    for (size_t j = 0; j < c.links[k].modes.size(); ++j)
      names.push_back(c.model.joints[c.joint[k]].name + " q" + std::to_string(j + 1) + " (" + toString(c.links[k].modes[j].direction) + ")");
  return names;
}

RegisterCommand flex_modes_cmd("flex-modes", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "flex-modes",
      "Coupled natural modes of a chain with flexible links (the robot file's flexible blocks), joints locked, base fixed, "
      "links undeflected: det(K_ff - w^2 I*_ff(q)) = 0 over the modal coordinates (Tesar-Graves I* with the inertial "
      "coupling); no damping, no gravity stiffness");
  static RobotArgs args;
  args.add(sub);
  sub->callback([] {
    run("flex-modes", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q, "--q");
      checkConfiguration(m, q);
      FlexibleLinks links;
      const FlexibleChain c = chainOf(args, m, links);
      FlexibleChainData d(c);
      const NaturalModes r = flexibleChainModes(c, d, q);
      json modes = json::array();
      for (Eigen::Index k = 0; k < r.omega.size(); ++k)
        modes.push_back({{"omega", r.omega[k]}, {"frequency_hz", r.omega[k] / (2 * kPi)}, {"shape", toJson(VecX(r.shapes.col(k)))}});
      json clamped = json::array();
      for (size_t k = 0; k < c.links.size(); ++k) {
        const NaturalModes a = clampedLinkModes(c.matrices[k]);
        clamped.push_back({{"joint", c.joint[k]}, {"name", m.joints[c.joint[k]].name},
                           {"frequency_hz", toJson(VecX(a.omega / (2 * kPi)))}});
      }
      print({{"q", toJson(q)}, {"coordinates", modalCoordinateNames(c)}, {"modes", modes}, {"clamped_links", clamped}});
    });
  });
});

RegisterCommand flex_deflection_cmd("flex-deflection", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "flex-deflection",
      "Static deflection of a chain with flexible links under a load at the tool, joints locked, linearised at q: "
      "K_ff phi_f = G_f^T (force; moment). Prints the modal coordinates, the tool's displacement and rotation against "
      "the rigid pose, and the largest link tip rotation against the 3 and 5 degree small-angle limits");
  static RobotArgs args;
  static std::string force = "0,0,0", moment = "0,0,0", units = "si";
  args.add(sub);
  sub->add_option("--force", force, "Force at the tool origin fx,fy,fz, world frame (N; the file's force unit with --units file)");
  sub->add_option("--moment", moment, "Moment about the tool origin mx,my,mz, world frame (N*m; the file's torque unit with --units file)");
  sub->add_option("--units", units, "si (default) or file: --force/--moment and the printed lengths in the robot file's units");
  sub->callback([] {
    run("flex-deflection", [] {
      if (units != "si" && units != "file") throw Error("--units: expected si or file (got '" + units + "')");
      const Model m = args.model();
      const VecX q = args.joints(m, args.q, "--q");
      checkConfiguration(m, q);
      FlexibleLinks links;
      const FlexibleChain c = chainOf(args, m, links);
      const bool file = units == "file";
      auto vec = [](const std::string& text, const std::string& what, double scale) {
        const auto v = parseList(text, what);
        if (v.size() != 3) throw Error(what + ": expected 3 values, got " + std::to_string(v.size()));
        return Vec3(Vec3(v[0], v[1], v[2]) * scale);
      };
      const Vec3 F = vec(force, "--force", file ? links.force_unit : 1.0);
      const Vec3 M = vec(moment, "--moment", file ? links.torque_unit : 1.0);
      FlexibleChainData d(c);
      const FlexibleStaticResult r = flexibleStaticDeflection(c, d, q, F, M);
      const double len = file ? links.length_unit : 1.0;
      VecX modal = r.modal;
      if (file)
        for (size_t k = 0, i = 0; k < links.links.size(); ++k)
          for (double cu : links.links[k].coordinate_unit) modal[i++] /= cu;
      const FlexibleDeflection& f = r.deflection;
      print({{"q", toJson(q)},
             {"units", units},
             {"coordinates", modalCoordinateNames(c)},
             {"modal", toJson(modal)},
             {"tool_displacement", toJson(VecX(f.tool_displacement / len))},
             {"tool_position_error", f.tool_position_error / len},
             {"tool_rotation_error_rad", f.tool_rotation_error},
             {"max_link_rotation_rad", f.max_link_rotation},
             {"max_link_rotation_deg", f.max_link_rotation / kDeg},
             {"max_rotation_joint", m.joints[f.max_rotation_joint].name},
             {"above_3deg", f.above_3deg},
             {"above_5deg", f.above_5deg}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
