// `achain ik`: inverse kinematics (closed form, algebraic, general 6R, numeric) as one JSON object.
#include <cmath>

#include "common.hpp"
#include <achain/kinematics/fk.hpp>
#include <achain/ik/ik.hpp>
#include <achain/ik/numeric.hpp>

namespace achain::cli {
namespace {

struct IkArgs {
  RobotArgs robot;
  std::string T, pose, q_target, seed, method = "auto";
  bool all = false, position_only = false, no_limits = false;
  int restarts = 50, max_iterations = 100;
  bool escape = false;
  double wp = 1, wo = 1, tolerance = 1e-10, max_step = 0;
};

/// Joint values as JSON: SI (rad, m) — the CLI contract — or, for the *_deg convenience fields,
/// angular joints in degrees.
json jointsOut(const Model& m, const VecX& q, bool deg = false) {
  json a = json::array();
  for (int c = 0; c < m.nq; ++c) {  // one value per coordinate (fixed and mimic joints have none of their own)
    const double v = q[c];
    a.push_back((deg && isAngular(m.joints[m.coord_joint[c]].kind)) ? v / kDeg : v);
  }
  return a;
}

/// With --deg, adds solutions_deg / q_deg beside the SI fields (which stay in radians).
void addDegrees(const Model& m, json& out) {
  auto conv = [&](const json& qs) {
    VecX q(m.nq);
    for (int i = 0; i < m.nq; ++i) q[i] = qs[i].get<double>();
    return jointsOut(m, q, true);
  };
  if (out.contains("solutions")) {
    json d = json::array();
    for (const auto& s : out["solutions"]) d.push_back(conv(s));
    out["solutions_deg"] = d;
  }
  if (out.contains("q")) out["q_deg"] = conv(out["q"]);
}

json solutionOut(const Model& m, const IkSolution& s) {
  json o = {{"q", jointsOut(m, s.q)},
            {"within_limits", s.within_limits},
            {"position_error", s.position_error},
            {"orientation_error", s.orientation_error}};
  if (!s.flags.empty()) {
    json f = json::object();
    for (const auto& kv : s.flags) f[kv.first] = kv.second;
    o["flags"] = f;
  }
  return o;
}

RegisterCommand ik_cmd("ik", [](CLI::App& app) {
  auto* sub = app.add_subcommand("ik", "Inverse kinematics: joint values reaching a tool pose (SI units)");
  static IkArgs a;
  a.robot.add(sub, JointInputs::Deg);
  sub->add_option("--T", a.T, "Target tool pose: 16 numbers, row-major 4x4 (m)");
  sub->add_option("--pose", a.pose, "Target tool pose: x,y,z,qw,qx,qy,qz (m, unit quaternion)");
  sub->add_option("--q-target", a.q_target, "Make the target by FK of these joint values (--deg applies)");
  sub->add_option("--seed", a.seed, "Current / preferred joint values (--deg applies); solutions nearest first");
  sub->add_option("--method", a.method, "auto | closed | algebraic | general6r | 3r3p | sweep | numeric (default auto; with --all, auto takes 3r3p for three revolute and three prismatic joints, general6r for another 6R (5R1P, 4R2P) chain and sweep for a four-joint R/A/H chain without a closed form)");
  sub->add_flag("--all", a.all, "Every solution (closed form / algebraic / general 6R eigenvalue method / exact 3R3P / orientation sweep / numeric multi-start)");
  sub->add_flag("--position-only", a.position_only, "Numeric: reach the tool position only");
  sub->add_flag("--no-limits", a.no_limits, "Numeric: ignore the joint limits");
  sub->add_flag("--escape-singularity", a.escape, "Numeric: if the start from the seed fails, retry from the seed nudged 3 deg (3 mm) per joint (for dragging out of stretched/folded poses)");
  sub->add_option("--restarts", a.restarts, "Numeric: random restarts (default 50, at most 10000)")
      ->check(CLI::Range(0, kMaxIkRestarts));
  sub->add_option("--max-iterations", a.max_iterations, "Numeric: iterations per start (default 100, at most 100000)")
      ->check(CLI::Range(1, kMaxIkIterations));
  sub->add_option("--position-weight", a.wp, "Numeric: weight of the position error, 1/m (default 1; only the ratio of the weights matters)")->check(CLI::Range(kMinIkWeight, kMaxIkWeight));
  sub->add_option("--orientation-weight", a.wo, "Numeric: weight of the orientation error, 1/rad (default 1)")->check(CLI::Range(kMinIkWeight, kMaxIkWeight));
  sub->add_option("--max-step", a.max_step, "Numeric: continuity bound (needs --seed): every joint stays within this of the seed, rad or m (deg with --deg); a farther target is approached along the bound, status unreachable within this step (default 0: off)");
  sub->add_option("--tolerance", a.tolerance, "Numeric: success tolerance on the weighted error (default 1e-10)");
  sub->callback([] {
    run("ik", [] {
      const Model m = a.robot.model();
      const int given = !a.T.empty() + !a.pose.empty() + !a.q_target.empty();
      if (given != 1) throw Error("target: give exactly one of --T, --pose, --q-target");
      Mat4 T = Mat4::Identity();
      if (!a.T.empty()) {
        T = parseMatrix4(a.T, "--T");
      } else if (!a.pose.empty()) {
        T = parsePose(a.pose, "--pose");
      } else {
        const VecX qt = a.robot.joints(m, a.q_target, "--q-target");
        checkConfiguration(m, qt);
        Data d(m);
        forwardKinematics(m, d, qt);
        T = d.oMtool.matrix();
      }
      const SE3 target = checkTarget(T, "target");
      VecX seed(m.nq);
      const bool have_seed = !a.seed.empty();
      if (have_seed) {
        seed = a.robot.joints(m, a.seed, "--seed");
        checkConfiguration(m, seed);
      } else {
        for (int c = 0; c < m.nq; ++c) {  // per coordinate (a fixed joint has none: idx_q = −1)
          const auto& L = m.joints[m.coord_joint[c]].limits;
          const double mid = std::isfinite(L.lower) && std::isfinite(L.upper) ? 0.5 * (L.lower + L.upper) : 0.0;
          seed[c] = (0.0 >= L.lower && 0.0 <= L.upper) ? 0.0 : mid;
        }
      }
      IkOptions opt;
      opt.position_weight = a.wp;
      opt.orientation_weight = a.wo;
      opt.position_only = a.position_only;
      opt.restarts = a.restarts;
      opt.max_iterations = a.max_iterations;
      opt.tolerance = a.tolerance;
      opt.respect_limits = !a.no_limits;
      opt.escape_singularity = a.escape;
      if (!(a.max_step >= 0) || !std::isfinite(a.max_step))
        throw Error("--max-step: must be a finite number ≥ 0 (got " + std::to_string(a.max_step) + ")");
      if (a.max_step > 0) {
        if (!have_seed) throw Error("--max-step: bounds the step from the seed; give --seed");
        bool linear = false;
        for (int j = 0; j < m.njoints(); ++j) linear = linear || (m.idx_q[j] >= 0 && !m.jmodels[j].angular());
        if (a.robot.deg && linear)
          throw Error("--max-step: one bound for every joint, and " + m.name + " has a linear joint; give it in SI (rad and m) without --deg");
        opt.max_step = a.robot.deg ? a.max_step * kDeg : a.max_step;
      }
      IkMethod method = ikMethodFromString(a.method);
      const bool deg = a.robot.deg;
      json out = {{"robot", m.name}, {"target", toJson(target.matrix())}};
      if (!a.all && (method == IkMethod::Numeric || (method == IkMethod::Auto && (!hasClosedForm(m) || a.position_only)))) {
        const IkResult r = ikNumeric(m, target, seed, opt);
        out["method"] = "numeric";
        out["status"] = toString(r.status);
        out["solutions"] = r.status == IkStatus::Ok ? json::array({jointsOut(m, r.q)}) : json::array();
        out["q"] = jointsOut(m, r.q);
        out["residual"] = r.residual;
        out["position_error"] = r.position_error;
        out["orientation_error"] = r.orientation_error;
        out["iterations"] = r.iterations;
        out["within_limits"] = withinLimits(m, r.q, 1e-12);
        out["units"] = "SI (rad, m)";
        if (deg) addDegrees(m, out);
        print(out);
        return;
      }
      IkAllResult res = ikAll(m, target, method, opt, have_seed ? &seed : nullptr);
      out["method"] = toString(res.method);
      out["status"] = toString(res.status);
      json sols = json::array(), det = json::array(), outside = json::array();
      const size_t keep = a.all ? res.solutions.size() : std::min<size_t>(1, res.solutions.size());
      for (size_t k = 0; k < keep; ++k) {
        sols.push_back(jointsOut(m, res.solutions[k].q));
        det.push_back(solutionOut(m, res.solutions[k]));
      }
      if (a.all)
        for (const auto& s : res.outside_limits) outside.push_back(solutionOut(m, s));
      out["solutions"] = sols;
      out["details"] = det;
      if (a.all) out["outside_limits"] = outside;
      out["residual"] = res.residual;
      if (res.has_nearest) {
        out["nearest"] = solutionOut(m, res.nearest);
        out["q"] = jointsOut(m, res.nearest.q);
      }
      if (res.family_q0.size() == m.nq) {
        out["family"] = {{"q0", jointsOut(m, res.family_q0)}, {"direction", jointsOut(m, res.family_dir)}};
      }
      if (!res.note.empty()) out["note"] = res.note;
      out["units"] = "SI (rad, m)";
      if (deg) addDegrees(m, out);
      print(out);
    });
  });
});

}  // namespace
}  // namespace achain::cli
