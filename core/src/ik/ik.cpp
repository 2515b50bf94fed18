#include <achain/ik/ik.hpp>

#include <cmath>
#include <iomanip>
#include <sstream>

#include <achain/kinematics/fk.hpp>
#include <achain/ik/algebraic_4a.hpp>
#include <achain/ik/closed_form.hpp>
#include <achain/ik/general6r.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/ik/solution_set.hpp>
#include <achain/ik/sweep.hpp>
#include <achain/ik/three_r_three_p.hpp>

namespace achain {

const char* toString(IkStatus s) {
  switch (s) {
    case IkStatus::Ok: return "ok";
    case IkStatus::Unreachable: return "unreachable";
    case IkStatus::Singular: return "singular";
    case IkStatus::Limits: return "limits";
  }
  return "?";
}

const char* toString(IkMethod m) {
  switch (m) {
    case IkMethod::Auto: return "auto";
    case IkMethod::Closed: return "closed";
    case IkMethod::Algebraic: return "algebraic";
    case IkMethod::General6R: return "general6r";
    case IkMethod::Sweep: return "sweep";
    case IkMethod::Numeric: return "numeric";
    case IkMethod::ThreeRThreeP: return "3r3p";
  }
  return "?";
}

IkMethod ikMethodFromString(const std::string& s) {
  if (s == "auto") return IkMethod::Auto;
  if (s == "closed") return IkMethod::Closed;
  if (s == "algebraic") return IkMethod::Algebraic;
  if (s == "general6r") return IkMethod::General6R;
  if (s == "3r3p") return IkMethod::ThreeRThreeP;
  if (s == "sweep") return IkMethod::Sweep;
  if (s == "numeric") return IkMethod::Numeric;
  throw Error("method: expected auto, closed, algebraic, general6r, 3r3p, sweep or numeric, got '" + s + "'");
}

SE3 checkTarget(const Mat4& T, const std::string& what) {
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      if (!std::isfinite(T(r, c)))
        throw Error(what + "[" + std::to_string(r) + "][" + std::to_string(c) + "]: must be a finite number");
  if (std::abs(T(3, 0)) > 1e-9 || std::abs(T(3, 1)) > 1e-9 || std::abs(T(3, 2)) > 1e-9 || std::abs(T(3, 3) - 1) > 1e-9)
    throw Error(what + ": last row must be 0 0 0 1");
  const Mat3 R = T.topLeftCorner<3, 3>();
  const double orth = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
  if (orth > 1e-6) throw Error(what + ": rotation is not orthonormal (|RᵀR − I| = " + std::to_string(orth) + ")");
  if (R.determinant() < 0) throw Error(what + ": rotation has determinant −1 (a reflection)");
  // Robot files bound lengths to 1000 m, so no chain reaches past ~1e5 m: a target beyond kMaxTargetDistance is a
  // unit or typing error, and its squared error would overflow the least-squares residual.
  const double dist = T.topRightCorner<3, 1>().norm();
  if (dist > kMaxTargetDistance) {
    std::ostringstream msg;
    msg << what << ": position is " << std::setprecision(4) << dist << " m from the world origin; targets are bounded to "
        << kMaxTargetDistance << " m";
    throw Error(msg.str());
  }
  // re-orthonormalise (the input passed the 1e-6 test): nearest rotation via the quaternion
  SE3 out;
  out.R = Eigen::Quaterniond(R).normalized().toRotationMatrix();
  out.p = T.topRightCorner<3, 1>();
  return out;
}

Vec3 rotationLog(const Mat3& R) {
  Eigen::Quaterniond q(R);
  if (q.w() < 0) q.coeffs() = -q.coeffs();
  const Vec3 v = q.vec();
  const double s = v.norm();
  if (s < 1e-12) return 2.0 * v;  // small angle: log ≈ 2·vec
  return (2.0 * std::atan2(s, q.w()) / s) * v;
}

void poseError(const SE3& a, const SE3& b, double& pe, double& oe) {
  pe = (a.p - b.p).norm();
  oe = rotationLog(a.R.transpose() * b.R).norm();
}

void poseErrorAt(const Model& model, Data& data, const VecX& q, const SE3& target, double& pe, double& oe) {
  forwardKinematics(model, data, q);
  poseError(data.oMtool, target, pe, oe);
}

bool hasClosedForm(const Model& model) { return model.closed_form.cls != ClosedFormChain::kNone; }

namespace {

/// Drops from `list` every solution within `sep` (largest coordinate difference) of an earlier one.
void keepDistinct(std::vector<IkSolution>& list, double sep) {
  std::vector<IkSolution> kept;
  kept.reserve(list.size());
  for (auto& s : list) {
    bool near = false;
    for (const auto& k : kept) near = near || (k.q - s.q).cwiseAbs().maxCoeff() < sep;
    if (!near) kept.push_back(std::move(s));
  }
  list = std::move(kept);
}

IkAllResult numericAll(const Model& model, Data& data, const SE3& target, const IkOptions& options, const VecX* seed) {
  // Multi-start: every converged start is a solution; duplicates removed by the collector, and
  // solutions within options.min_separation of a kept one (the same posture) dropped.
  if (!(options.min_separation >= 0) || !std::isfinite(options.min_separation))
    throw Error("options.minSeparation: must be a finite number ≥ 0");
  IkOptions opt = options;
  opt.restarts = 0;
  const double tol = std::max(1e-9, 10 * options.tolerance);
  IkSolutionSet set;
  ik_detail::IkCollector collect(set, model, seed ? seed->data() : nullptr, tol);
  IkResult r;
  std::mt19937_64 rng(options.random_seed);
  std::uniform_real_distribution<double> U(0, 1);
  const int starts = std::max(1, options.restarts) + (seed ? 1 : 0);
  IkAllResult res;
  res.method = IkMethod::Numeric;
  double best = kInf;
  VecX q0(model.nq), bestq(model.nq);
  for (int k = 0; k < starts; ++k) {
    if (seed && k == 0) {
      q0 = *seed;
    } else {
      for (int j = 0; j < model.njoints(); ++j) {
        const auto& L = model.joints[j].limits;
        if (!model.jmodels[j].independent) continue;
        const double fb = model.jmodels[j].angular() ? kPi : 1.0;
        const double lo = std::isfinite(L.lower) ? L.lower : -fb, hi = std::isfinite(L.upper) ? L.upper : fb;
        q0[model.idx_q[j]] = lo + U(rng) * (hi - lo);
      }
    }
    ikNumeric(model, data, target, q0, opt, r, /*analytic_start=*/false);  // purely numeric (a peer of the closed forms)
    if (r.status == IkStatus::Ok) {
      if (opt.position_only) {
        IkSolution s;
        s.q = r.q;
        s.within_limits = true;
        s.position_error = r.position_error;
        bool dup = false;
        for (const auto& o : res.solutions) dup = dup || (o.q - s.q).cwiseAbs().maxCoeff() < 1e-6;
        if (!dup) res.solutions.push_back(s);
      } else {
        collect.offerChecked(data, target, r.q);
      }
    } else if (r.residual < best) {
      best = r.residual;
      bestq = r.q;
    }
  }
  if (opt.position_only) {
    const size_t converged = res.solutions.size();
    if (options.min_separation > 0) keepDistinct(res.solutions, options.min_separation);
    res.note = "numeric multi-start (" + std::to_string(starts) + " starts): " + std::to_string(converged) +
               " converged, " + std::to_string(res.solutions.size()) + " distinct";
    res.status = res.solutions.empty() ? IkStatus::Unreachable : IkStatus::Ok;
    if (res.solutions.empty()) {
      res.has_nearest = true;
      res.nearest.q = bestq;
      res.residual = best;
    }
    return res;
  }
  collect.finish();
  res = ik_detail::toIkAllResult(model, data, target, seed, set, IkMethod::Numeric,
                                 "numeric multi-start (" + std::to_string(starts) + " starts)");
  if (options.min_separation > 0) {
    keepDistinct(res.solutions, options.min_separation);
    keepDistinct(res.outside_limits, options.min_separation);
  }
  return res;
}

/// The closed form's set as an IkAllResult (the nearest least-squares pose when unreachable).
IkAllResult closedAll(const Model& model, Data& data, const SE3& target, const VecX* seed) {
  IkSolutionSet out;
  ikClosed(model, data, target, seed ? seed->data() : nullptr, out);
  return ik_detail::toIkAllResult(model, data, target, seed, out, IkMethod::Closed, closedIkNote(out.closed.kase));
}

/// Every solution of a 6R chain by the eigenvalue method, limits applied by the collector; when no
/// formulation is regular for this geometry, the numeric multi-start (method numeric, with a note).
IkAllResult general6rAll(const Model& model, Data& data, const SE3& target, const IkOptions& options, const VecX* seed) {
  if (options.position_only) throw Error("method general6r: solves the full pose; position-only needs method numeric");
  IkSolutionSet g;
  ikGeneral6R(model, data, target, g, seed ? seed->data() : nullptr);
  if (g.general6r.degenerate) {
    IkAllResult res = numericAll(model, data, target, options, seed);
    res.note = "general6r: no regular elimination for this geometry (intersecting or parallel axes; prismatic joints the elimination cannot place, e.g. 3R3P, which method 3r3p solves exactly), solved by " + res.note;
    return res;
  }
  return ik_detail::toIkAllResult(model, data, target, seed, g, IkMethod::General6R,
                                  "general 6R eigenvalue method (Raghavan-Roth elimination, 24x24 eigenproblem, formulation " +
                                      std::to_string(g.general6r.formulation) + "): " + std::to_string(g.general6r.real_roots) +
                                      " real root(s), " + std::to_string(g.count) + " solution(s)");
}

/// Every solution of a 3R3P chain (at most 2) by Euler angles and a 3×3 linear system, limits applied by the
/// collector; when the arm or target is degenerate for it (a continuum), the numeric multi-start (method
/// numeric, with a note).
IkAllResult threeRThreePAll(const Model& model, Data& data, const SE3& target, const IkOptions& options, const VecX* seed) {
  if (options.position_only) throw Error("method 3r3p: solves the full pose; position-only needs method numeric");
  IkSolutionSet g;
  ikThreeRThreeP(model, data, target, g, seed ? seed->data() : nullptr);
  const auto& d = g.three_r_three_p;
  if (d.degenerate) {
    IkAllResult res = numericAll(model, data, target, options, seed);
    res.note = std::string("3r3p: ") + d.why + "; solved by " + res.note;
    return res;
  }
  return ik_detail::toIkAllResult(model, data, target, seed, g, IkMethod::ThreeRThreeP,
                                  "3R3P: Euler angles about the three revolute axes (A cos + B sin = C: " +
                                      std::to_string(d.orientation_roots) +
                                      " real root(s)), the prismatic joints from a 3x3 linear system: " +
                                      std::to_string(g.count) + " solution(s)");
}

/// Every solution of a four-joint rotating chain by the orientation sweep, limits applied by the collector.
IkAllResult sweepAll(const Model& model, Data& data, const SE3& target, const IkOptions& options, const VecX* seed) {
  if (options.position_only) throw Error("method sweep: solves the full pose; position-only needs method numeric");
  IkSolutionSet g;
  ikSweep(model, data, target, g, seed ? seed->data() : nullptr);
  const auto& w = g.sweep;
  return ik_detail::toIkAllResult(model, data, target, seed, g, IkMethod::Sweep,
                                  "orientation sweep (joint " + std::to_string(w.sweep_joint + 1) + " held, " +
                                      std::to_string(w.samples) + " samples, " + std::to_string(w.branches) + " branches, " +
                                      std::to_string(w.candidates) + " candidates polished): " + std::to_string(g.count) +
                                      " solution(s)");
}

}  // namespace

IkAllResult ikAll(const Model& model, const SE3& target, IkMethod method, const IkOptions& options, const VecX* seed) {
  Data data(model);
  return ikAll(model, data, target, method, options, seed);
}

IkAllResult ikAll(const Model& model, Data& data, const SE3& target, IkMethod method, const IkOptions& options,
                  const VecX* seed) {
  checkData(model, data);
  if (seed) checkConfiguration(model, *seed);
  if (method == IkMethod::Auto)
    method = options.position_only        ? IkMethod::Numeric
             : hasClosedForm(model)       ? IkMethod::Closed
             : isThreeRThreeP(model)      ? IkMethod::ThreeRThreeP
             : isGeneral6R(model)         ? IkMethod::General6R
             : isSweepChain(model)        ? IkMethod::Sweep
                                          : IkMethod::Numeric;
  switch (method) {
    case IkMethod::Closed: return closedAll(model, data, target, seed);  // throws naming why if there is none
    case IkMethod::Algebraic: return ikAlgebraic4A(model, target, seed);
    case IkMethod::General6R: return general6rAll(model, data, target, options, seed);
    case IkMethod::Sweep: return sweepAll(model, data, target, options, seed);
    case IkMethod::ThreeRThreeP: return threeRThreePAll(model, data, target, options, seed);
    default: return numericAll(model, data, target, options, seed);
  }
}

}  // namespace achain
