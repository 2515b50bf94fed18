#include <achain/model/flexible_link.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace achain {

namespace {

using Poly = std::vector<double>;

/// A piecewise polynomial in u on [0, 1]: piece i (global monomial coefficients) on [breaks[i], breaks[i+1]].
struct Piecewise {
  std::vector<double> breaks{0.0, 1.0};
  std::vector<Poly> pieces;
};

Poly derivative(const Poly& p) {
  Poly d(p.size() > 1 ? p.size() - 1 : 0);
  for (size_t k = 1; k < p.size(); ++k) d[k - 1] = static_cast<double>(k) * p[k];
  return d;
}

Piecewise derivative(const Piecewise& f) {
  Piecewise d;
  d.breaks = f.breaks;
  for (const Poly& p : f.pieces) d.pieces.push_back(derivative(p));
  return d;
}

/// ∫ u^w·f(u)·g(u) du over [0, 1], exact: on every interval of the merged breakpoints both are polynomials.
double integral(const Piecewise& f, const Piecewise& g, int w = 0) {
  std::vector<double> br = f.breaks;
  br.insert(br.end(), g.breaks.begin(), g.breaks.end());
  std::sort(br.begin(), br.end());
  br.erase(std::unique(br.begin(), br.end()), br.end());
  double s = 0;
  size_t fi = 0, gi = 0;
  for (size_t k = 0; k + 1 < br.size(); ++k) {
    const double a = br[k], b = br[k + 1];
    while (f.breaks[fi + 1] <= a) ++fi;
    while (g.breaks[gi + 1] <= a) ++gi;
    const Poly &p = f.pieces[fi], &q = g.pieces[gi];
    for (size_t i = 0; i < p.size(); ++i)
      for (size_t j = 0; j < q.size(); ++j) {
        const int e = static_cast<int>(i + j) + 1 + w;
        s += p[i] * q[j] * (std::pow(b, e) - std::pow(a, e)) / e;
      }
  }
  return s;
}

double integral1(const Piecewise& f, int w = 0) {
  Piecewise one;
  one.pieces = {Poly{1.0}};
  return integral(f, one, w);
}

/// The not-a-knot cubic spline through (u_k, y_k); clamped (slope 0 at u = 0) when `clamp`. Pieces in global
/// monomials of u.
Piecewise spline(const std::vector<double>& u, const std::vector<double>& y, bool clamp) {
  const int N = static_cast<int>(u.size()) - 1;  // intervals (≥ 3)
  std::vector<double> h(N), D(N);
  for (int i = 0; i < N; ++i) {
    h[i] = u[i + 1] - u[i];
    D[i] = y[i + 1] - y[i];
  }
  MatX A = MatX::Zero(N + 1, N + 1);
  VecX r = VecX::Zero(N + 1);
  if (clamp) {
    A(0, 0) = 1;
  } else {  // equal third derivative on intervals 0 and 1
    A(0, 0) = 1 / (h[0] * h[0]);
    A(0, 1) = 1 / (h[0] * h[0]) - 1 / (h[1] * h[1]);
    A(0, 2) = -1 / (h[1] * h[1]);
    r[0] = 2 * D[0] / (h[0] * h[0] * h[0]) - 2 * D[1] / (h[1] * h[1] * h[1]);
  }
  for (int i = 1; i < N; ++i) {  // continuous second derivative at node i
    A(i, i - 1) = 2 / h[i - 1];
    A(i, i) = 4 / h[i - 1] + 4 / h[i];
    A(i, i + 1) = 2 / h[i];
    r[i] = 6 * D[i - 1] / (h[i - 1] * h[i - 1]) + 6 * D[i] / (h[i] * h[i]);
  }
  const int a = N - 2, b = N - 1;  // equal third derivative on the last two intervals
  A(N, a) = 1 / (h[a] * h[a]);
  A(N, b) = 1 / (h[a] * h[a]) - 1 / (h[b] * h[b]);
  A(N, N) = -1 / (h[b] * h[b]);
  r[N] = 2 * D[a] / (h[a] * h[a] * h[a]) - 2 * D[b] / (h[b] * h[b] * h[b]);
  const VecX m = A.fullPivLu().solve(r);
  Piecewise f;
  f.breaks = u;
  for (int i = 0; i < N; ++i) {
    // local s = u − u_i: y_i + m_i s + c2 s² + c3 s³, expanded in u.
    const double c[4] = {y[i], m[i], (3 * D[i] / h[i] - 2 * m[i] - m[i + 1]) / h[i],
                         (m[i] + m[i + 1] - 2 * D[i] / h[i]) / (h[i] * h[i])};
    Poly p(4, 0.0);
    const double x0 = u[i];
    const double binom[4][4] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k <= j; ++k) p[k] += c[j] * binom[j][k] * std::pow(-x0, j - k);
    f.pieces.push_back(p);
  }
  return f;
}

/// The shape f(u) of a mode: its polynomial, or its table's spline (clamped root slope for a bending mode).
Piecewise shapeOf(const AssumedMode& md) {
  if (!md.u_samples.empty()) return spline(md.u_samples, md.values, md.direction != ModeDirection::Torsion);
  Piecewise f;
  f.pieces = {md.coefficients};
  return f;
}

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

void FlexibleLinkMatrices::checkLocalInertia() const {
  const MatX A = localInertia();
  const VecX d = A.diagonal().cwiseMax(1e-300).cwiseSqrt().cwiseInverse();
  Eigen::SelfAdjointEigenSolver<MatX> es(d.asDiagonal() * A * d.asDiagonal(), Eigen::EigenvaluesOnly);
  if (!(es.eigenvalues().minCoeff() > 1e-12))
    throw Error("the local inertia matrix is not positive definite: the link's rigid inertia about its origin (I_LL) is "
                "smaller than its uniform beam's (about a transverse axis through the root at least m*L^2/3); check "
                "the link's mass, com and inertia (and its reference point)");
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
    const bool table = !md.u_samples.empty() || !md.values.empty();
    if (table) {
      if (!md.coefficients.empty()) throw Error("flexible link: " + name + ": give coefficients or a table (u_samples, values), not both");
      if (md.u_samples.size() != md.values.size())
        throw Error("flexible link: " + name + ": u_samples and values differ in length (" + std::to_string(md.u_samples.size()) +
                    " vs " + std::to_string(md.values.size()) + ")");
      if (md.u_samples.size() < 4) throw Error("flexible link: " + name + ": a table needs at least 4 stations");
      for (size_t k = 0; k < md.u_samples.size(); ++k) {
        if (!std::isfinite(md.u_samples[k]) || !std::isfinite(md.values[k]))
          throw Error("flexible link: " + name + ": table entry " + std::to_string(k) + " is not finite");
        if (k > 0 && !(md.u_samples[k] > md.u_samples[k - 1]))
          throw Error("flexible link: " + name + ": u_samples must increase strictly (entry " + std::to_string(k) + ")");
      }
      if (md.u_samples.front() != 0 || md.u_samples.back() != 1)
        throw Error("flexible link: " + name + ": u_samples must run from 0 (root) to 1 (tip)");
    } else if (md.coefficients.empty()) {
      throw Error("flexible link: " + name + ": the shape has no coefficients");
    }
    const std::vector<double>& vals = table ? md.values : md.coefficients;
    bool nonzero = false;
    for (double c : vals) {
      if (!std::isfinite(c)) throw Error("flexible link: " + name + ": a shape coefficient is not finite");
      nonzero = nonzero || c != 0;
    }
    if (!nonzero) throw Error("flexible link: " + name + ": the shape is identically zero");
    if (vals[0] != 0)
      throw Error("flexible link: " + name + ": not admissible, the shape must vanish at the clamped root (f(0) = " +
                  std::to_string(vals[0]) + ")");
    if (md.direction == ModeDirection::Torsion) {
      requirePositive(link.gj, "gj", " (needed by " + name + ")");
      requirePositive(link.torsional_inertia, "torsional_inertia", " (needed by " + name + ")");
    } else {
      if (!table && md.coefficients.size() > 1 && md.coefficients[1] != 0)
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
  std::vector<Piecewise> f(nm), f1(nm), f2(nm);  // shapes and their first and second derivatives
  for (size_t j = 0; j < nm; ++j) {
    const AssumedMode& md = link.modes[j];
    f[j] = shapeOf(md);
    f1[j] = derivative(f[j]);
    f2[j] = derivative(f1[j]);
  }
  for (Eigen::Index j = 0; j < n; ++j) {
    const AssumedMode& a = link.modes[j];
    switch (a.direction) {
      case ModeDirection::Y:  // δ = (0, f, 0): x × δ = (0, 0, x f)
        out.I_mq(1, j) = mu * L * integral1(f[j]);
        out.I_Lq(2, j) = mu * L * L * integral1(f[j], 1);
        break;
      case ModeDirection::Z:  // δ = (0, 0, f): x × δ = (0, −x f, 0)
        out.I_mq(2, j) = mu * L * integral1(f[j]);
        out.I_Lq(1, j) = -mu * L * L * integral1(f[j], 1);
        break;
      case ModeDirection::Torsion:  // ψ = (f, 0, 0), inertia density J/L
        out.I_Lq(0, j) = J * integral1(f[j]);
        break;
    }
    for (Eigen::Index k = 0; k <= j; ++k) {
      const AssumedMode& b = link.modes[k];
      if (a.direction != b.direction) continue;  // different directions: orthogonal in mass and stiffness
      double mjk = 0, kjk = 0;
      if (a.direction == ModeDirection::Torsion) {
        mjk = J * integral(f[j], f[k]);
        kjk = link.gj / L * integral(f1[j], f1[k]);
      } else {
        const double ei = a.direction == ModeDirection::Y ? link.ei_y : link.ei_z;
        mjk = mu * L * integral(f[j], f[k]);
        kjk = ei / (L * L * L) * integral(f2[j], f2[k]);
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
  return {{ModeDirection::Y, p1, {}, {}}, {ModeDirection::Y, p2, {}, {}}, {ModeDirection::Z, p1, {}, {}}, {ModeDirection::Z, p2, {}, {}},
          {ModeDirection::Torsion, Poly{0, 1}, {}, {}}};
}

std::vector<AssumedMode> monomialModes(int n, bool torsion) {
  if (n < 1 || n > 8) throw Error("monomialModes: n must be a whole number from 1 to 8 (got " + std::to_string(n) + ")");
  std::vector<AssumedMode> modes;
  for (ModeDirection d : {ModeDirection::Y, ModeDirection::Z})
    for (int k = 0; k < n; ++k) {
      AssumedMode md;
      md.direction = d;
      md.coefficients.assign(k + 3, 0.0);
      md.coefficients[k + 2] = 1.0;
      modes.push_back(md);
    }
  if (torsion) modes.push_back({ModeDirection::Torsion, {0, 1}, {}, {}});
  return modes;
}

std::vector<double> modeShapeValues(const AssumedMode& mode, const std::vector<double>& u) {
  const Piecewise f = shapeOf(mode);
  std::vector<double> y;
  y.reserve(u.size());
  for (double x : u) {
    if (!(x >= 0 && x <= 1)) throw Error("modeShapeValues: u must lie in [0, 1] (got " + std::to_string(x) + ")");
    size_t i = 0;
    while (i + 2 < f.breaks.size() && x > f.breaks[i + 1]) ++i;
    double v = 0;
    const Poly& p = f.pieces[i];
    for (size_t k = p.size(); k-- > 0;) v = v * x + p[k];
    y.push_back(v);
  }
  return y;
}

NaturalModes clampedLinkModes(const FlexibleLinkMatrices& link) {
  return naturalModes(link.K, link.I_qq, "clampedLinkModes");
}

const FlexibleLinkEntry* FlexibleLinks::find(int joint) const {
  for (const FlexibleLinkEntry& e : links)
    if (e.joint == joint) return &e;
  return nullptr;
}

}  // namespace achain
