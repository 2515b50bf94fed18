#include <achain/reach/reach_bound.hpp>

#include <algorithm>
#include <cmath>

#include <achain/model/model.hpp>

namespace achain {

namespace {

/// The range [lo, hi] of a joint's translation dz along its axis (d included) over its coordinate's limits; the
/// joint rotates freely or is fixed when its law is zero. Infinite when the travel is unbounded.
void axialRange(const Model& m, int i, double& lo, double& hi) {
  const JointModel& J = m.jmodels[i];
  JointState s;
  if (J.coord < 0 || J.law.isZero()) {
    J.evaluate(0.0, s);  // a fixed joint, or a pure rotation: dz is the constant d
    lo = hi = s.dz;
    return;
  }
  const JointLimits& L = m.joints[m.coord_joint[J.coord]].limits;  // the coordinate's owner (mimic: the leader)
  double ulo, uhi;
  if (std::isfinite(L.lower) && std::isfinite(L.upper)) {
    ulo = J.scale * L.lower + J.offset;
    uhi = J.scale * L.upper + J.offset;
    if (ulo > uhi) std::swap(ulo, uhi);
    if (J.period > 0 && uhi - ulo > J.period) uhi = ulo + J.period;  // more than a period adds nothing
  } else if (J.period > 0) {
    ulo = 0;
    uhi = J.period;
  } else {
    lo = -kInf;
    hi = kInf;
    return;
  }
  // Sampled, widened by the largest slope over half a step: every dz between two samples is within it.
  const int n = 512;
  const double h = (uhi - ulo) / n;
  lo = kInf;
  hi = -kInf;
  for (int k = 0; k <= n; ++k) {
    const double u = ulo + h * k;
    J.evaluate(J.scale != 0 ? (u - J.offset) / J.scale : 0.0, s);
    lo = std::min(lo, s.dz);
    hi = std::max(hi, s.dz);
  }
  const double margin = std::isfinite(J.axial_rate_bound) ? 0.5 * h * J.axial_rate_bound : 0.0;
  lo -= margin;
  hi += margin;
}

}  // namespace

ReachBound reachBound(const Model& m) {
  ReachBound b;
  b.links.assign(m.joints.size(), 0.0);
  for (int i = 0; i < m.njoints(); ++i) {  // parents come before their children (Model::finalize)
    double lo, hi;
    axialRange(m, i, lo, hi);
    const FixedTransform &pre = m.jmodels[i].pre, &post = m.jmodels[i].post;  // the joint model's placement
    const Vec3 a(pre.p[0], pre.p[1], pre.p[2]), c(post.p[0], post.p[1], post.p[2]);
    // |Rz(θ)·c + dz·z| = hypot(radial part of c, c_z + dz), largest at an end of the dz range
    const double axial = std::max(std::abs(c.z() + lo), std::abs(c.z() + hi));
    const double step = a.norm() + std::hypot(std::hypot(c.x(), c.y()), axial);
    const int parent = m.joints[i].parent;
    b.links[i] = (parent < 0 ? 0.0 : b.links[parent]) + step;
  }
  b.tool = (m.joints.empty() ? 0.0 : b.links[m.toolLink()]) + m.tool.p.norm();
  b.radius = b.tool;
  for (double r : b.links) b.radius = std::max(b.radius, r);
  return b;
}

}  // namespace achain
