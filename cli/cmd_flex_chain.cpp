// Subcommands `flex-modes` and `flex-deflection`: a chain with the flexible links of its robot file
// (core/include/achain/flexibility/flexible_chain.hpp), joints locked: coupled natural modes, and the static deflection
// under a tool load.
#include <cmath>

#include "common.hpp"
#include "progress.hpp"
#include <achain/flexibility/flexible_chain.hpp>
#include <achain/io/json_text.hpp>
#include <achain/kinematics/fk.hpp>

namespace achain::cli {
namespace {

/// What every flexible-chain subcommand starts from: the model, the configuration, the file's flexible links and the
/// chain. base_mass (0: fixed base) is in kg, or in the robot file's mass unit when file_units.
struct FlexSetup {
  FlexSetup(const RobotArgs& args, double base_mass = 0, bool file_units = false);
  FlexSetup(const FlexSetup&) = delete;  // the chain refers to `model`
  Model model;
  VecX q;
  FlexibleLinks links;
  FlexibleChain chain;
};

FlexSetup::FlexSetup(const RobotArgs& args, double base_mass, bool file_units) {
  Robot robot = args.read();
  model = std::move(robot.model);
  q = args.joints(model, args.q, "--q");
  checkConfiguration(model, q);
  if (robot.format != RobotFormat::Json)
    throw Error("--robot: flexible links are declared in a robot JSON file (joints[i].flexible); this robot is not one");
  if (robot.flexible_links) links = std::move(*robot.flexible_links);
  if (links.links.empty())
    throw Error("--robot: " + args.robot + " declares no flexible link (joints[i].flexible; the built-in space-arm does)");
  if (base_mass < 0 || !std::isfinite(base_mass)) throw Error("--base-mass: must be positive (a translating base) or 0 (fixed)");
  FlexibleChainOptions o;
  o.translating_base = base_mass != 0;
  o.base_mass = base_mass * (file_units ? links.mass_unit : 1.0);
  chain = makeFlexibleChain(model, links.links, o);
}

/// A 3-vector option ("1,2,3") times `scale`.
Vec3 vec(const std::string& text, const std::string& what, double scale) {
  const auto v = parseList(text, what);
  if (v.size() != 3) throw Error(what + ": expected 3 values, got " + std::to_string(v.size()));
  return Vec3(v[0], v[1], v[2]) * scale;
}

/// SI per printed unit of each modal coordinate: the file's (FlexibleLinkEntry::coordinate_unit) or 1 (SI).
VecX coordinateUnits(const FlexibleLinks& links, int nf, bool file) {
  VecX cu = VecX::Ones(nf);
  if (file)
    for (size_t k = 0, i = 0; k < links.links.size(); ++k)
      for (double u : links.links[k].coordinate_unit) cu[static_cast<Eigen::Index>(i++)] = u;
  return cu;
}

RegisterCommand flex_modes_cmd("flex-modes", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "flex-modes",
      "Coupled natural modes of a chain with flexible links (the robot file's flexible blocks), joints locked, base fixed, "
      "links undeflected: det(K_ff - w^2 I*_ff(q)) = 0 over the modal coordinates (Tesar-Graves I* with the inertial "
      "coupling); no damping, no gravity stiffness. With --base-mass the base translates freely (the paper's space "
      "arm): three rigid-body modes at 0 come first");
  static RobotArgs args;
  static double base_mass = 0;
  static std::string units = "si";
  args.add(sub);
  sub->add_option("--base-mass", base_mass, "Mass of a freely translating base (kg; the file's mass unit with --units file); default 0: fixed base");
  sub->add_option("--units", units, "si (default) or file: --base-mass in the robot file's mass unit");
  sub->callback([] {
    run("flex-modes", [] {
      if (units != "si" && units != "file") throw Error("--units: expected si or file (got '" + units + "')");
      const FlexSetup st(args, base_mass, units == "file");
      const Model& m = st.model;
      const VecX& q = st.q;
      const FlexibleChain& c = st.chain;
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
      print({{"q", toJson(q)}, {"coordinates", flexibleCoordinateNames(c)}, {"modes", modes}, {"clamped_links", clamped}});
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
      const FlexSetup st(args);
      const Model& m = st.model;
      const VecX& q = st.q;
      const FlexibleLinks& links = st.links;
      const FlexibleChain& c = st.chain;
      const bool file = units == "file";
      const Vec3 F = vec(force, "--force", file ? links.force_unit : 1.0);
      const Vec3 M = vec(moment, "--moment", file ? links.torque_unit : 1.0);
      FlexibleChainData d(c);
      const FlexibleStaticResult r = flexibleStaticDeflection(c, d, q, F, M);
      const double len = file ? links.length_unit : 1.0;
      const VecX modal = r.modal.cwiseQuotient(coordinateUnits(links, c.nf, file));
      const FlexibleDeflection& f = r.deflection;
      print({{"q", toJson(q)},
             {"units", units},
             {"coordinates", flexibleCoordinateNames(c)},
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

RegisterCommand flex_simulate_cmd("flex-simulate", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "flex-simulate",
      "Time response of a chain with flexible links to a load at the tool (Tesar-Graves' simulations): a step, a pulse "
      "or a sine of a force and moment (world frame), from rest at q with the links undeflected; joints locked "
      "(default) or free with zero torque; no damping, no gravity; RK4 with the load held over each step");
  static RobotArgs args;
  static std::string force = "0,0,0", moment = "0,0,0", units = "si", load = "step", joints = "locked";
  static double frequency = 0, start = 0, stop = 0, duration = 2, dt = 0;
  static int samples = 101;
  static double base_mass = 0;
  static bool show_progress = false;
  args.add(sub);
  sub->add_option("--base-mass", base_mass, "Mass of a freely translating base (kg; the file's mass unit with --units file); default 0: fixed base");
  sub->add_flag("--progress", show_progress,
                "Progress on stderr (on a terminal redrawn in place; in a file or pipe about once a second). With or "
                "without it, Ctrl-C or SIGTERM stops the run within 1000 steps (or 1 % of them), saying where, exit "
                "status 130 or 143");
  sub->add_option("--force", force, "Force at the tool origin fx,fy,fz, world frame (N; the file's force unit with --units file)");
  sub->add_option("--moment", moment, "Moment about the tool origin mx,my,mz, world frame (N*m; the file's torque unit with --units file)");
  sub->add_option("--load", load, "step (from --start), pulse (from --start to --stop) or sine (amplitude times sin(2 pi f (t - start)) from --start)");
  sub->add_option("--frequency", frequency, "sine: frequency, Hz");
  sub->add_option("--start", start, "Load start time, s (default 0)");
  sub->add_option("--stop", stop, "pulse: load end time, s");
  sub->add_option("--duration", duration, "Simulated time, s (default 2)");
  sub->add_option("--dt", dt, "Step, s (default: 2 pi / w_max / 20 of the linearised modes)");
  sub->add_option("--samples", samples, "Output samples, evenly spaced from 0 to the end (default 101)")->check(CLI::Range(2, 100000));
  sub->add_option("--joints", joints, "locked (held servo-stiff, default) or free (zero torque)");
  sub->add_option("--units", units, "si (default) or file: --force/--moment and the printed lengths and modal coordinates in the robot file's units");
  sub->callback([] {
    run("flex-simulate", [] {
      if (units != "si" && units != "file") throw Error("--units: expected si or file (got '" + units + "')");
      if (joints != "locked" && joints != "free") throw Error("--joints: expected locked or free (got '" + joints + "')");
      if (load != "step" && load != "pulse" && load != "sine") throw Error("--load: expected step, pulse or sine (got '" + load + "')");
      if (load == "sine" && !(frequency > 0)) throw Error("--frequency: a sine load needs a positive frequency (Hz)");
      if (load == "pulse" && !(stop > start)) throw Error("--stop: a pulse needs --stop after --start");
      if (!(duration > 0) || duration > 1e4) throw Error("--duration: must be positive (and at most 1e4 s)");
      if (dt < 0) throw Error("--dt: must be positive");
      const bool file = units == "file";
      const FlexSetup st(args, base_mass, file);
      const FlexibleLinks& links = st.links;
      const FlexibleChain& c = st.chain;
      const FlexibleSimulationOptions o{flexibleLoadKindFromString(load), frequency, start, stop, duration, dt, samples,
                                        joints == "locked"};
      FlexibleChainData d(c);
      const StopOnSignal stop_on_signal;
      ProgressLine line("achain flex-simulate", show_progress);
      const Progress progress([&line](double f) {
        line.report(f);
        return true;
      }, stop_on_signal.flag());
      const FlexibleSimulation r = flexibleSimulate(c, d, st.q, vec(force, "--force", file ? links.force_unit : 1.0),
                                                    vec(moment, "--moment", file ? links.torque_unit : 1.0), o, progress);
      line.finish();
      const double len = file ? links.length_unit : 1.0;
      const VecX cu = coordinateUnits(links, c.nf, file);
      json Q = json::array(), P = json::array(), B = json::array();
      for (Eigen::Index k = 0; k < r.modal.rows(); ++k) {
        Q.push_back(toJson(VecX(r.modal.row(k).transpose().cwiseQuotient(cu))));
        P.push_back(toJson(VecX(r.tool_displacement.row(k).transpose() / len)));
        if (c.nb) B.push_back(toJson(VecX(r.base_translation.row(k).transpose() / len)));
      }
      const double peak = r.peak_tool_deflection / len, peak_rotation = r.peak_link_rotation;
      print({{"q", toJson(st.q)},
             {"units", units},
             {"joints", joints},
             {"load", load},
             {"dt", r.dt},
             {"steps", r.steps},
             {"coordinates", flexibleCoordinateNames(c, false)},
             {"t", r.t},
             {"modal", Q},
             {"tool_displacement", P},
             {"peak_tool_deflection", peak},
             {"base_translation", c.nb ? B : json(nullptr)},
             {"peak_link_rotation_deg", peak_rotation / kDeg},
             {"above_3deg", peak_rotation > 3 * kDeg},
             {"above_5deg", peak_rotation > 5 * kDeg}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
