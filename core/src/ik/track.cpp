#include <achain/ik/track.hpp>

#include <algorithm>
#include <cmath>

#include <Eigen/QR>

#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/jacobian.hpp>

namespace achain {

namespace {

using Jac = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;
using Vq = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

/// Pose on the path from a to b at s ∈ [0, 1]: straight in position, geodesic in orientation (world frame).
SE3 interpolate(const SE3& a, const SE3& b, const Vec3& w, double s) {
  SE3 T;
  T.p = (1 - s) * a.p + s * b.p;
  const double th = s * w.norm();
  T.R = th > 0 ? Mat3(Eigen::AngleAxisd(th, w.normalized()).toRotationMatrix() * a.R) : a.R;
  return T;
}

/// Pose error vector at the FK state of data (target minus current) and its size |Δp| + angle.
double errorAt(const Data& data, const SE3& target, Vec6& e) {
  e.head<3>() = target.p - data.oMtool.p;
  e.tail<3>() = rotationLog(target.R * data.oMtool.R.transpose());
  return e.head<3>().norm() + e.tail<3>().norm();
}

/// Newton from q toward `target`: converged to tol with every step ≤ max_step (q updated), or false
/// (q unchanged).
bool newton(const Model& model, Data& data, const SE3& target, double tol, double max_step, VecX& q, VecX& qn,
            Jac& J, Eigen::ColPivHouseholderQR<Jac>& qr, int& steps, double& err) {
  const int n = model.nq;
  qn = q;
  Vec6 e;
  Vq dq(n);
  for (int it = 0; it < 8; ++it) {
    forwardKinematics(model, data, qn);
    err = errorAt(data, target, e);
    if (err <= tol) {
      q = qn;
      return true;
    }
    if (!std::isfinite(err)) return false;
    toolJacobian(model, data, data.ik.J, Frame::Base);
    J = data.ik.J;
    qr.compute(J);
    dq = qr.solve(e);
    ++steps;
    if (!dq.allFinite() || dq.cwiseAbs().maxCoeff() > max_step) return false;
    qn += dq;
  }
  forwardKinematics(model, data, qn);
  err = errorAt(data, target, e);
  if (!(err <= tol)) return false;
  q = qn;
  return true;
}

/// Shifts periodic coordinates by whole periods into the limits where that fits (the same pose).
void intoLimits(const Model& model, VecX& q) {
  for (int j = 0; j < model.njoints(); ++j) {
    const JointModel& jm = model.jmodels[j];
    const int c = model.idx_q[j];
    if (c < 0 || !jm.independent || !(jm.period > 0)) continue;
    const JointLimits& L = model.joints[j].limits;
    if (q[c] >= L.lower && q[c] <= L.upper) continue;
    for (int k = 1; k <= 3; ++k)
      for (const double s : {-1.0, 1.0}) {
        const double v = q[c] + s * k * jm.period;
        if (v >= L.lower && v <= L.upper) {
          q[c] = v;
          return intoLimits(model, q);  // the next coordinate
        }
      }
  }
}

/// Largest coordinate difference modulo the joints' periods.
double distance(const Model& model, const double* a, const double* b) {
  double d = 0;
  for (int j = 0; j < model.njoints(); ++j) {
    const int c = model.idx_q[j];
    if (c < 0 || !model.jmodels[j].independent) continue;
    double x = a[c] - b[c];
    const double P = model.jmodels[j].period;
    if (P > 0) x = std::remainder(x, P);
    d = std::max(d, std::abs(x));
  }
  return d;
}

}  // namespace

const char* toString(BranchEvent e) {
  switch (e) {
    case BranchEvent::None: return "none";
    case BranchEvent::LeftLimits: return "leftLimits";
    case BranchEvent::EnteredLimits: return "enteredLimits";
    case BranchEvent::Singular: return "singular";
    case BranchEvent::Ended: return "ended";
  }
  return "?";
}

void startBranches(const Model& model, const SE3& target, IkBranches& b) {
  if (model.nq > 6 || model.nq < 1)
    throw Error("branch tracking: chains of 1 to 6 coordinates (this one has " + std::to_string(model.nq) + ")");
  b.count = 0;
  b.target = target;
  b.newton_steps = b.halvings = 0;
}

int addBranch(const Model& model, IkBranches& b, const double* q) {
  if (b.count >= IkBranches::kCapacity)
    throw Error("branch tracking: at most " + std::to_string(IkBranches::kCapacity) + " branches");
  for (int i = 0; i < model.nq; ++i)
    if (!std::isfinite(q[i])) throw Error("branch q[" + std::to_string(i) + "]: must be a finite number");
  const int k = b.count++;
  for (int i = 0; i < 6; ++i) b.q[k][i] = i < model.nq ? q[i] : 0.0;
  b.alive[k] = true;
  b.within_limits[k] = withinLimits(model, Eigen::Map<const VecX>(q, model.nq));
  b.event[k] = BranchEvent::None;
  b.partner[k] = -1;
  b.error[k] = 0;
  b.velocity[k].fill(0.0);
  return k;
}

void trackBranches(const Model& model, Data& data, const SE3& target, IkBranches& b, const BranchTrackOptions& o) {
  checkData(model, data);
  if (model.nq > 6) throw Error("branch tracking: chains of 1 to 6 coordinates");
  if (!(o.max_joint_step > 0) || !std::isfinite(o.max_joint_step)) throw Error("options.maxJointStep: must be a positive number");
  if (o.max_halvings < 0 || o.max_halvings > 40) throw Error("options.maxHalvings: must be 0 … 40");
  if (!(o.tolerance > 0)) throw Error("options.tolerance: must be > 0");
  if (!(o.meet_distance >= 0) || !std::isfinite(o.meet_distance)) throw Error("options.meetDistance: must be a finite number ≥ 0");
  const int n = model.nq;
  const SE3 from = b.target;
  const Vec3 w = rotationLog(target.R * from.R.transpose());
  // scratch from the Data's IK block (sized nq; no allocation)
  VecX& q = data.ik.q;
  VecX& qn = data.ik.qtry;
  Jac J(6, n);
  Eigen::ColPivHouseholderQR<Jac> qr(6, n);
  b.newton_steps = b.halvings = 0;
  const double mid_tol = std::max(o.tolerance, 1e-8);  // intermediate poses of a halved segment
  for (int k = 0; k < b.count; ++k) {
    if (!b.alive[k]) {
      b.event[k] = BranchEvent::None;
      continue;
    }
    for (int i = 0; i < n; ++i) q[i] = b.q[k][i];
    double s = 0, ds = 1, err = 0;
    int halvings = 0;
    bool ok = true;
    while (s < 1) {
      const double s1 = std::min(1.0, s + ds);
      const SE3 T = s1 >= 1 ? target : interpolate(from, target, w, s1);
      // predictor: the last frame's motion, scaled to this segment; Newton corrects from there
      for (int i = 0; i < n; ++i) q[i] += (s1 - s) * b.velocity[k][i];
      if (newton(model, data, T, s1 >= 1 ? o.tolerance : mid_tol, o.max_joint_step, q, qn, J, qr, b.newton_steps, err)) {
        s = s1;
        ds = std::min(2 * ds, 1.0);
      } else {
        for (int i = 0; i < n; ++i) q[i] -= (s1 - s) * b.velocity[k][i];
        if (++halvings > o.max_halvings) {
          ok = false;
          break;
        }
        ++b.halvings;
        ds *= 0.5;
      }
    }
    b.partner[k] = -1;
    if (!ok) {
      b.alive[k] = false;
      b.event[k] = BranchEvent::Ended;
      b.error[k] = err;
      continue;
    }
    for (int i = 0; i < n; ++i) b.velocity[k][i] = q[i] - b.q[k][i];
    intoLimits(model, q);
    for (int i = 0; i < n; ++i) b.q[k][i] = q[i];
    b.error[k] = err;
    const bool inside = withinLimits(model, q);
    b.event[k] = inside == b.within_limits[k] ? BranchEvent::None : inside ? BranchEvent::EnteredLimits : BranchEvent::LeftLimits;
    b.within_limits[k] = inside;
  }
  // branches that ended in this frame: met a partner that ended with them (a fold), the nearest one
  for (int k = 0; k < b.count; ++k) {
    if (b.event[k] != BranchEvent::Ended) continue;
    double best = kInf;
    for (int m = 0; m < b.count; ++m) {
      if (m == k || (b.event[m] != BranchEvent::Ended && b.event[m] != BranchEvent::Singular) || b.alive[m]) continue;
      const double d = distance(model, b.q[k].data(), b.q[m].data());
      if (d < best) best = d, b.partner[k] = m;
    }
  }
  for (int k = 0; k < b.count; ++k)
    if (b.event[k] == BranchEvent::Ended && b.partner[k] >= 0) b.event[k] = BranchEvent::Singular;
  // alive branches that arrived on another: met at a singularity (the later index ends)
  for (int k = 0; k < b.count; ++k) {
    if (!b.alive[k]) continue;
    for (int m = 0; m < k; ++m)
      if (b.alive[m] && distance(model, b.q[k].data(), b.q[m].data()) <= o.meet_distance) {
        b.alive[k] = false;
        b.event[k] = BranchEvent::Singular;
        b.partner[k] = m;
        break;
      }
  }
  b.target = target;
}

}  // namespace achain
