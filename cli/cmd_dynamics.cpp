// Subcommands of the dynamics area: id (inverse dynamics, single state or a trajectory file),
// mass (mass matrix), fd (forward dynamics), sim (free motion, constant torque, or computed-torque
// tracking of a trajectory file), cartesian-inertia (operational-space inertia), dynamic-manipulability, linearize
// (Freeman's linearised state space and the toolbox's jointdynamics).
#include <algorithm>
#include <fstream>
#include <sstream>

#include "common.hpp"
#include "progress.hpp"
#include <achain/math/text.hpp>
#include <achain/trajectory/trajectory.hpp>
#include <achain/io/trajectory_json.hpp>
#include <achain/dynamics/batch.hpp>
#include <achain/dynamics/control.hpp>
#include <achain/dynamics/coriolis.hpp>
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/integrate.hpp>
#include <achain/dynamics/linearize.hpp>
#include <achain/dynamics/operational.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>

namespace achain::cli {
namespace {

/// Options shared by the dynamics subcommands. `loads`: the subcommand's result contains joint friction and the
/// tool wrench (id, fd, sim); M, C and g (mass) do not, so it has no --friction / --wrench options.
struct DynArgs {
  std::string legs = "full";
  bool motors = false, friction = false;
  std::string gravity, wrench, wrench_frame = "base";
  void add(CLI::App* app, bool loads = true) {
    app->add_option("--legs", legs, "A-pair leg model: massless | lumped | full | potential (default full)");
    app->add_flag("--motors", motors, "Include rotor inertia J_m*G^2 from the motor data");
    app->add_option("--gravity", gravity, "Gravity vector x,y,z in m/s^2, base frame (default: the model's)");
    if (!loads) return;
    app->add_flag("--friction", friction, "Include viscous + Coulomb joint friction from the motor data");
    app->add_option("--wrench", wrench,
                    "Tool wrench fx,fy,fz,mx,my,mz (N, N*m) the tool exerts on the environment; moment about the tool origin");
    app->add_option("--wrench-frame", wrench_frame, "Frame of --wrench: base (default) or tool");
  }
  DynamicsOptions options() const {
    DynamicsOptions o;
    o.legs = legModelFromString(legs);
    o.motors = motors;
    o.friction = friction;
    if (!gravity.empty()) {
      const auto g = parseList(gravity, "--gravity");
      if (g.size() != 3) throw Error("--gravity: expected 3 values, got " + std::to_string(g.size()));
      o.override_gravity = true;
      o.gravity = Vec3(g[0], g[1], g[2]);
    }
    if (!wrench.empty()) {
      const auto w = parseList(wrench, "--wrench");
      if (w.size() != 6) throw Error("--wrench: expected 6 values, got " + std::to_string(w.size()));
      o.use_wrench = true;
      for (int i = 0; i < 6; ++i) o.wrench[i] = w[i];
      if (wrench_frame == "tool") o.wrench_frame = WrenchFrame::Tool;
      else if (wrench_frame != "base") throw Error("--wrench-frame: expected base or tool (got '" + wrench_frame + "')");
    }
    return o;
  }
  json describe(const Model& m, const DynamicsOptions& o) const {
    const Vec3 g = o.gravityOf(m.gravity);
    return {{"legs", toString(o.legs)}, {"motors", o.motors}, {"friction", o.friction}, {"gravity", {g.x(), g.y(), g.z()}}};
  }
};

json breakdownJson(const TorqueBreakdown& b) {
  return {{"inertial", toJson(b.inertial)},     {"velocity", toJson(b.velocity)},   {"gravity", toJson(b.gravity)},
          {"friction", toJson(b.friction)},     {"wrench", toJson(b.wrench)},       {"rotor", toJson(b.rotor)},
          {"translational", toJson(b.translational)}, {"rotational", toJson(b.rotational)}};
}

/// The robot of a trajectory-file mode: --robot (with its URDF options) if given, else the one the file names
/// (read by the one reader of the format: bounded, checked).
Model trajectoryRobot(const RobotArgs& args, const std::string& path) {
  return args.modelOr(args.robot.empty() ? loadTrajectory(path).robot : std::string());
}

/// Reads an achain-trajectory JSON file (schema "achain-trajectory", version 1, SI).
struct TrajectoryFile {
  std::string robot;
  std::vector<double> t;
  std::vector<VecX> q, qd, qdd;
};
TrajectoryFile readTrajectory(const std::string& path, int nv, const std::string& sub) {
  const Trajectory tr = loadTrajectory(path);  // the one reader of the format (core/trajectory)
  reportNotes(sub, tr.notes);
  if (tr.dof() != nv)
    throw Error(path + ": q: samples have " + std::to_string(tr.dof()) + " values, the robot has " + std::to_string(nv) + " joints");
  TrajectoryFile out;
  out.robot = tr.robot;
  out.t = tr.t;
  for (int k = 0; k < tr.samples(); ++k) {
    out.q.push_back(tr.q.row(k).transpose());
    out.qd.push_back(tr.qd.row(k).transpose());
    out.qdd.push_back(tr.qdd.row(k).transpose());
  }
  return out;
}

RegisterCommand id_cmd("id", [](CLI::App& app) {
  auto* sub = app.add_subcommand("id", "Inverse dynamics: joint torques for (q, qd, qdd), or along a trajectory file");
  static RobotArgs args;
  static DynArgs dyn;
  static std::string qd, qdd, traj;
  static bool series_breakdown = false;
  args.add(sub, JointInputs::None, "Built-in robot name, robot JSON file or URDF file (default: the trajectory's robot)", false);
  sub->add_option("--q", args.q, "Joint values (rad / m; A-pairs theta_v)");
  sub->add_flag("--deg", args.deg, "Angular values of --q/--qd/--qdd are in degrees (deg/s, deg/s^2)");
  sub->add_option("--qd", qd, "Joint velocities (default zero)");
  sub->add_option("--qdd", qdd, "Joint accelerations (default zero)");
  sub->add_option("--traj", traj, "Trajectory JSON (schema achain-trajectory v1, SI): torque series and per-joint peaks");
  sub->add_flag("--series-breakdown", series_breakdown, "With --traj: also print the breakdown at every sample");
  dyn.add(sub);
  sub->callback([] {
    run("id", [] {
      if (traj.empty()) {
        if (args.robot.empty()) throw Error("--robot: required");
        if (args.q.empty()) throw Error("--q: required (or give --traj)");
        const Model m = args.model();
        const VecX q = args.joints(m, args.q, "--q");
        checkConfiguration(m, q);
        const VecX v = qd.empty() ? VecX::Zero(m.nv) : args.joints(m, qd, "--qd");
        const VecX a = qdd.empty() ? VecX::Zero(m.nv) : args.joints(m, qdd, "--qdd");
        const DynamicsOptions o = dyn.options();
        Data data(m);
        TorqueBreakdown b;
        torqueBreakdown(m, data, q, v, a, o, b);
        VecX tau(m.nv);
        inverseDynamics(m, data, q, v, a, o, tau);
        print({{"tau", toJson(tau)}, {"breakdown", breakdownJson(b)}, {"options", dyn.describe(m, o)}});
        return;
      }
      // Trajectory mode.
      const Model m = trajectoryRobot(args, traj);
      const TrajectoryFile T = readTrajectory(traj, m.nv, "id");
      const DynamicsOptions o = dyn.options();
      Data data(m);
      TorqueBreakdown b;
      json tau_series = json::array(), bd_series = json::array();
      std::vector<double> peak(m.nv, 0.0), peak_t(m.nv, 0.0), peak_signed(m.nv, 0.0);
      // τ of every sample in one batch call (dynamics/batch.hpp: vectorised across samples).
      const int n = m.nv, count = static_cast<int>(T.t.size());
      std::vector<double> qs(static_cast<size_t>(n) * count), vs(qs.size()), as(qs.size()), taus(qs.size());
      for (int k = 0; k < count; ++k) {
        VecX::Map(&qs[static_cast<size_t>(n) * k], n) = T.q[k];
        VecX::Map(&vs[static_cast<size_t>(n) * k], n) = T.qd[k];
        VecX::Map(&as[static_cast<size_t>(n) * k], n) = T.qdd[k];
      }
      inverseDynamicsSeries(m, data, count, qs.data(), vs.data(), as.data(), o, taus.data());
      for (size_t k = 0; k < T.t.size(); ++k) {
        const VecX tau = VecX::Map(&taus[static_cast<size_t>(n) * k], n);
        tau_series.push_back(toJson(tau));
        if (series_breakdown) {
          torqueBreakdown(m, data, T.q[k], T.qd[k], T.qdd[k], o, b);
          bd_series.push_back(breakdownJson(b));
        }
        for (int i = 0; i < m.nv; ++i)
          if (std::abs(tau[i]) > peak[i]) {
            peak[i] = std::abs(tau[i]);
            peak_t[i] = T.t[k];
            peak_signed[i] = tau[i];
          }
      }
      json peaks = json::array();
      bool ok = true;
      for (int i = 0; i < m.njoints(); ++i) {
        const double lim = m.joints[i].limits.effort;
        const bool within = !(peak[i] > lim);
        ok = ok && within;
        peaks.push_back({{"joint", m.joints[i].name}, {"peak", peak[i]}, {"value", peak_signed[i]}, {"t", peak_t[i]},
                         {"effort_limit", std::isfinite(lim) ? json(lim) : json(nullptr)},
                         {"ratio", std::isfinite(lim) ? json(peak[i] / lim) : json(nullptr)}, {"within_limit", within}});
      }
      json out = {{"robot", m.name}, {"t", T.t}, {"tau", tau_series}, {"peaks", peaks}, {"within_limits", ok},
                  {"options", dyn.describe(m, o)}};
      if (series_breakdown) out["breakdown"] = bd_series;
      print(out);
    });
  });
});

RegisterCommand mass_cmd("mass", [](CLI::App& app) {
  auto* sub = app.add_subcommand("mass", "Mass matrix M(q) (CRBA); with --qd also the Christoffel Coriolis matrix C(q, qd) and g(q)");
  sub->alias("mass-matrix");
  static RobotArgs args;
  static DynArgs dyn;
  static std::string qd;
  args.add(sub);
  sub->add_option("--qd", qd, "Joint velocities for C(q, qd)");
  dyn.add(sub, false);
  sub->callback([] {
    run("mass", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q, "--q");
      checkConfiguration(m, q);
      const DynamicsOptions o = dyn.options();
      Data data(m);
      MatX M(m.nv, m.nv);
      VecX g(m.nv);
      massMatrix(m, data, q, o, M);
      gravityTorques(m, data, q, o, g);
      json out = {{"M", toJson(M)}, {"g", toJson(g)}, {"options", dyn.describe(m, o)}};
      if (!qd.empty()) {
        MatX C(m.nv, m.nv);
        coriolisMatrix(m, data, q, args.joints(m, qd, "--qd"), o, C);
        out["C"] = toJson(C);
      }
      print(out);
    });
  });
});

RegisterCommand fd_cmd("fd", [](CLI::App& app) {
  auto* sub = app.add_subcommand("fd", "Forward dynamics: joint accelerations for (q, qd, tau)");
  static RobotArgs args;
  static DynArgs dyn;
  static std::string qd, tau;
  args.add(sub);
  sub->add_option("--qd", qd, "Joint velocities (default zero)");
  sub->add_option("--tau", tau, "Joint torques / forces in N*m / N (default zero)");
  dyn.add(sub);
  sub->callback([] {
    run("fd", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q, "--q");
      checkConfiguration(m, q);
      const VecX v = qd.empty() ? VecX::Zero(m.nv) : args.joints(m, qd, "--qd");
      VecX t = VecX::Zero(m.nv);
      if (!tau.empty()) {
        const auto list = parseList(tau, "--tau");
        if (static_cast<int>(list.size()) != m.nv)
          throw Error("--tau: robot '" + m.name + "' has " + std::to_string(m.nv) + " joints, got " + std::to_string(list.size()) + " values");
        for (int i = 0; i < m.nv; ++i) t[i] = list[i];
      }
      const DynamicsOptions o = dyn.options();
      Data data(m);
      VecX a(m.nv);
      forwardDynamics(m, data, q, v, t, o, a);
      print({{"qdd", toJson(a)}, {"options", dyn.describe(m, o)}});
    });
  });
});

RegisterCommand linearize_cmd("linearize", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "linearize",
      "Linearised dynamics about (q, qd, qdd) (Freeman 2-200..2-252): dT/dq, dT/dqd and I*, the state space A, B, C, D "
      "(x = (q, qd), u = tau; with --dc-motor x = (q, qd, i), u = armature voltages; with --coordinates tool in the tool's "
      "coordinates) and its poles; with --jointdynamics "
      "also each joint's motor-torque-to-motor-angle transfer function 1/(J s^2 + B s) as the Robotics Toolbox gives it; "
      "with --bode IN,OUT the frequency response (Bode plot data) of one input to one output");
  static RobotArgs args;
  static DynArgs dyn;
  static std::string qd, qdd, output = "joints", coordinates = "joints", tool_rows;
  static std::vector<std::string> dc;
  static bool jointdyn = false;
  static std::string bode, bode_range;
  static int bode_points = 200;
  args.add(sub);
  sub->add_option("--qd", qd, "Joint velocities of the operating point (default zero)");
  sub->add_option("--qdd", qdd, "Joint accelerations of the operating point (default zero)");
  sub->add_option("--output", output, "Outputs y: joints (y = dq, default) or tool (y = J dq: the tool's v, w)");
  sub->add_option("--coordinates", coordinates,
                  "The state's coordinates: joints (x = (q, qd[, i]), default) or tool: x = (dy, dy/dt[, i]) with dy the "
                  "tool's first-order displacement in --tool-rows (Freeman 3-47..3-53; the actuators stay at the joints)");
  sub->add_option("--tool-rows", tool_rows,
                  "With --coordinates tool: one row of the tool's motion per joint, from x, y, z (the tool point) and wx, wy, "
                  "wz (a small rotation, world frame), e.g. x,y for a planar 2R; default all six");
  sub->add_option("--dc-motor", dc,
                  "A DC motor in series, motor side: KT,KE,R,L (N*m/A, V*s/rad, ohm, H); once for every joint, or repeated "
                  "once per joint in order. The gear ratio, rotor inertia and viscous friction come from the model's motor data");
  sub->add_flag("--jointdynamics", jointdyn, "Also print each joint's 1/(J s^2 + B s) (J = J_m + M_jj/G^2, B = B_m)");
  sub->add_option("--bode", bode,
                  "Also print the frequency response G(jw) = C (jwI - A)^-1 B + D of input IN to output OUT (1-based, e.g. "
                  "2,2: tau2 -> q2): omega (rad/s), hz, magnitude, magnitude_db, phase_deg (unwrapped along w) and pole_frequencies "
                  "(the distinct nonzero |pole|, rad/s)");
  sub->add_option("--bode-points", bode_points, "With --bode: the number of log-spaced frequencies (default 200)");
  sub->add_option("--bode-range", bode_range,
                  "With --bode: lo,hi in rad/s (default: 0.1x the smallest to 10x the largest nonzero |pole|)");
  dyn.add(sub);
  sub->callback([] {
    run("linearize", [] {
      const Robot robot = args.read();
      if (robot.loop)
        throw Error("'" + robot.model.name + "' is a closed chain (its robot file has a loop): linearize its loop in its own "
                    "coordinates with `achain closure --robot " + args.robot + " --linearize`");
      const Model& m = robot.model;
      const VecX q = args.joints(m, args.q, "--q");
      const VecX v = qd.empty() ? VecX::Zero(m.nv) : args.joints(m, qd, "--qd");
      const VecX a = qdd.empty() ? VecX::Zero(m.nv) : args.joints(m, qdd, "--qdd");
      const DynamicsOptions o = dyn.options();
      LinearizeOptions lo;
      lo.output = output;
      lo.coordinates = coordinates;
      if (!tool_rows.empty()) lo.tool_rows = parseInfluenceRows(tool_rows, "--tool-rows");
      for (const std::string& text : dc) {
        const auto x = parseList(text, "--dc-motor");
        if (x.size() != 4) throw Error("--dc-motor: expected KT,KE,R,L (4 values), got " + std::to_string(x.size()));
        lo.dc_motors.push_back(DcMotor{x[0], x[1], x[2], x[3]});
      }
      Data data(m);
      Linearization lin;
      linearizeDynamics(m, data, q, v, a, o, lo, lin);
      json poles = json::array();
      for (int k = 0; k < lin.poles.size(); ++k) poles.push_back({lin.poles[k].real(), lin.poles[k].imag()});
      json states = json::array(), inputs = json::array(), outputs = json::array();
      if (coordinates == "tool") {  // the tool rows, then their rates
        std::vector<int> rows = lo.tool_rows;
        if (rows.empty()) rows = {0, 1, 2, 3, 4, 5};
        for (const char* suffix : {"", "_rate"})
          for (int r : rows) states.push_back(std::string(kInfluenceRowNames[r]) + suffix);
      } else {
        for (const char* part : {"q", "qd"})
          for (int k = 0; k < m.nv; ++k) states.push_back(std::string(part) + std::to_string(k + 1));
      }
      for (int k = 0; k < m.nv && !lo.dc_motors.empty(); ++k) states.push_back("i" + std::to_string(k + 1));
      for (int k = 0; k < m.nv; ++k) inputs.push_back((lo.dc_motors.empty() ? "tau" : "v") + std::to_string(k + 1));
      if (output == "tool")
        outputs = {"vx", "vy", "vz", "wx", "wy", "wz"};
      else
        for (int k = 0; k < m.nv; ++k) outputs.push_back("q" + std::to_string(k + 1));
      json out = {{"states", states}, {"inputs", inputs}, {"outputs", outputs}, {"A", toJson(lin.A)}, {"B", toJson(lin.B)},
                  {"C", toJson(lin.C)}, {"D", toJson(lin.D)}, {"poles", poles}, {"dT_dq", toJson(lin.dT_dq)},
                  {"dT_dqd", toJson(lin.dT_dqd)}, {"Istar", toJson(lin.Istar)}, {"coordinates", coordinates},
                  {"options", dyn.describe(m, o)}};
      if (coordinates == "tool") out["T"] = toJson(lin.T);
      if (jointdyn) {
        json jd = json::array();
        for (const auto& t : jointTransferFunctions(m, data, q, v, o))
          jd.push_back({{"J", t.J}, {"B", t.B}, {"num", t.numerator}, {"den", t.denominator}});
        out["jointdynamics"] = jd;
      }
      if (bode.empty() && (!bode_range.empty() || bode_points != 200))
        throw Error("--bode-points and --bode-range need --bode IN,OUT");
      if (!bode.empty()) {
        const auto io = parseList(bode, "--bode");
        if (io.size() != 2 || io[0] != std::floor(io[0]) || io[1] != std::floor(io[1]))
          throw Error("--bode: expected IN,OUT (two 1-based indices, e.g. 1,1), got '" + bode + "'");
        double lo = 0, hi = 0;
        if (!bode_range.empty()) {
          const auto r = parseList(bode_range, "--bode-range");
          if (r.size() != 2) throw Error("--bode-range: expected lo,hi in rad/s, got " + std::to_string(r.size()) + " values");
          lo = r[0], hi = r[1];
          if (!(lo > 0)) throw Error("--bode-range: lo must be > 0 rad/s");
        }
        const int in = static_cast<int>(io[0]) - 1, op = static_cast<int>(io[1]) - 1;
        if (in < 0 || in >= static_cast<int>(inputs.size()))
          throw Error("--bode: input " + bode.substr(0, bode.find(',')) + " is not one of 1.." + std::to_string(inputs.size()));
        if (op < 0 || op >= static_cast<int>(outputs.size()))
          throw Error("--bode: output " + bode.substr(bode.find(',') + 1) + " is not one of 1.." + std::to_string(outputs.size()));
        FrequencyResponse fr;
        frequencyResponse(lin, frequencyGrid(lin.poles, bode_points, lo, hi), in, op, fr);
        out["bode"] = {{"input", inputs[in]}, {"output", outputs[op]}, {"omega", toJson(fr.omega)},
                       {"hz", toJson(VecX(fr.omega / (2 * kPi)))}, {"magnitude", toJson(fr.magnitude)},
                       {"magnitude_db", toJson(fr.magnitude_db)}, {"phase_deg", toJson(fr.phase_deg)},
                       {"pole_frequencies", poleFrequencies(lin.poles)}};
      }
      print(out);
    });
  });
});

/// Per-joint gains: one number for every joint or a list of nv.
VecX gains(const std::string& text, int n, const char* what) {
  const auto v = parseList(text, what);
  if (v.size() == 1) return VecX::Constant(n, v[0]);
  if (static_cast<int>(v.size()) != n)
    throw Error(std::string(what) + ": expected 1 or " + std::to_string(n) + " values, got " + std::to_string(v.size()));
  VecX g(n);
  for (int i = 0; i < n; ++i) g[i] = v[i];
  return g;
}

RegisterCommand sim_cmd("sim", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "sim", "Simulate the chain: free motion / constant torque from (q, qd), or computed-torque tracking of --traj");
  static RobotArgs args;
  static DynArgs dyn;
  static std::string qd, tau, integrator = "rk4", traj, kp, kv, ctrl_legs, mR, mL, mKt, mKe;
  static double dt = 1e-3, duration = -1;
  static int every = 10;
  static bool csv = false, show_progress = false;
  args.add(sub, JointInputs::None, "Built-in robot name, robot JSON file or URDF file (default: the trajectory's robot)", false);
  sub->add_option("--q", args.q, "Initial joint values (default with --traj: the trajectory's start)");
  sub->add_flag("--deg", args.deg, "Angular values of --q/--qd are in degrees (deg/s)");
  sub->add_option("--qd", qd, "Initial joint velocities (default zero)");
  sub->add_option("--tau", tau, "Constant joint torques (default zero; not with --traj)");
  sub->add_option("--traj", traj, "Trajectory JSON to track with computed torque + PD (Craig; thesis Fig. 2.18)");
  sub->add_option("--kp", kp, "With --traj: position gains, 1/s^2 (one value or one per joint; default (2*pi*5)^2)");
  sub->add_option("--kv", kv, "With --traj: velocity gains, 1/s (default 2*(2*pi*5), critically damped)");
  sub->add_option("--controller-legs", ctrl_legs, "With --traj: the controller's leg model (default: --legs, a perfect model)");
  sub->add_option("--motor-r", mR, "With --traj: drive through DC motors; armature resistance, ohm (one or per joint)");
  sub->add_option("--motor-l", mL, "DC motors: inductance, H");
  sub->add_option("--motor-kt", mKt, "DC motors: torque constant, N*m/A (motor side; joint torque = Kt*G*i)");
  sub->add_option("--motor-ke", mKe, "DC motors: back-EMF constant, V*s/rad (motor side)");
  sub->add_option("--dt", dt, "Time step (= control period), s (default 1e-3)");
  sub->add_option("--duration", duration, "Simulated time, s (default 1, or the trajectory's length)")->check(CLI::Range(0.0, kMaxDuration));
  sub->add_option("--every", every, "Output every k-th step (default 10)")->check(CLI::Range(1, 1000000));
  sub->add_option("--integrator", integrator, "rk4 (default) or euler (semi-implicit)");
  sub->add_flag("--csv", csv, "CSV output instead of JSON");
  sub->add_flag("--progress", show_progress,
                "Progress on stderr (on a terminal redrawn in place; in a file or pipe about once a second). With or "
                "without it, Ctrl-C or SIGTERM stops the run within 1000 steps (or 1 % of them), saying where, exit "
                "status 130 or 143");
  dyn.add(sub);
  sub->callback([] {
    run("sim", [] {
      const Integrator method = integratorFromString(integrator);
      const StopOnSignal stop;
      ProgressLine line("achain sim", show_progress);
      const Progress progress([&line](double f) {
        line.report(f);
        return true;
      }, stop.flag());
      const DynamicsOptions o = dyn.options();
      std::ostringstream os;
      os.precision(12);
      if (!traj.empty()) {
        // ---- computed-torque tracking ----
        const Model m = trajectoryRobot(args, traj);
        const TrajectoryFile T = readTrajectory(traj, m.nv, "sim");
        const int n = m.nv;
        ComputedTorqueOptions co;
        co.plant = o;
        co.controller = o;
        if (!ctrl_legs.empty()) co.controller.legs = legModelFromString(ctrl_legs);
        if (!kp.empty()) co.kp = gains(kp, n, "--kp");
        if (!kv.empty()) co.kv = gains(kv, n, "--kv");
        if (!mR.empty() || !mL.empty() || !mKt.empty() || !mKe.empty()) {
          if (mR.empty() || mL.empty() || mKt.empty() || mKe.empty())
            throw Error("--motor-r/--motor-l/--motor-kt/--motor-ke: give all four for DC motors");
          co.dc_motor = true;
          co.R = gains(mR, n, "--motor-r");
          co.L = gains(mL, n, "--motor-l");
          co.Kt = gains(mKt, n, "--motor-kt");
          co.Ke = gains(mKe, n, "--motor-ke");
        }
        co.dt = dt;
        co.integrator = method;
        co.every = every;
        DesiredMotion desired;
        try {
          desired = sampledMotion(T.t, T.q, T.qd, T.qdd);
        } catch (const Error& e) {
          throw Error(traj + ": " + e.what());
        }
        const VecX q0 = args.q.empty() ? T.q.front() : args.joints(m, args.q, "--q");
        checkConfiguration(m, q0);
        const VecX v0 = qd.empty() ? T.qd.front() : args.joints(m, qd, "--qd");
        const double D = duration >= 0 ? duration : T.t.back() - T.t.front();
        simulationSteps(D, dt, "--duration", "--dt");  // checked here to name the options; the run checks again
        const ControlRun r = simulateComputedTorque(m, desired, q0, v0, D, co, progress);
        line.finish();
        if (csv) {
          os << "t";
          for (const char* pre : {"q_", "qdes_", "e_", "tau_"})
            for (const auto& j : m.joints) os << "," << pre << j.name;
          os << "\n";
          for (size_t k = 0; k < r.t.size(); ++k) {
            os << r.t[k];
            for (const auto* v : {&r.q[k], &r.q_des[k], &r.error[k], &r.tau[k]})
              for (int i = 0; i < n; ++i) os << "," << (*v)[i];
            os << "\n";
          }
          writeStdout(os.str());
          return;
        }
        auto series = [](const std::vector<VecX>& v) {
          json a = json::array();
          for (const auto& x : v) a.push_back(toJson(x));
          return a;
        };
        json out = {{"robot", m.name}, {"mode", "computed-torque"}, {"integrator", toString(method)}, {"dt", dt},
                    {"kp", toJson(co.kp.size() ? co.kp : VecX::Constant(n, std::pow(2 * kPi * 5, 2)))},
                    {"kv", toJson(co.kv.size() ? co.kv : VecX::Constant(n, 4 * kPi * 5))},
                    {"controller_legs", toString(co.controller.legs)}, {"t", r.t}, {"q", series(r.q)},
                    {"q_des", series(r.q_des)}, {"error", series(r.error)}, {"tau", series(r.tau)},
                    {"max_abs_error", toJson(r.max_abs_error)}, {"rms_error", toJson(r.rms_error)},
                    {"options", dyn.describe(m, o)}};
        if (co.dc_motor) {
          out["current"] = series(r.current);
          out["voltage"] = series(r.voltage);
        }
        print(out);
        return;
      }
      // ---- free motion / constant torque ----
      if (args.robot.empty()) throw Error("--robot: required");
      if (args.q.empty()) throw Error("--q: required (or give --traj)");
      const Model m = args.model();
      VecX q = args.joints(m, args.q, "--q");
      checkConfiguration(m, q);
      VecX v = qd.empty() ? VecX::Zero(m.nv) : args.joints(m, qd, "--qd");
      VecX t = VecX::Zero(m.nv);
      if (!tau.empty()) {
        const auto list = parseList(tau, "--tau");
        if (static_cast<int>(list.size()) != m.nv) throw Error("--tau: expected " + std::to_string(m.nv) + " values");
        for (int i = 0; i < m.nv; ++i) t[i] = list[i];
      }
      const double D = duration >= 0 ? duration : 1.0;
      const int steps = simulationSteps(D, dt, "--duration", "--dt");
      Data data(m);
      Data ews(m);
      json ts = json::array(), qs = json::array(), vs = json::array(), es = json::array();
      if (csv) {
        os << "t";
        for (const auto& j : m.joints) os << ",q_" << j.name;
        for (const auto& j : m.joints) os << ",qd_" << j.name;
        os << ",energy\n";
      }
      SimulationSample io;
      io.progress = progress;
      io.every = std::max(1, every);
      io.sample = [&](int, double time, const VecX& a, const VecX& b, const VecX&) {
        const double E = kineticEnergy(m, ews, a, b, o) + potentialEnergy(m, ews, a, o);
        if (csv) {
          os << time;
          for (int i = 0; i < m.nv; ++i) os << "," << a[i];
          for (int i = 0; i < m.nv; ++i) os << "," << b[i];
          os << "," << E << "\n";
        } else {
          ts.push_back(time);
          qs.push_back(toJson(a));
          vs.push_back(toJson(b));
          es.push_back(E);
        }
      };
      simulate(m, data, q, v, dt, steps,
               [&](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> out) { out = t; }, o,
               method, io);
      line.finish();
      if (csv) {
        writeStdout(os.str());
        return;
      }
      print({{"robot", m.name}, {"mode", "free"}, {"integrator", toString(method)}, {"dt", dt}, {"t", ts}, {"q", qs},
             {"qd", vs}, {"energy", es}, {"options", dyn.describe(m, o)}});
    });
  });
});

/// Options of the operational-space subcommands: the task rows, the rank tolerance, and what enters M.
struct OperationalArgs {
  RobotArgs robot;
  std::string rows = "all", legs = "full";
  double rank_tol = kOperationalRankTol;
  bool motors = false;
  void add(CLI::App* sub) {
    robot.add(sub);
    sub->add_option("--rows", rows, "Task rows of the tool Jacobian (base frame, v then w): all | linear | angular (default all)");
    sub->add_option("--rank-tol", rank_tol, "Relative rank tolerance: eigenvalues of J M^-1 J^T below rank-tol * the largest count as zero (default 1e-10)");
    sub->add_option("--legs", legs, "A-pair leg model in M: massless | lumped | full | potential (default full)");
    sub->add_flag("--motors", motors, "Include rotor inertia J_m*G^2 in M");
  }
  /// The parsed state of a call: model, q, rows and the options of M.
  struct Call {
    Model model;
    VecX q;
    TaskRows rows;
    DynamicsOptions options;
    json describe() const { return {{"legs", toString(options.legs)}, {"motors", options.motors}}; }
  };
  Call parse() const {
    Call c{robot.model(), VecX(), TaskRows::All, DynamicsOptions()};
    c.q = robot.joints(c.model, robot.q);
    checkConfiguration(c.model, c.q);
    if (!(rank_tol >= 0)) throw Error("--rank-tol: must be >= 0");
    c.rows = taskRowsFromString(rows);
    c.options.legs = legModelFromString(legs);
    c.options.motors = motors;
    return c;
  }
};

json inertiaJson(const CartesianInertia& c) {
  return {{"Lambda", toJson(c.Lambda)}, {"Lambda_inv", toJson(c.Lambda_inv)}, {"eigenvalues", toJson(c.eigenvalues)},
          {"axes", toJson(c.axes)}, {"rank", c.rank}, {"rank_tolerance", c.rank_tolerance}};
}

RegisterCommand cartesian_inertia_cmd("cartesian-inertia", [](CLI::App& app) {
  auto* sub = app.add_subcommand("cartesian-inertia",
                                 "Operational-space inertia of the tool, Lambda = (J M^-1 J^T)^-1 (pseudo-inverse below full rank)");
  static OperationalArgs a;
  a.add(sub);
  sub->callback([] {
    run("cartesian-inertia", [] {
      const OperationalArgs::Call k = a.parse();
      Data d(k.model);
      CartesianInertia c;
      cartesianInertia(k.model, d, k.q, k.options, c, k.rows, a.rank_tol);
      json out = inertiaJson(c);
      out["rows"] = toString(k.rows);
      out["options"] = k.describe();
      print(out);
    });
  });
});

RegisterCommand dynamic_manipulability_cmd("dynamic-manipulability", [](CLI::App& app) {
  auto* sub = app.add_subcommand("dynamic-manipulability",
                                 "Yoshikawa's dynamic manipulability sqrt(det(J (M^T M)^-1 J^T)), its ellipsoid, and Asada's inertia-ellipsoid ratio");
  static OperationalArgs a;
  a.add(sub);
  sub->callback([] {
    run("dynamic-manipulability", [] {
      const OperationalArgs::Call k = a.parse();
      Data d(k.model);
      DynamicManipulability r;
      dynamicManipulability(k.model, d, k.q, k.options, r, k.rows, a.rank_tol);
      print({{"yoshikawa", r.yoshikawa}, {"radii", toJson(r.radii)}, {"axes", toJson(r.axes)}, {"asada", r.asada},
             {"rank", r.rank}, {"rows", toString(k.rows)}, {"inertia", inertiaJson(r.inertia)}, {"options", k.describe()}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
