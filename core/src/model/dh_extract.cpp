#include <achain/model/dh_extract.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include <achain/kinematics/fk.hpp>
#include <achain/model/data.hpp>

namespace achain {

namespace {

std::string jointName(const Model& m, int i) {
  return "joints[" + std::to_string(i) + "] '" + m.joints[i].name + "'";
}

/// Unit vector along the part of v perpendicular to z, or zero when v ∥ z.
Vec3 perpendicular(const Vec3& v, const Vec3& z) {
  const Vec3 w = v - v.dot(z) * z;
  const double n = w.norm();
  return n > 1e-9 ? Vec3(w / n) : Vec3(Vec3::Zero());
}

SE3 frameOf(const Vec3& origin, const Vec3& x, const Vec3& z) {
  SE3 F;
  F.R.col(0) = x;
  F.R.col(1) = z.cross(x);
  F.R.col(2) = z;
  F.p = origin;
  return F;
}

double poseDiff(const SE3& a, const SE3& b, double length) {
  return std::max((a.R - b.R).cwiseAbs().maxCoeff(), (a.p - b.p).cwiseAbs().maxCoeff() / length);
}

}  // namespace

DHExtraction extractDH(const Model& m) {
  DHExtraction out;
  const int n = m.njoints();
  bool serial = true;
  for (int i = 0; i < n; ++i) serial = serial && m.joints[i].parent == i - 1;
  if (m.has_dh && serial) {
    out.model = m.convention == DHConvention::Standard ? m : convertConvention(m, DHConvention::Standard);
    out.ok = true;
    for (int i = 0; i < n; ++i) out.joints.push_back(i);
    return out;
  }

  // The path from the base to the tool link; every joint with a coordinate must lie on it.
  std::vector<char> on_path(n, 0);
  for (int i = m.toolLink(); i >= 0; i = m.joints[i].parent) on_path[i] = 1;
  std::vector<int> path;
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    if (m.idx_q[i] < 0) continue;  // fixed: a rigid offset
    if (!on_path[i]) {
      out.reason = jointName(m, i) + " moves a link off the path from the base to the tool (a tree, or a joint past the tool link): DH describes one serial chain";
      return out;
    }
    if (j.mimic >= 0) {
      out.reason = jointName(m, i) + " mimics " + jointName(m, j.mimic) + ": a coupling, and DH gives each joint its own coordinate";
      return out;
    }
    path.push_back(i);
  }
  const int nd = static_cast<int>(path.size());
  if (nd == 0) {
    out.reason = "no moving joint between the base and the tool";
    return out;
  }

  // Axes and link frames at q = 0 (world frame).
  Data data(m);
  const VecX q0 = VecX::Zero(m.nq);
  forwardKinematics(m, data, q0);
  const std::vector<SE3> oMj0 = data.oMj, oMi0 = data.oMi;
  const SE3 tool0 = data.oMtool;
  double length = 1;  // the chain's size: positions compare to 1e-12 of it
  for (int i : path) length = std::max(length, oMj0[i].p.norm());
  length = std::max(length, tool0.p.norm());

  // DH frames 0..nd at q = 0: frame k−1 has z along joint k's axis.
  std::vector<SE3> F(nd + 1);
  {
    const Vec3 z = oMj0[path[0]].R.col(2), p = oMj0[path[0]].p;
    const Vec3 o = p + (m.base.p - p).dot(z) * z;
    Vec3 x = perpendicular(m.base.R.col(0), z);
    if (x.isZero()) x = perpendicular(m.base.R.col(1), z);
    F[0] = frameOf(o, x, z);
  }
  for (int k = 1; k < nd; ++k) {
    const Vec3 o = F[k - 1].p, z = F[k - 1].R.col(2);
    const Vec3 p2 = oMj0[path[k]].p, z2 = oMj0[path[k]].R.col(2);
    const Vec3 cr = z.cross(z2);
    Vec3 origin, x;
    if (cr.norm() > 1e-10) {  // skew or intersecting: the common normal
      const Vec3 w0 = o - p2;
      const double b = z.dot(z2), d = z.dot(w0), e = z2.dot(w0), den = 1 - b * b;
      const double t = (b * e - d) / den, s = (e - b * d) / den;
      const Vec3 c1 = o + t * z;
      origin = p2 + s * z2;
      const Vec3 v = origin - c1;
      x = cr.normalized();
      if (v.norm() > 1e-12 * length && v.dot(x) < 0) x = -x;
    } else {  // parallel: the normal through frame k−1's origin (d_k = 0)
      origin = p2 + (o - p2).dot(z2) * z2;
      const Vec3 v = origin - o;  // ⟂ the axes
      const double nv = v.norm();
      x = nv > 1e-12 * length ? Vec3(v / nv) : perpendicular(F[k - 1].R.col(0), z2);  // coincident: x kept
    }
    F[k] = frameOf(origin, x, z2);
  }
  {
    const SE3& L = oMi0[path[nd - 1]];
    const Vec3 z = F[nd - 1].R.col(2), o = F[nd - 1].p;
    const Vec3 origin = o + (L.p - o).dot(z) * z;
    Vec3 x = perpendicular(L.R.col(0), z);
    if (x.isZero()) x = perpendicular(L.R.col(1), z);
    F[nd] = frameOf(origin, x, z);
  }

  Model S;
  S.name = m.name;
  S.description = "standard-DH description extracted from '" + m.name + "' (kinematics only)";
  S.convention = DHConvention::Standard;
  S.gravity = m.gravity;
  S.base = F[0];
  S.tool = F[nd].inverse() * tool0;
  S.tool_link = -1;
  JointState js;
  for (int k = 0; k < nd; ++k) {
    const int i = path[k];
    const Joint& src = m.joints[i];
    Joint j = src;  // kind, sign, laws, A-pair sizes, limits, motor; placed anew by DH constants
    j.parent = k - 1;
    j.has_origin = false;
    j.origin = SE3::Identity();
    j.axis = Vec3::UnitZ();
    j.link = Inertial{};  // kinematic only
    const SE3 T = F[k].inverse() * F[k + 1];
    // Rz(θ) Tz(d) Tx(a) Rx(α) = T: θ from x_{k+1} in frame k, α from z_{k+1}.
    const double theta = std::atan2(T.R(1, 0), T.R(0, 0));
    j.alpha = std::atan2(T.R(2, 1), T.R(2, 2));
    j.a = T.p.x() * std::cos(theta) + T.p.y() * std::sin(theta);
    const JointModel& jm = m.jmodels[i];
    jm.evaluate(q0[jm.coord], js);
    // θ(q) = φ + θ_joint(q) − θ_joint(0) = θ_f' + rot·u;  dz(q) = δ + dz_joint(q) − dz_joint(0)
    j.theta_f = src.theta_f + theta - js.theta;
    j.d = src.d + T.p.z() - js.dz;
    S.joints.push_back(j);
  }
  try {
    S.finalize();
  } catch (const Error& e) {
    out.reason = std::string("the DH constants are outside the physical range (nearly parallel axes?): ") + e.what();
    return out;
  }

  // The check: tool and every moving link (by its constant offset to its DH frame) at q = 0 and random q.
  std::vector<SE3> offset(nd);
  for (int k = 0; k < nd; ++k) offset[k] = F[k + 1].inverse() * oMi0[path[k]];
  Data ds(S);
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> U(-1, 1);
  VecX q(m.nq);
  double err = 0;
  for (int trial = 0; trial < 9; ++trial) {
    for (int c = 0; c < m.nq; ++c) {
      const JointLimits& L = m.joints[m.coord_joint[c]].limits;
      const double span = m.jmodels[m.coord_joint[c]].angular() ? kPi : length;
      const double lo = std::isfinite(L.lower) ? L.lower : -span, hi = std::isfinite(L.upper) ? L.upper : span;
      q[c] = trial == 0 ? 0.0 : 0.5 * (lo + hi) + 0.5 * (hi - lo) * U(rng);
    }
    forwardKinematics(m, data, q);
    forwardKinematics(S, ds, q);
    err = std::max(err, poseDiff(ds.oMtool, data.oMtool, length));
    for (int k = 0; k < nd; ++k) err = std::max(err, poseDiff(ds.oMi[k] * offset[k], data.oMi[path[k]], length));
  }
  if (!(err <= 1e-12)) {
    std::ostringstream os;
    os.precision(3);
    os << "the extracted DH chain does not reproduce the model's FK (largest relative difference " << err << ")";
    out.reason = os.str();
    return out;
  }
  out.ok = true;
  out.model = std::move(S);
  out.joints = std::move(path);
  out.fk_error = err;
  return out;
}

std::string dhStatus(const Model& m) {
  if (m.has_dh) return "given";
  const DHExtraction x = extractDH(m);
  return x.ok ? "extracted" : "none (" + x.reason + ")";
}

}  // namespace achain
