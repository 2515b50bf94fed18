#include <achain/kinematics/singularity.hpp>

#include <cstdio>

#include <cmath>
#include <limits>

#include <achain/kinematics/jacobian.hpp>
#include <achain/model/labels.hpp>

namespace achain {

Manipulability manipulability(const MatX& J, double rank_tol) {
  if (J.size() == 0) throw Error("J: must not be empty");
  if (!J.allFinite()) throw Error("J: must be finite");
  Manipulability r;
  Eigen::JacobiSVD<MatX> svd(J, Eigen::ComputeFullU | Eigen::ComputeFullV);
  r.singular_values = svd.singularValues();
  r.U = svd.matrixU();
  r.V = svd.matrixV();
  const int k = static_cast<int>(r.singular_values.size());
  r.sigma_max = r.singular_values[0];
  r.sigma_min = r.singular_values[k - 1];
  r.rank_tolerance = rank_tol >= 0 ? rank_tol
                                   : std::max(J.rows(), J.cols()) * std::numeric_limits<double>::epsilon() * r.sigma_max;
  r.rank = 0;
  for (int i = 0; i < k; ++i) r.rank += r.singular_values[i] > r.rank_tolerance;
  r.condition = r.sigma_min > r.rank_tolerance ? r.sigma_max / r.sigma_min : std::numeric_limits<double>::infinity();
  r.inverse_condition = r.sigma_max > 0 ? r.sigma_min / r.sigma_max : 0.0;
  r.yoshikawa = r.singular_values.prod();
  return r;
}

double lengthScale(const Model& model) {
  double L = 0;
  for (int i = 0; i < model.njoints(); ++i) {
    const Joint& j = model.joints[i];
    L += std::abs(j.a) + std::abs(j.d) + (j.has_origin ? j.origin.p.norm() : 0.0);
    const AxialLaw& law = model.jmodels[i].law;
    for (int k = 0; k < law.nsine; ++k) L += std::abs(law.sine[k].amplitude);
  }
  return L > 0 ? L : 1.0;
}

namespace {
/// Distance between two lines (point o, unit direction z).
double lineDistance(const Vec3& o1, const Vec3& z1, const Vec3& o2, const Vec3& z2) {
  const Vec3 n = z1.cross(z2);
  const Vec3 d = o2 - o1;
  if (n.norm() < 1e-12) return (d - d.dot(z1) * z1).norm();
  return std::abs(d.dot(n)) / n.norm();
}
/// Point of axis a closest to axis b (for intersecting axes: the intersection).
Vec3 closestPoint(const Vec3& oa, const Vec3& za, const Vec3& ob, const Vec3& zb) {
  const Vec3 w = oa - ob;
  const double b = za.dot(zb), d = za.dot(w), e = zb.dot(w);
  const double den = 1 - b * b;
  if (den < 1e-12) return oa;
  const double s = (b * e - d) / den;
  return oa + s * za;
}
}  // namespace

bool isWristPartitioned(const Model& model, const Data& data, double tol) {
  if (model.njoints() != 6) return false;
  for (int i = 0; i < 6; ++i)
    if (!model.jmodels[i].revolute() || !model.jmodels[i].independent || model.joints[i].parent != i - 1) return false;
  const double L = lengthScale(model);
  auto z = [&](int i) { return Vec3(data.oMj[i].R.col(2)); };
  auto o = [&](int i) { return Vec3(data.oMj[i].p); };
  if (z(1).cross(z(2)).norm() > tol) return false;
  // axes 4, 5, 6 meet in one point: pairwise distances vanish and the meeting points agree
  if (lineDistance(o(3), z(3), o(4), z(4)) > tol * L || lineDistance(o(4), z(4), o(5), z(5)) > tol * L) return false;
  const Vec3 c45 = closestPoint(o(3), z(3), o(4), z(4));
  if (lineDistance(c45, z(5), o(5), z(5)) > tol * L) return false;
  return true;
}

std::vector<Singularity> detectSingularities(const Model& model, const Data& data, double tol) {
  std::vector<Singularity> out;
  const double L = lengthScale(model);
  const int n = model.njoints();
  for (int i = 0; i < n; ++i) {
    // A joint whose translation is a sine law (the A-pair: ρ·sin(θ_v/2)) loses its axial velocity at the
    // law's extremes (θ_v = 180° mod 360° for an A-pair).
    const JointModel& jm = model.jmodels[i];
    if (jm.coord < 0 || jm.law.nsine == 0 || jm.law.c1 != 0 || jm.law.c2 != 0 || jm.law.c3 != 0) continue;
    if (!(jm.axial_rate_bound > 0)) continue;
    const double c = std::abs(data.axial_rate[i]) / (jm.axial_rate_bound * std::abs(jm.scale));  // |cos(θ_v/2)|
    if (c < tol)
      out.push_back({"apair-axial", {i}, c,
                     "A-pair " + jointLabel(model, i) + " at θ_v = 180° (mod 360°): maximum extension, no axial velocity"});
  }
  MatX J(6, model.nv);
  toolJacobian(model, data, J);
  for (int a = 0; a < n; ++a) {
    if (!model.jmodels[a].angular() || model.idx_q[a] < 0) continue;
    for (int b = a + 1; b < n; ++b) {
      if (!model.jmodels[b].angular() || model.idx_q[b] < 0 || model.idx_q[b] == model.idx_q[a] ||
          !supports(model, a, b))
        continue;
      const Vec3 za = data.oMj[a].R.col(2), zb = data.oMj[b].R.col(2);
      const double m = std::max(za.cross(zb).norm(), lineDistance(data.oMj[a].p, za, data.oMj[b].p, zb) / L);
      if (m >= tol) continue;
      // collinear axes give dependent columns unless the joints' axial rates differ
      const auto ca = J.col(model.idx_q[a]), cb = J.col(model.idx_q[b]);
      const double ra = data.rot_rate[a], rb = data.rot_rate[b];
      const double dep = (rb * ca - ra * cb).norm() / std::max(1.0, ca.norm() + cb.norm());
      if (dep > tol) continue;
      out.push_back({"collinear-axes", {a, b}, m,
                     "axes of " + jointLabel(model, a) + " and " + jointLabel(model, b) + " are collinear"});
    }
  }
  if (isWristPartitioned(model, data)) {
    auto z = [&](int i) { return Vec3(data.oMj[i].R.col(2)); };
    auto o = [&](int i) { return Vec3(data.oMj[i].p); };
    const Vec3 wc = closestPoint(o(3), z(3), o(4), z(4));
    const double mw = z(3).cross(z(5)).norm();
    if (mw < tol) out.push_back({"wrist", {3, 4, 5}, mw, "wrist singularity: axes 4 and 6 aligned"});
    // elbow: wc in the plane containing the parallel axes 2 and 3
    const Vec3 d23 = o(2) - o(1) - (o(2) - o(1)).dot(z(1)) * z(1);
    if (d23.norm() > 1e-12 * L) {
      const Vec3 nrm = z(1).cross(d23).normalized();
      const double me = std::abs((wc - o(1)).dot(nrm)) / L;
      if (me < tol) out.push_back({"elbow", {1, 2}, me, "elbow singularity: arm fully stretched or folded"});
    }
    const Vec3 n12 = z(0).cross(z(1));
    if (n12.norm() > 1e-9) {
      const double ms = std::abs((wc - o(0)).dot(n12.normalized())) / L;
      if (ms < tol)
        out.push_back({"shoulder", {0}, ms, "shoulder singularity: wrist centre in the plane of axes 1 and 2"});
    }
  }
  if (model.nv <= 6) {
    MatX Js = J;
    Js.bottomRows<3>() *= L;
    const Manipulability mm = manipulability(Js);
    if (mm.inverse_condition < tol) {
      std::vector<int> all;
      for (int i = 0; i < n; ++i) all.push_back(i);
      // Worded from σ_min: the rank drops only at the singularity itself, while the warning fires near it.
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.3g", mm.inverse_condition);
      const std::string what =
          mm.rank < model.nv
              ? "tool Jacobian rank " + std::to_string(mm.rank) + " < " + std::to_string(model.nv) + " (σ_min/σ_max = " + ratio + ")"
              : std::string("tool Jacobian nearly singular: σ_min/σ_max = ") + ratio + " (a direction of tool motion is almost lost)";
      out.push_back({"rank-deficient", all, mm.inverse_condition, what});
    }
  }
  return out;
}

}  // namespace achain
