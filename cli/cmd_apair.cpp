// Subcommand `apair-exact`: the A-pair as its exact mechanism (a Griffis–Duffy platform, six legs with
// spherical ends; apair/apair_platform.hpp, docs/dynamics.md "The exact A-pair"). Prints the closure
// of one A-pair against Robinson's model (d = ρ sin(θ_v/2), no drift, the leg directions), and the
// torque error of every serial leg model against the exact closed-chain dynamics: for the single A-pair
// of the thesis (Sec. 3.8.6: a 10 × 8 in plate of 4.135 lb; the joint's ρ and leg mass), vertical and
// horizontal, and for the whole robot (each A-pair one closed chain), along rest-to-rest trapezoids
// from each joint's lower to its upper limit at its velocity and acceleration limits.
#include "common.hpp"

#include <achain/apair/apair_platform.hpp>
#include <achain/trajectory/apair_study.hpp>
#include <achain/trajectory/leg_model_comparison.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace achain::cli {
namespace {

json comparisonJson(const ExactComparison& c) {
  json rows = json::array();
  for (const auto& r : c.rows)
    rows.push_back({{"legs", toString(r.legs)}, {"rms_error", toJson(r.rms)}, {"max_error", toJson(r.max)}, {"work", toJson(r.work)}});
  return {{"duration", c.duration},          {"samples", c.samples},       {"max_closure_residual", c.max_residual},
          {"exact_work", toJson(c.exact_work)}, {"exact_peak", toJson(c.exact_peak)}, {"exact_rms", toJson(c.exact_rms)},
          {"rows", rows}};
}

std::string fmt(double v, const char* f = "%.4g") {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/// Markdown table: one row per leg model, per joint RMS / max error (N·m; max also in % of the exact peak |τ|)
/// and work (J); the first row is the exact model's RMS τ, peak |τ| and work.
std::string comparisonMarkdown(const std::string& title, const ExactComparison& c, const Model& m) {
  std::ostringstream o;
  const int n = static_cast<int>(c.exact_work.size());
  o << "\n" << title << " (" << fmt(c.duration) << " s, " << c.samples << " samples)\n\n| legs |";
  for (int i = 0; i < n; ++i) o << " " << m.joints[i].name << " RMS err | max err | work |";
  o << "\n|---|";
  for (int i = 0; i < n; ++i) o << "---|---|---|";
  o << "\n| exact (RMS τ, peak τ) |";
  for (int i = 0; i < n; ++i) o << " " << fmt(c.exact_rms[i]) << " | " << fmt(c.exact_peak[i]) << " | " << fmt(c.exact_work[i]) << " |";
  for (const auto& r : c.rows) {
    o << "\n| " << toString(r.legs) << " |";
    for (int i = 0; i < n; ++i)
      o << " " << fmt(r.rms[i]) << " | " << fmt(r.max[i]) << " (" << fmt(100 * r.max[i] / c.exact_peak[i], "%.2g") << " %) | "
        << fmt(r.work[i]) << " |";
  }
  o << "\n";
  return o.str();
}

Trapezoid1D moveOf(const Joint& j, double lower, double upper, double vel, double acc) {
  const double v = std::isfinite(j.limits.velocity) ? j.limits.velocity : vel;
  const double a = std::isfinite(j.limits.acceleration) ? j.limits.acceleration : acc;
  return Trapezoid1D::minimumTime(lower, upper, v, a);
}

RegisterCommand apair_cmd("apair-exact", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "apair-exact",
      "The A-pair as its exact mechanism (Griffis-Duffy platform, six legs with spherical ends): closure of joint "
      "--joint against Robinson's model (d = rho sin(theta_v/2), no drift, leg directions) over its limits (or at "
      "--theta), the legs' inertia B_legs against the serial rod's (m_leg rho^2/8)(7 + 2 cos theta) and the thesis's "
      "(m_leg rho^2/4)(2 + cos theta), and each serial leg model's torque error against the exact closed-chain dynamics along rest-to-rest "
      "trapezoids lower -> upper limit at the velocity/acceleration limits: the thesis's single A-pair (10 x 8 in "
      "plate, 4.135 lb, with the joint's rho and leg mass), vertical and horizontal, and the whole robot");
  static RobotArgs args;
  args.robot = "prototype-4a";
  static std::string theta;
  static int joint = 0;
  static bool deg = false, markdown = false, no_chain = false;
  static double dt = 1e-3;
  args.add(sub, JointInputs::None, "Built-in robot name, robot JSON file or URDF file", false);
  sub->add_option("--joint", joint, "Index of the A-pair to close and study alone (default 0)");
  sub->add_option("--theta", theta, "Report the closure at these theta_v values (rad; degrees with --deg), e.g. 60,180,300");
  sub->add_flag("--deg", deg, "--theta values are in degrees");
  sub->add_option("--dt", dt, "Sampling step of the moves in s (default 0.001)");
  sub->add_flag("--no-chain", no_chain, "Skip the whole-robot comparison");
  sub->add_flag("--markdown", markdown, "Print the closure line, B_legs and the comparison tables as Markdown (N*m, J) instead of JSON");
  sub->callback([] {
    run("apair-exact", [] {
      const Model m = args.model();
      if (joint < 0 || joint >= m.njoints()) throw Error("--joint: no joint " + std::to_string(joint) + " (the robot has " + std::to_string(m.njoints()) + ")");
      const Joint& j = m.joints[joint];
      if (j.kind != JointKind::A) throw Error("--joint " + std::to_string(joint) + " (" + j.name + "): not an A-pair");
      if (j.rho == 0) throw Error("--joint " + std::to_string(joint) + " (" + j.name + "): ρ = 0 is an R-pair: it has no platform and no legs");
      if (!(dt > 0 && dt <= 1)) throw Error("--dt: must be in (0, 1] s");
      const double lower = std::isfinite(j.limits.lower) ? j.limits.lower : 60 * kDeg;
      const double upper = std::isfinite(j.limits.upper) ? j.limits.upper : 300 * kDeg;
      ApairPlatform P(j.rho);
      std::string md, legs_md;
      json out = {{"robot", m.name}, {"joint", joint}, {"rho", j.rho}, {"side", P.side()}, {"leg_length", P.legLength()}};
      const ApairClosureCheck c = checkApairClosure(j.rho, lower, upper, 481);
      out["closure"] = {{"from", lower},
                        {"to", upper},
                        {"samples", c.samples},
                        {"max_d_error", c.max_d_error},
                        {"max_drift", c.max_drift},
                        {"max_tilt", c.max_tilt},
                        {"max_direction_error", c.max_direction_error},
                        {"max_residual", c.max_residual},
                        {"max_derivative_error", c.max_derivative_error},
                        {"max_iterations", c.max_iterations},
                        {"max_sigma6_ratio", c.max_sigma6},
                        {"min_sigma5_ratio", c.min_sigma5}};
      if (!theta.empty()) {
        json at = json::array();
        for (double t : parseList(theta, "--theta")) {
          const double th = deg ? t * kDeg : t;
          const ApairPlatformState& s = P.solve(th);
          at.push_back({{"theta", th},
                        {"d", s.p.z()},
                        {"d_robinson", j.rho * std::sin(th / 2)},
                        {"drift", s.p.head<2>().norm()},
                        {"tilt", s.x.tail<2>().norm()},
                        {"residual", s.residual},
                        {"iterations", s.iterations},
                        {"platform_anchors", [&] {
                           json a = json::array();
                           for (const Vec3& v : s.P) a.push_back({v.x(), v.y(), v.z()});
                           return a;
                         }()}});
        }
        out["at"] = at;
      }
      // The thesis's single A-pair with this joint's ρ and leg mass.
      ApairStudyParameters par;
      par.rho = j.rho;
      par.leg_mass = j.leg_mass;
      // The six legs' share of the inertia, B_legs = I*(legs) − I*(no legs), against the serial full rod's
      // (m_leg ρ²/8)(7 + 2 cos θ) and the thesis's corrected (m_leg ρ²/4)(2 + cos θ) (reference digest §5.3).
      {
        const Model study = apairStudyModel(par, Mounting::Vertical);
        ExactApairChain E(study);
        FreemanModel with, without;
        json b = json::array();
        const double k = j.leg_mass * j.rho * j.rho;
        for (double deg : {60.0, 120.0, 180.0, 240.0, 300.0}) {
          E.update(VecX::Constant(1, deg * kDeg));
          E.freeman(true, with);
          E.freeman(false, without);
          const double c = std::cos(deg * kDeg);
          b.push_back({{"theta", deg * kDeg},
                       {"exact", with.Istar(0, 0) - without.Istar(0, 0)},
                       {"serial_full", k / 8 * (7 + 2 * c)},
                       {"thesis", k / 4 * (2 + c)}});
          if (markdown)
            legs_md += "B_legs at " + fmt(deg) + "°: exact " + fmt(with.Istar(0, 0) - without.Istar(0, 0), "%.12g") +
                  " kg·m², serial full " + fmt(k / 8 * (7 + 2 * c), "%.12g") + ", thesis " + fmt(k / 4 * (2 + c), "%.12g") +
                  ", (3/8) m_leg ρ² = " + fmt(0.375 * k, "%.12g") + "\n";
        }
        out["leg_inertia"] = b;
      }
      const std::vector<Trapezoid1D> single{moveOf(j, lower, upper, 180 * kDeg, 720 * kDeg)};
      const ExactComparison v = compareLegModels(apairStudyModel(par, Mounting::Vertical), single, dt);
      const ExactComparison h = compareLegModels(apairStudyModel(par, Mounting::Horizontal), single, dt);
      out["single"] = {{"vertical", comparisonJson(v)}, {"horizontal", comparisonJson(h)}};
      if (markdown) {
        md += "closure of joint " + std::to_string(joint) + " over " + fmt(lower / kDeg) + "°–" + fmt(upper / kDeg) +
              "°: max |d − ρ sin(θ/2)| = " + fmt(c.max_d_error) + " m, drift " + fmt(c.max_drift) + " m, tilt " +
              fmt(c.max_tilt) + " rad, leg direction " + fmt(c.max_direction_error) + ", residual " + fmt(c.max_residual) +
              " m; 6×6 constraint Jacobian σ6/σ1 ≤ " + fmt(c.max_sigma6) + ", σ5/σ1 ≥ " + fmt(c.min_sigma5) + "\n";
        md += legs_md;
        md += comparisonMarkdown("single A-pair, vertical axis", v, apairStudyModel(par, Mounting::Vertical));
        md += comparisonMarkdown("single A-pair, horizontal axis", h, apairStudyModel(par, Mounting::Horizontal));
      }
      if (!no_chain) {
        std::vector<Trapezoid1D> moves;
        for (const Joint& ji : m.joints) {
          const double lo = std::isfinite(ji.limits.lower) ? ji.limits.lower : (ji.kind == JointKind::P ? 0.0 : 60 * kDeg);
          const double hi = std::isfinite(ji.limits.upper) ? ji.limits.upper : (ji.kind == JointKind::P ? 0.1 : 300 * kDeg);
          moves.push_back(moveOf(ji, lo, hi, 180 * kDeg, 720 * kDeg));
        }
        const ExactComparison w = compareLegModels(m, moves, dt);
        out["chain"] = comparisonJson(w);
        if (markdown) md += comparisonMarkdown("whole robot " + m.name, w, m);
      }
      if (markdown)
        writeStdout(md);
      else
        print(out);
    });
  });
});

}  // namespace
}  // namespace achain::cli
