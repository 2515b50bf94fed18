// Subcommand `drive-check` (formerly `flex-check`): a planned joint move checked against lumped joint flexibility before it is sent
// (core/include/achain/trajectory/flex_check.hpp), unshaped and with ZV / ZVD input shaping.
#include <cmath>

#include "common.hpp"
#include <achain/io/drive_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/trajectory/flex_check.hpp>
#include <achain/trajectory/plan.hpp>

namespace achain::cli {
namespace {

json resultJson(const FlexCheckResult& r) {
  return {{"duration", r.duration},
          {"bandwidth_hz", r.bandwidth_hz},
          {"bandwidth_ratio", r.bandwidth_ratio},
          {"peak_tip_error_m", r.peak_tip_error},
          {"peak_tip_error_time", r.peak_tip_error_time},
          {"peak_deflection", r.peak_deflection},
          {"static_tip_sag_m", r.static_tip_sag},
          {"residual_tip_vibration_m", r.residual_tip_vibration},
          {"residual_deflection", r.residual_deflection},
          {"settle", r.settle},
          {"dt", r.dt},
          {"steps", r.steps}};
}

RegisterCommand drive_check_cmd("drive-check", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "drive-check",
      "Check a planned joint move against lumped joint flexibility (Spong): motors on the plan, links through the drive "
      "springs; first natural frequency along the path, bandwidth ratio, peak tip error, residual vibration; "
      "with --shaper also the ZV / ZVD input-shaped plan. (flex-check: its former name, kept for one release)");
  sub->alias("flex-check");
  static RobotArgs args;
  static DriveArgs drive;
  static std::string from, to, profile = "trapezoid", shaper = "all", legs = "full";
  static bool sync = false;
  static double vscale = 1, ascale = 1, duration = 0, shaper_hz = 0, shaper_zeta = -1, settle = 0, dt = 0;
  static int samples = 21;
  args.add(sub, JointInputs::Deg);
  sub->add_option("--from", from, "Start configuration (degrees for angular joints with --deg)")->required();
  sub->add_option("--to", to, "Goal configuration")->required();
  sub->add_option("--profile", profile, "trapezoid | cubic | quintic | septic (default trapezoid, the model's limits)");
  sub->add_flag("--sync", sync, "Trapezoid: synchronise all joints");
  sub->add_option("--vel-scale", vscale, "Multiply the speed limits")->check(kPositive);
  sub->add_option("--acc-scale", ascale, "Multiply the acceleration limits")->check(kPositive);
  sub->add_option("--duration", duration, "Scale the plan uniformly to this duration (s)")->check(kPositive);
  drive.add(sub, "--stiffness", "--damping");
  sub->add_option("--shaper", shaper, "none | zv | zvd | all (default all: the plan unshaped, then ZV and ZVD)");
  sub->add_option("--shaper-frequency", shaper_hz, "Frequency shaped for, Hz (default: the first locked-motor frequency at the end of the move)")->check(kPositive);
  sub->add_option("--shaper-damping", shaper_zeta, "Damping ratio shaped for (default: the first mode's, from the drive damping)");
  sub->add_option("--settle", settle, "Seconds simulated after the move (default: 5 periods of the lowest first frequency, at least 0.5)")->check(kPositive);
  sub->add_option("--dt", dt, "Integration step, s (default: 1/20 of the shortest locked-motor period, at most 1 ms)")->check(kPositive);
  sub->add_option("--samples", samples, "Configurations along the path for the frequency map (default 21)")->check(CLI::Range(2, 10000));
  sub->add_option("--legs", legs, "A-pair leg model: massless | lumped | full | potential (default full)");
  sub->callback([] {
    run("drive-check", [] {
      const Robot robot = args.read();
      const Model& m = robot.model;
      PlanSpec spec;
      spec.profile = profile;
      spec.from = args.joints(m, from, "--from");
      spec.to = args.joints(m, to, "--to");
      spec.synchronize = sync;
      spec.velocity_scale = vscale;
      spec.acceleration_scale = ascale;
      spec.duration = duration;
      const Plan plan = planJointPath(m, spec);
      const JointFlexibility f = drive.read(robot);
      DynamicsOptions o;
      o.legs = legModelFromString(legs);
      FlexCheckOptions fo;
      fo.dt = dt;
      fo.settle = settle;
      fo.frequency_samples = samples;
      std::vector<ShaperKind> kinds;
      if (shaper == "all") kinds = {ShaperKind::None, ShaperKind::ZV, ShaperKind::ZVD};
      else kinds = {shaperKindFromString(shaper)};
      const ShapedCheckSet set = checkShapedTrajectories(m, f, plan.path, o, fo, kinds, shaper_hz, shaper_zeta);
      const FlexCheckResult& base = set.unshaped;
      const double w = set.shaper_omega, zeta = set.shaper_zeta;
      json results = json::array();
      for (const ShapedCheck& c : set.rows) {
        json row;
        if (c.shaper.kind != ShaperKind::None) row["impulses"] = {{"amplitude", c.shaper.amplitude}, {"time", c.shaper.time}};
        row["shaper"] = toString(c.shaper.kind);
        row.update(resultJson(c.result));
        row["residual_reduction"] = c.residual_reduction;
        results.push_back(row);
      }
      json joints = json::array();
      for (int i = 0; i < m.nv; ++i) joints.push_back(m.joints[m.coord_joint[i]].name);
      print({{"robot", m.name},
             {"joints", joints},
             {"plan", {{"profile", plan.path->profile()}, {"duration", plan.path->duration()}}},
             {"stiffness", toJson(f.stiffness)},
             {"damping", toJson(f.damping)},
             {"motor_side", "the motors follow the plan exactly (ideal servo); links through the drive springs"},
             {"first_frequency_hz", {{"t", base.frequency_t}, {"hz", base.first_hz}, {"min", base.first_hz_min},
                                     {"max", base.first_hz_max}, {"end", base.first_hz_end}}},
             {"first_damping_ratio_end", base.first_damping_ratio_end},
             {"highest_frequency_hz", base.highest_hz},
             {"bandwidth_definition", "frequency below which 95 % of the joint-acceleration energy lies; ratio = bandwidth / min first frequency"},
             {"shaper_frequency_hz", w / (2 * M_PI)},
             {"shaper_damping_ratio", zeta},
             {"results", results}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
