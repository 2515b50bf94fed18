#include <achain/kinematics/statics.hpp>

#include <limits>
#include <string>

#include <achain/kinematics/singularity.hpp>

namespace achain {

void staticTorques(const MatX& J, const Vec6& wrench, Eigen::Ref<VecX> tau) {
  if (J.rows() != 6) throw Error("J: must have 6 rows (v, ω)");
  if (tau.size() != J.cols()) throw Error("tau: must have " + std::to_string(J.cols()) + " entries");
  if (!wrench.allFinite()) throw Error("wrench: must be finite");
  tau.noalias() = J.transpose() * wrench;
}

VecX staticTorques(const Model& model, const Data& data, const Vec6& wrench, Frame frame) {
  MatX& J = data.kin.J;
  toolJacobian(model, data, J, frame);
  VecX tau(model.nv);
  staticTorques(J, wrench, tau);
  return tau;
}

namespace {
Ellipsoid ellipsoid(const MatX& J, bool force) {
  const Manipulability m = manipulability(J);
  Ellipsoid e;
  const int m_rows = static_cast<int>(J.rows());
  e.axes = m.U;
  e.radii = VecX::Zero(m_rows);
  for (int i = 0; i < m_rows; ++i) {
    const double s = i < m.singular_values.size() ? m.singular_values[i] : 0.0;
    const bool zero = s <= m.rank_tolerance;
    if (force) e.radii[i] = zero ? std::numeric_limits<double>::infinity() : 1.0 / s;
    else e.radii[i] = zero ? 0.0 : s;
  }
  return e;
}
}  // namespace

Ellipsoid velocityEllipsoid(const MatX& J) { return ellipsoid(J, false); }
Ellipsoid forceEllipsoid(const MatX& J) { return ellipsoid(J, true); }

}  // namespace achain
