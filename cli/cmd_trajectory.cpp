// Subcommands of the trajectory area: traj (plan and sample), analyze / work (torque, power and work
// along a trajectory file), apair-study (Robinson's single-A-pair work tables 3.8/3.9).
#include <fstream>
#include <achain/math/text.hpp>
#include <sstream>

#include "common.hpp"
#include <achain/dynamics/options.hpp>
#include <achain/io/trajectory_json.hpp>
#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/trajectory/apair_study.hpp>
#include <achain/trajectory/cartesian.hpp>
#include <achain/trajectory/torque_analysis.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/trajectory.hpp>

namespace achain::cli {
namespace {

void writeOrPrint(const std::string& out, const std::string& text) {
  if (out.empty() || out == "-") return writeStdout(text);
  writeFile(out, [&](std::ostream& f) {
    f << text;
    if (!text.empty() && text.back() != '\n') f << '\n';
  });
}

DynamicsOptions dynamicsOptions(const std::string& legs, bool motors, bool friction) {
  DynamicsOptions o;
  if (!legs.empty()) o.legs = legModelFromString(legs);
  o.motors = motors;
  o.friction = friction;
  return o;
}

struct TrajArgs {
  RobotArgs robot;
  std::string from, to, profile = "trapezoid", out, vmax, amax, times, legs, cartesian, arc_via, to_xyz, v0, v1, a0, a1;
  double speed = 0.25, accel = 1.0, wspeed = 1.0, waccel = 4.0;
  int knots = 41;
  bool full_pose = false;
  std::vector<std::string> via;
  double rate = 100, duration = 0, vscale = 1, ascale = 1;
  bool sync = false, csv = false, torque = false, motors = false, friction = false;
  CLI::Option* profile_opt = nullptr;
};

void emit(const TrajArgs& a, const Trajectory& tr, json extra) {
  if (a.csv) {
    // the CSV's numbers, checked in place (no JSON of the whole trajectory built just for the check)
    for (const auto& [name, M] : {std::pair<const char*, const MatX*>{"q", &tr.q}, {"qd", &tr.qd}, {"qdd", &tr.qdd}})
      if (!M->allFinite()) failNotFinite(name);
    writeOrPrint(a.out, trajectoryToCsv(tr));
    if (!a.out.empty() && a.out != "-") print(extra);
    return;
  }
  json j = trajectoryToJson(tr);
  for (auto it = extra.begin(); it != extra.end(); ++it)
    if (!j.contains(it.key())) j[it.key()] = it.value();
  if (!a.out.empty() && a.out != "-") {
    checkFinite(j);
    writeOrPrint(a.out, j.dump());
    extra["out"] = a.out;
    print(extra);
  } else {
    print(j);
  }
}

void runCartesian(const Model& m, const TrajArgs& a) {
  CartesianPathSpec c;
  if (a.cartesian == "line") c.kind = CartesianKind::Line;
  else if (a.cartesian == "arc") c.kind = CartesianKind::Arc;
  else throw Error("--cartesian: '" + a.cartesian + "' is not line or arc");
  const VecX q0 = a.robot.joints(m, a.from, "--from");
  Data d(m);
  if (!a.to.empty()) {
    forwardKinematics(m, d, a.robot.joints(m, a.to, "--to"));
    c.goal = d.oMtool;
  } else if (!a.to_xyz.empty()) {
    const auto p = parseList(a.to_xyz, "--to-xyz");
    if (p.size() != 3) throw Error("--to-xyz: expected x,y,z");
    forwardKinematics(m, d, q0);
    c.goal = d.oMtool;
    c.goal.p = Vec3(p[0], p[1], p[2]);
  } else {
    throw Error("--to or --to-xyz: the goal is required");
  }
  if (c.kind == CartesianKind::Arc) {
    if (a.arc_via.empty()) throw Error("--arc-via: required for an arc");
    const auto p = parseList(a.arc_via, "--arc-via");
    if (p.size() != 3) throw Error("--arc-via: expected x,y,z");
    c.arc_via = Vec3(p[0], p[1], p[2]);
  }
  c.speed = a.speed;
  c.acceleration = a.accel;
  c.angular_speed = a.wspeed;
  c.angular_acceleration = a.waccel;
  c.knots = a.knots;
  if (a.full_pose) c.position_only = 0;
  const CartesianPlan plan = planCartesianPath(m, q0, c);
  Trajectory tr = samplePath(m, *plan.path, a.rate);
  tr.profile = a.cartesian;
  json extra = {{"robot", m.name}, {"profile", tr.profile}, {"duration", tr.duration()}, {"samples", tr.samples()},
                {"continuity", plan.path->continuity()}, {"breakpoints", tr.breakpoints},
                {"cartesian", {{"length", plan.length}, {"rotation", plan.rotation}, {"position_only", plan.position_only},
                               {"max_ik_error", plan.max_ik_error}, {"max_deviation", plan.max_deviation},
                               {"joint_limit_factor", plan.scaling.factor}}},
                {"limits", checkRateLimits(m, tr)}};
  emit(a, tr, extra);
}

RegisterCommand traj_cmd("traj", [](CLI::App& app) {
  auto* sub = app.add_subcommand("traj", "Plan a joint trajectory (trapezoid, cubic, quintic, septic, spline) and sample it");
  static TrajArgs a;
  a.robot.add(sub, JointInputs::Deg);
  sub->add_option("--from", a.from, "Start configuration (comma list; degrees for angular joints with --deg)")->required();
  sub->add_option("--to", a.to, "Goal configuration, within the joint limits (for --cartesian: the goal pose is its FK)");
  sub->add_option("--to-xyz", a.to_xyz, "--cartesian: goal tool position x,y,z (m, base frame), start orientation kept");
  sub->add_option("--cartesian", a.cartesian, "Tool path instead of a joint path: line | arc (through IK)");
  sub->add_option("--arc-via", a.arc_via, "--cartesian arc: a point x,y,z (m, base frame) on the circle between start and goal");
  sub->add_option("--speed", a.speed, "--cartesian: tool speed limit, m/s (default 0.25)");
  sub->add_option("--accel", a.accel, "--cartesian: tool acceleration limit, m/s^2 (default 1)");
  sub->add_option("--angular-speed", a.wspeed, "--cartesian: orientation rate limit, rad/s (default 1)");
  sub->add_option("--angular-accel", a.waccel, "--cartesian: rad/s^2 (default 4)");
  sub->add_option("--knots", a.knots, "--cartesian: IK solutions along the path (default 41; 2 to 10000)");
  sub->add_flag("--full-pose", a.full_pose, "--cartesian: track orientation too (default: only when the robot has >= 6 joints)");
  sub->add_option("--via", a.via, "Via point(s), within the joint limits: repeat the option or separate points with ';'");
  a.profile_opt = sub->add_option("--profile", a.profile, "trapezoid | cubic | quintic | septic | spline (default trapezoid; spline when --via is given without --profile)");
  sub->add_option("--rate", a.rate, "Sampling rate in Hz (default 100); the end point is always sampled");
  sub->add_flag("--sync", a.sync, "Trapezoid: synchronise all joints (common switch times; straight line in joint space)");
  sub->add_option("--duration", a.duration, "Scale the whole path uniformly to this duration (s; 1e-6 to 1e7)");
  sub->add_option("--v0", a.v0, "cubic/quintic/septic without --via: start velocity per joint (rad/s or m/s; deg/s with --deg); needs --duration (jtraj)");
  sub->add_option("--v1", a.v1, "End velocity per joint, as --v0");
  sub->add_option("--a0", a.a0, "quintic/septic: start acceleration per joint (rad/s^2 or m/s^2; deg/s^2 with --deg)");
  sub->add_option("--a1", a.a1, "quintic/septic: end acceleration per joint");
  sub->add_option("--times", a.times, "Spline knot times (s), from 0, one per point (from, each via, to)");
  sub->add_option("--vmax", a.vmax, "Speed limits per joint (rad/s or m/s; deg/s with --deg); default: the model's");
  sub->add_option("--amax", a.amax, "Acceleration limits per joint (rad/s^2 or m/s^2; deg/s^2 with --deg)");
  sub->add_option("--vel-scale", a.vscale, "Multiply the speed limits (e.g. 0.5)");
  sub->add_option("--acc-scale", a.ascale, "Multiply the acceleration limits");
  sub->add_flag("--torque-limits", a.torque, "Also slow the path uniformly until |tau| <= the effort limits (RNEA)");
  sub->add_option("--legs", a.legs, "A-pair leg model for --torque-limits: massless | lumped | full | pe (default full)");
  sub->add_flag("--motors", a.motors, "Rotor inertia in the torque check");
  sub->add_flag("--friction", a.friction, "Friction in the torque check");
  sub->add_flag("--csv", a.csv, "Write CSV (t, q_*, qd_*, qdd_*) instead of JSON");
  sub->add_option("--out", a.out, "Write to FILE instead of stdout (a one-line JSON summary is printed)");
  sub->callback([] {
    run("traj", [] {
      const Model m = a.robot.model();
      if (!a.cartesian.empty()) {
        runCartesian(m, a);
        return;
      }
      if (a.to.empty()) throw Error("--to: required (the goal configuration)");
      PlanSpec s;
      s.from = a.robot.joints(m, a.from, "--from");
      s.to = a.robot.joints(m, a.to, "--to");
      int k = 0;
      for (const auto& opt : a.via) {
        std::stringstream ss(opt);
        std::string point;
        while (std::getline(ss, point, ';'))
          if (point.find_first_not_of(" \t") != std::string::npos)
            s.via.push_back(a.robot.joints(m, point, "--via[" + std::to_string(k++) + "]"));
      }
      s.profile = a.profile;
      if (!s.via.empty() && a.profile_opt->count() == 0) s.profile = "spline";  // the default with via points
      s.synchronize = a.sync;
      s.duration = a.duration;
      if (!a.times.empty()) s.times = parseList(a.times, "--times");
      if (!a.vmax.empty()) s.velocity = a.robot.joints(m, a.vmax, "--vmax");
      if (!a.amax.empty()) s.acceleration = a.robot.joints(m, a.amax, "--amax");
      if (!a.v0.empty()) s.boundary.v0 = a.robot.joints(m, a.v0, "--v0");
      if (!a.v1.empty()) s.boundary.v1 = a.robot.joints(m, a.v1, "--v1");
      if (!a.a0.empty()) s.boundary.a0 = a.robot.joints(m, a.a0, "--a0");
      if (!a.a1.empty()) s.boundary.a1 = a.robot.joints(m, a.a1, "--a1");
      s.velocity_scale = a.vscale;
      s.acceleration_scale = a.ascale;
      s.torque_limits = a.torque;
      s.dynamics = dynamicsOptions(a.legs, a.motors, a.friction);
      const Plan plan = planJointPath(m, s);
      const Trajectory tr = samplePath(m, *plan.path, a.rate);
      Model checked = m;  // report against the limits actually planned with
      for (int i = 0; i < checked.njoints(); ++i) {
        if (checked.idx_q[i] < 0) continue;  // a fixed joint: no coordinate, no rate limits
        checked.joints[i].limits.velocity = plan.limits.velocity[checked.idx_q[i]];
        checked.joints[i].limits.acceleration = plan.limits.acceleration[checked.idx_q[i]];
      }
      json summary = {{"robot", m.name}, {"profile", tr.profile}, {"duration", tr.duration()}, {"samples", tr.samples()},
                      {"continuity", plan.path->continuity()}, {"breakpoints", tr.breakpoints},
                      {"limits", checkRateLimits(checked, tr)}};
      if (a.torque)
        summary["torque_scaling"] = {{"factor", plan.torque_scaling.factor}, {"binding", plan.torque_scaling.binding},
                                     {"joint", plan.torque_scaling.joint}};
      emit(a, tr, summary);
    });
  });
});

/// A pose given on the command line as x,y,z,roll,pitch,yaw (m; rad, or deg with --deg).
SE3 poseArg(const std::string& text, const std::string& what, bool deg) {
  const auto v = parseList(text, what);
  if (v.size() != 6) throw Error(what + ": expected x,y,z,roll,pitch,yaw (6 values), got " + std::to_string(v.size()));
  const double u = deg ? kDeg : 1.0;
  SE3 T;
  T.p = Vec3(v[0], v[1], v[2]);
  T.R = rpyToMatrix(v[3] * u, v[4] * u, v[5] * u);
  return T;
}

json poseJson(const SE3& T) { return toJson(T.matrix()); }

RegisterCommand interpolate_cmd("interpolate-cartesian", [](CLI::App& app) {
  auto* sub = app.add_subcommand("interpolate-cartesian",
                                 "Cartesian interpolation between two poses without IK (Robotics Toolbox ctraj): straight line, "
                                 "SLERP rotation, trapezoid or polynomial time scaling; poses and twists at samples");
  sub->alias("ctraj");
  static RobotArgs args;
  static std::string from, to, from_pose, to_pose;
  static CartesianInterpolationSpec spec;
  args.add(sub, JointInputs::None, "Built-in robot name or robot file: --from/--to are then joint configurations (poses by FK)", false);
  sub->add_option("--from", from, "Start configuration (with --robot)");
  sub->add_option("--to", to, "Goal configuration (with --robot)");
  sub->add_option("--from-pose", from_pose, "Start pose x,y,z,roll,pitch,yaw (m, rad; deg with --deg), R = Rz(yaw) Ry(pitch) Rx(roll)");
  sub->add_option("--to-pose", to_pose, "Goal pose x,y,z,roll,pitch,yaw");
  sub->add_flag("--deg", args.deg, "Angles of --from/--to (angular joints) and of the poses' roll, pitch, yaw are in degrees");
  sub->add_option("--profile", spec.profile, "Time scaling of s: trapezoid | cubic | quintic | septic (default quintic)");
  sub->add_option("--duration", spec.duration, "Duration in s (default: the shortest within the speed limits)");
  sub->add_option("--speed", spec.speed, "Tool speed limit, m/s (default 0.25)");
  sub->add_option("--accel", spec.acceleration, "Tool acceleration limit, m/s^2 (default 1)");
  sub->add_option("--angular-speed", spec.angular_speed, "Rotation rate limit, rad/s (default 1)");
  sub->add_option("--angular-accel", spec.angular_acceleration, "Rotation acceleration limit, rad/s^2 (default 4)");
  sub->add_option("--rate", spec.rate, "Samples per second (default 100); the end is always sampled");
  sub->callback([] {
    run("interpolate-cartesian", [] {
      SE3 a, b;
      if (!args.robot.empty()) {
        if (from.empty() || to.empty()) throw Error("--from and --to: both required with --robot (joint configurations)");
        if (!from_pose.empty() || !to_pose.empty()) throw Error("--from-pose/--to-pose: not with --robot (give one pair)");
        const Model m = args.model();
        Data d(m);
        forwardKinematics(m, d, args.joints(m, from, "--from"));
        a = d.oMtool;
        forwardKinematics(m, d, args.joints(m, to, "--to"));
        b = d.oMtool;
      } else {
        if (from_pose.empty() || to_pose.empty())
          throw Error("--from-pose and --to-pose: both required (or --robot with --from and --to)");
        a = poseArg(from_pose, "--from-pose", args.deg);
        b = poseArg(to_pose, "--to-pose", args.deg);
      }
      const CartesianInterpolation c = interpolateCartesian(a, b, spec);
      json poses = json::array(), twists = json::array(), accs = json::array();
      for (size_t k = 0; k < c.t.size(); ++k) {
        poses.push_back(poseJson(c.poses[k]));
        twists.push_back(toJson(VecX(c.twists[k])));
        accs.push_back(toJson(VecX(c.accelerations[k])));
      }
      print({{"profile", c.profile}, {"duration", c.duration}, {"length", c.length}, {"rotation", c.rotation},
             {"axis", {c.axis.x(), c.axis.y(), c.axis.z()}}, {"samples", c.t.size()}, {"t", c.t}, {"s", c.s},
             {"sd", c.sd}, {"sdd", c.sdd}, {"poses", poses}, {"twists", twists}, {"accelerations", accs}});
    });
  });
});

struct AnalyzeArgs {
  RobotArgs robot;
  std::string traj, legs;
  bool motors = false, friction = false, series = false;
};

void installAnalyze(CLI::App& app, const char* name, bool work_only) {
  auto* sub = app.add_subcommand(name, work_only ? "Total work int|tau*qd|dt per joint along a trajectory file (RNEA)"
                                                 : "Torque, power, work and effort peaks along a trajectory file (RNEA)");
  static AnalyzeArgs store[2];
  AnalyzeArgs& a = store[work_only ? 1 : 0];
  a.robot.add(sub, JointInputs::None, "Built-in robot name, robot JSON file or URDF file (default: the trajectory's robot)", false);
  sub->add_option("--traj", a.traj, "Trajectory JSON (achain-trajectory v1), e.g. from `achain traj --out`")->required();
  sub->add_option("--legs", a.legs, "A-pair leg model: massless | lumped | full | pe (default full)");
  sub->add_flag("--motors", a.motors, "Include rotor inertia");
  sub->add_flag("--friction", a.friction, "Include joint friction");
  if (!work_only) sub->add_flag("--series", a.series, "Also print t, tau and power per sample");
  sub->callback([&a, name, work_only] {
    run(name, [&a, name, work_only] {
      const Trajectory tr = loadTrajectory(a.traj);
      reportNotes(name, tr.notes);
      const Model m = a.robot.modelOr(tr.robot);
      if (tr.dof() != m.nq)
        throw Error(a.traj + ": has " + std::to_string(tr.dof()) + " joints, robot '" + m.name + "' has " + std::to_string(m.nq));
      const DynamicsOptions o = dynamicsOptions(a.legs, a.motors, a.friction);
      const TrajectoryAnalysis an = analyzeTrajectory(m, tr, o);
      json out = analysisToJson(m, tr, an, a.series && !work_only);
      out["legs"] = toString(o.legs);
      if (work_only) out = {{"robot", m.name}, {"legs", toString(o.legs)}, {"work", out["work"]},
                            {"net_work", out["net_work"]}, {"total_work", an.total_work}, {"duration", tr.duration()}};
      else out["limits"] = checkRateLimits(m, tr);
      print(out);
    });
  });
}

RegisterCommand analyze_cmd("analyze", [](CLI::App& app) { installAnalyze(app, "analyze", false); });
RegisterCommand work_cmd("work", [](CLI::App& app) { installAnalyze(app, "work", true); });

RegisterCommand study_cmd("apair-study", [](CLI::App& app) {
  auto* sub = app.add_subcommand("apair-study", "Robinson's single-A-pair work study (thesis Tables 3.8/3.9): 60 -> 300 deg, four leg models");
  static double duration = 10, rho_in = 4 * std::sqrt(2.0);
  static std::string profile = "quintic";
  static int samples = 20001;
  static bool leg1x6 = false;
  sub->add_flag("--leg1x6", leg1x6, "Full model: leg inertia as six times leg 1, (m_leg rho^2/4)(2+cos), as in the thesis/digest (default: exact Griffis-Duffy rods, as the RNEA)");
  sub->add_option("--duration", duration, "Move time in s (thesis: 10 or 1)");
  sub->add_option("--profile", profile, "Rest-to-rest profile: quintic (default), cubic, septic, trapezoid");
  sub->add_option("--rho-in", rho_in, "A-pair size rho in inches (thesis text: 4*sqrt(2) = 5.657; its tables fit 6.875)");
  sub->add_option("--samples", samples, "Integration samples");
  sub->callback([] {
    run("apair-study", [] {
      ApairStudyParameters p;
      if (!(rho_in > 0 && rho_in <= kMaxLength / 0.0254)) throw Error("--rho-in: must be > 0 and at most 1000 m in inches (got " + shortNumber(rho_in) + ")");
      p.rho = rho_in * 0.0254;
      p.exact_leg_inertia = !leg1x6;
      const ApairStudyResult r = apairStudy(p, duration, profile, samples);
      json rows = json::array();
      auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
      const double base_v = r.rows[0].vertical, base_h = r.rows[0].horizontal;
      const double tb_v = r.rows[0].thesis_vertical, tb_h = r.rows[0].thesis_horizontal;
      for (const auto& row : r.rows)
        rows.push_back({{"legs", toString(row.legs)},
                        {"vertical_J", row.vertical}, {"horizontal_J", row.horizontal},
                        {"vertical_inlb", row.vertical / kInchPound}, {"horizontal_inlb", row.horizontal / kInchPound},
                        {"thesis_vertical_inlb", num(row.thesis_vertical / kInchPound)},
                        {"thesis_horizontal_inlb", num(row.thesis_horizontal / kInchPound)},
                        {"ratio_to_massless_vertical", row.vertical / base_v},
                        {"ratio_to_massless_horizontal", base_h > 0 ? json(row.horizontal / base_h) : json(nullptr)},
                        {"thesis_ratio_vertical", num(row.thesis_vertical / tb_v)},
                        {"thesis_ratio_horizontal", num(row.thesis_horizontal / tb_h)}});
      print({{"duration", r.duration}, {"profile", r.profile}, {"rho_in", rho_in},
             {"leg_inertia", leg1x6 ? "six times leg 1 (thesis/digest)" : "exact rods (Griffis-Duffy anchors)"},
             {"link_weight_lb", p.link_mass / 0.45359237}, {"leg_weight_lb", p.leg_mass / 0.45359237}, {"rows", rows}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
