#include <achain/kinematics/transfer.hpp>

#include <string>

#include <achain/kinematics/influence.hpp>

namespace achain {

MatX invertSquare(const MatX& J, double rcond_min) {
  if (J.rows() != J.cols() || J.rows() == 0)
    throw Error("J: must be square and non-empty to transfer coordinates (got " + std::to_string(J.rows()) + "×" +
                std::to_string(J.cols()) + ")");
  if (!J.allFinite()) throw Error("J: must be finite");
  Eigen::JacobiSVD<MatX> svd(J);
  const VecX& s = svd.singularValues();
  const double rc = s[0] > 0 ? s[s.size() - 1] / s[0] : 0.0;
  if (!(rc >= rcond_min))
    throw Error("J: singular (σ_min/σ_max = " + std::to_string(rc) + "); the coordinate transfer does not exist here");
  return J.partialPivLu().inverse();
}

void reverseInfluence(const MatX& J, const Tensor3& Hq, MatX& Gphi, Tensor3& Hphi) {
  if (Hq.planes() != J.rows() || Hq.rows() != J.cols() || Hq.cols() != J.cols())
    throw Error("Hq: must be " + std::to_string(J.rows()) + "×" + std::to_string(J.cols()) + "×" + std::to_string(J.cols()));
  Gphi = invertSquare(J);
  const Tensor3 A = dot(Gphi, Hq);
  congruence(Gphi, A, Gphi, Hphi);
  for (int p = 0; p < Hphi.planes(); ++p) Hphi.plane(p) *= -1.0;
}

void transferInfluence(const MatX& Gu, const Tensor3& Hu, const MatX& J, const Tensor3& Hq, MatX& Guq, Tensor3& Huq) {
  if (Gu.cols() != J.cols()) throw Error("Gu: must have " + std::to_string(J.cols()) + " columns (one per φ)");
  if (Hu.planes() != Gu.rows() || Hu.rows() != J.cols() || Hu.cols() != J.cols())
    throw Error("Hu: must be " + std::to_string(Gu.rows()) + "×" + std::to_string(J.cols()) + "×" + std::to_string(J.cols()));
  if (Hq.planes() != J.rows() || Hq.rows() != J.cols() || Hq.cols() != J.cols())
    throw Error("Hq: must be " + std::to_string(J.rows()) + "×" + std::to_string(J.cols()) + "×" + std::to_string(J.cols()));
  const MatX Jinv = invertSquare(J);
  Guq = Gu * Jinv;
  Tensor3 inner = dot(Guq, Hq);  // (G^u J⁻¹) ∘ H^q
  for (int p = 0; p < inner.planes(); ++p) inner.plane(p) = Hu.plane(p) - inner.plane(p);
  congruence(Jinv, inner, Jinv, Huq);
}

VecX resolvedRate(const MatX& J, const VecX& qd) {
  if (qd.size() != J.rows()) throw Error("qd: expected " + std::to_string(J.rows()) + " values");
  return invertSquare(J) * qd;
}

VecX resolvedAcceleration(const MatX& J, const Tensor3& Hq, const VecX& phid, const VecX& qdd) {
  if (qdd.size() != J.rows() || phid.size() != J.cols()) throw Error("phid, qdd: sizes must match J");
  return invertSquare(J) * (qdd - quadratic(Hq, phid, phid));
}

VecX resolvedJerk(const MatX& J, const Tensor3& Hq, const Tensor4& Dq, const VecX& phid, const VecX& phidd,
                  const VecX& qddd) {
  if (qddd.size() != J.rows() || phid.size() != J.cols() || phidd.size() != J.cols())
    throw Error("phid, phidd, qddd: sizes must match J");
  // the jerk of q at φ⃛ = 0 is exactly what influenceJerk gives with a zero third derivative
  VecX bias(J.rows());
  influenceJerk(MatX::Zero(J.rows(), J.cols()), Hq, Dq, phid, phidd, VecX::Zero(J.cols()), bias);
  return invertSquare(J) * (qddd - bias);
}

}  // namespace achain
