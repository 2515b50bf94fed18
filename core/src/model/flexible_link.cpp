#include <achain/model/flexible_link.hpp>

#include <Eigen/Eigenvalues>
#include <cmath>

namespace achain {

namespace {

using Poly = std::vector<double>;

Poly derivative(const Poly& p) {
  Poly d(p.size() > 1 ? p.size() - 1 : 0);
  for (size_t k = 1; k < p.size(); ++k) d[k - 1] = static_cast<double>(k) * p[k];
  return d;
}

/// ∫₀¹ u^w·p(u)·q(u) du (w = 0 or 1); exact for polynomials.
double integral(const Poly& p, const Poly& q, int w = 0) {
  double s = 0;
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = 0; j < q.size(); ++j) s += p[i] * q[j] / static_cast<double>(i + j + 1 + w);
  return s;
}

double integral1(const Poly& p, int w = 0) { return integral(p, Poly{1.0}, w); }

std::string modeName(size_t j, ModeDirection d) {
  return "mode " + std::to_string(j + 1) + " (" + toString(d) + ")";
}

void requirePositive(double v, const char* field, const std::string& why) {
  if (!std::isfinite(v) || v <= 0)
    throw Error(std::string("flexible link: ") + field + " must be positive and finite (got " + std::to_string(v) + ")" + why);
}

Mat3 skew(const Vec3& v) {
  Mat3 S;
  S << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return S;
}

}  // namespace

const char* toString(ModeDirection d) {
  switch (d) {
    case ModeDirection::Y: return "y bending";
    case ModeDirection::Z: return "z bending";
    case ModeDirection::Torsion: return "torsion";
  }
  return "?";
}

MatX FlexibleLinkMatrices::localInertia() const {
  const Eigen::Index m = I_qq.rows();
  MatX A(6 + m, 6 + m);
  A.block<3, 3>(0, 0) = I_mm;
  A.block<3, 3>(0, 3) = I_mL;
  A.block<3, 3>(3, 0) = I_mL.transpose();
  A.block<3, 3>(3, 3) = I_LL;
  A.block(0, 6, 3, m) = I_mq;
  A.block(3, 6, 3, m) = I_Lq;
  A.block(6, 0, m, 3) = I_mq.transpose();
  A.block(6, 3, m, 3) = I_Lq.transpose();
  A.block(6, 6, m, m) = I_qq;
  return A;
}

FlexibleLinkMatrices flexibleLinkMatrices(const FlexibleLink& link) {
  requirePositive(link.length, "length", "");
  requirePositive(link.body.mass, "body.mass", "");
  if (!link.body.com.allFinite()) throw Error("flexible link: body.com is not finite");
  if (!link.body.inertia.allFinite()) throw Error("flexible link: body.inertia is not finite");
  const size_t nm = link.modes.size();
  for (size_t j = 0; j < nm; ++j) {
    const AssumedMode& md = link.modes[j];
    const std::string name = modeName(j, md.direction);
    if (md.coefficients.empty()) throw Error("flexible link: " + name + ": the shape has no coefficients");
    bool nonzero = false;
    for (double c : md.coefficients) {
      if (!std::isfinite(c)) throw Error("flexible link: " + name + ": a shape coefficient is not finite");
      nonzero = nonzero || c != 0;
    }
    if (!nonzero) throw Error("flexible link: " + name + ": the shape is identically zero");
    if (md.coefficients[0] != 0)
      throw Error("flexible link: " + name + ": not admissible, the shape must vanish at the clamped root (f(0) = " +
                  std::to_string(md.coefficients[0]) + ")");
    if (md.direction == ModeDirection::Torsion) {
      requirePositive(link.gj, "gj", " (needed by " + name + ")");
      requirePositive(link.torsional_inertia, "torsional_inertia", " (needed by " + name + ")");
    } else {
      if (md.coefficients.size() > 1 && md.coefficients[1] != 0)
        throw Error("flexible link: " + name + ": not admissible, a bending shape must have zero slope at the clamped root (f'(0) = " +
                    std::to_string(md.coefficients[1]) + "/L)");
      if (md.direction == ModeDirection::Y) requirePositive(link.ei_y, "ei_y", " (needed by " + name + ")");
      else requirePositive(link.ei_z, "ei_z", " (needed by " + name + ")");
    }
  }

  const double L = link.length, m = link.body.mass, mu = m / L, J = link.torsional_inertia;
  const Vec3& c = link.body.com;
  FlexibleLinkMatrices out;
  out.I_mm = m * Mat3::Identity();
  out.I_mL = m * skew(c).transpose();
  out.I_LL = link.body.inertia + m * (c.dot(c) * Mat3::Identity() - c * c.transpose());
  const Eigen::Index n = static_cast<Eigen::Index>(nm);
  out.I_mq = MatX::Zero(3, n);
  out.I_Lq = MatX::Zero(3, n);
  out.I_qq = MatX::Zero(n, n);
  out.K = MatX::Zero(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const AssumedMode& a = link.modes[j];
    switch (a.direction) {
      case ModeDirection::Y:  // δ = (0, f, 0): x × δ = (0, 0, x f)
        out.I_mq(1, j) = mu * L * integral1(a.coefficients);
        out.I_Lq(2, j) = mu * L * L * integral1(a.coefficients, 1);
        break;
      case ModeDirection::Z:  // δ = (0, 0, f): x × δ = (0, −x f, 0)
        out.I_mq(2, j) = mu * L * integral1(a.coefficients);
        out.I_Lq(1, j) = -mu * L * L * integral1(a.coefficients, 1);
        break;
      case ModeDirection::Torsion:  // ψ = (f, 0, 0), inertia density J/L
        out.I_Lq(0, j) = J * integral1(a.coefficients);
        break;
    }
    for (Eigen::Index k = 0; k <= j; ++k) {
      const AssumedMode& b = link.modes[k];
      if (a.direction != b.direction) continue;  // different directions: orthogonal in mass and stiffness
      double mjk = 0, kjk = 0;
      if (a.direction == ModeDirection::Torsion) {
        mjk = J * integral(a.coefficients, b.coefficients);
        kjk = link.gj / L * integral(derivative(a.coefficients), derivative(b.coefficients));
      } else {
        const double ei = a.direction == ModeDirection::Y ? link.ei_y : link.ei_z;
        mjk = mu * L * integral(a.coefficients, b.coefficients);
        kjk = ei / (L * L * L) * integral(derivative(derivative(a.coefficients)), derivative(derivative(b.coefficients)));
      }
      out.I_qq(j, k) = out.I_qq(k, j) = mjk;
      out.K(j, k) = out.K(k, j) = kjk;
    }
  }
  if (n > 0) {
    // Linear independence: the diagonally scaled generalised mass must be well conditioned.
    const VecX d = out.I_qq.diagonal().cwiseSqrt().cwiseInverse();
    const MatX S = d.asDiagonal() * out.I_qq * d.asDiagonal();
    Eigen::SelfAdjointEigenSolver<MatX> es(S, Eigen::EigenvaluesOnly);
    if (es.eigenvalues().minCoeff() < 1e-10)
      throw Error("flexible link: the mode shapes are linearly dependent (the generalised mass I_qq is singular); "
                  "drop or change a shape");
  }
  return out;
}

double orthogonalCubicRatio(double r1) {
  if (!std::isfinite(r1)) throw Error("orthogonalCubicRatio: r1 is not finite");
  const double den = 35 + 30 * r1;
  if (std::abs(den) < 1e-12)
    throw Error("orthogonalCubicRatio: r1 = -7/6 has no mass-orthogonal cubic partner (35 + 30*r1 = 0)");
  return -(42 + 35 * r1) / den;
}

std::vector<AssumedMode> clampedCubicModes(double c1, double c2, double r1) {
  if (!std::isfinite(c1) || !std::isfinite(c2) || c1 == 0 || c2 == 0)
    throw Error("clampedCubicModes: the scale factors c1 and c2 must be finite and non-zero");
  const double r2 = orthogonalCubicRatio(r1);
  const Poly p1{0, 0, c1, c1 * r1}, p2{0, 0, c2, c2 * r2};
  return {{ModeDirection::Y, p1}, {ModeDirection::Y, p2}, {ModeDirection::Z, p1}, {ModeDirection::Z, p2},
          {ModeDirection::Torsion, Poly{0, 1}}};
}

NaturalModes clampedLinkModes(const FlexibleLinkMatrices& link) {
  return naturalModes(link.K, link.I_qq, "clampedLinkModes");
}

}  // namespace achain
