#include <achain/ik/algebraic_4a.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <complex>
#include <algorithm>
#include <cmath>
#include <random>

#include <achain/kinematics/fk.hpp>
#include <achain/math/homotopy.hpp>
#include <achain/ik/closed_common.hpp>
#include <achain/ik/solution_set.hpp>

namespace achain {

Study studyFromPose(const SE3& T) {
  const Mat3& a = T.R;
  Eigen::Matrix4d rows;
  rows.row(0) << 1 + a(0, 0) + a(1, 1) + a(2, 2), a(2, 1) - a(1, 2), a(0, 2) - a(2, 0), a(1, 0) - a(0, 1);
  rows.row(1) << a(2, 1) - a(1, 2), 1 + a(0, 0) - a(1, 1) - a(2, 2), a(0, 1) + a(1, 0), a(2, 0) + a(0, 2);
  rows.row(2) << a(0, 2) - a(2, 0), a(0, 1) + a(1, 0), 1 - a(0, 0) + a(1, 1) - a(2, 2), a(1, 2) + a(2, 1);
  rows.row(3) << a(1, 0) - a(0, 1), a(2, 0) + a(0, 2), a(1, 2) + a(2, 1), 1 - a(0, 0) - a(1, 1) + a(2, 2);
  int best = 0;
  for (int i = 1; i < 4; ++i)
    if (rows.row(i).norm() > rows.row(best).norm()) best = i;
  const Eigen::Vector4d x = rows.row(best).transpose();
  const Vec3& d = T.p;
  Study s;
  s.head<4>() = x;
  s[4] = 0.5 * (d[0] * x[1] + d[1] * x[2] + d[2] * x[3]);
  s[5] = 0.5 * (-d[0] * x[0] + d[2] * x[2] - d[1] * x[3]);
  s[6] = 0.5 * (-d[1] * x[0] - d[2] * x[1] + d[0] * x[3]);
  s[7] = 0.5 * (-d[2] * x[0] + d[1] * x[1] - d[0] * x[2]);
  return s;
}

SE3 poseFromStudy(const Study& s) {
  const double x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], y0 = s[4], y1 = s[5], y2 = s[6], y3 = s[7];
  const double D = x0 * x0 + x1 * x1 + x2 * x2 + x3 * x3;
  if (!(D > 0)) throw Error("study: x0..x3 must not all vanish");
  SE3 T;
  T.R << x0 * x0 + x1 * x1 - x2 * x2 - x3 * x3, 2 * (x1 * x2 - x0 * x3), 2 * (x1 * x3 + x0 * x2),
      2 * (x1 * x2 + x0 * x3), x0 * x0 - x1 * x1 + x2 * x2 - x3 * x3, 2 * (x2 * x3 - x0 * x1),
      2 * (x1 * x3 - x0 * x2), 2 * (x2 * x3 + x0 * x1), x0 * x0 - x1 * x1 - x2 * x2 + x3 * x3;
  T.R /= D;
  T.p << 2 * (-x0 * y1 + x1 * y0 - x2 * y3 + x3 * y2), 2 * (-x0 * y2 + x1 * y3 + x2 * y0 - x3 * y1),
      2 * (-x0 * y3 - x1 * y2 + x2 * y1 + x3 * y0);
  T.p /= D;
  return T;
}

Eigen::Matrix<double, 8, 8> studyBaseMatrix(const Study& t) {
  Eigen::Matrix<double, 8, 8> M;
  M << t[0], -t[1], -t[2], -t[3], 0, 0, 0, 0,  //
      t[1], t[0], -t[3], t[2], 0, 0, 0, 0,     //
      t[2], t[3], t[0], -t[1], 0, 0, 0, 0,     //
      t[3], -t[2], t[1], t[0], 0, 0, 0, 0,     //
      t[4], -t[5], -t[6], -t[7], t[0], -t[1], -t[2], -t[3],  //
      t[5], t[4], -t[7], t[6], t[1], t[0], -t[3], t[2],      //
      t[6], t[7], t[4], -t[5], t[2], t[3], t[0], -t[1],      //
      t[7], -t[6], t[5], t[4], t[3], -t[2], t[1], t[0];
  return M;
}

Eigen::Matrix<double, 8, 8> studyMovingMatrix(const Study& t) {
  Eigen::Matrix<double, 8, 8> M;
  M << t[0], -t[1], -t[2], -t[3], 0, 0, 0, 0,  //
      t[1], t[0], t[3], -t[2], 0, 0, 0, 0,     //
      t[2], -t[3], t[0], t[1], 0, 0, 0, 0,     //
      t[3], t[2], -t[1], t[0], 0, 0, 0, 0,     //
      t[4], -t[5], -t[6], -t[7], t[0], -t[1], -t[2], -t[3],  //
      t[5], t[4], t[7], -t[6], t[1], t[0], t[3], -t[2],      //
      t[6], -t[7], t[4], t[5], t[2], -t[3], t[0], t[1],      //
      t[7], t[6], -t[5], t[4], t[3], t[2], -t[1], t[0];
  return M;
}


// ---------------------------------------------------------------------------------------------
// Study polynomials

namespace {
/// The monomials of degree 1, 2 and 3 in the eight Study parameters, in a fixed order. Built once, on
/// first use, by a thread-safe static initialisation, and never changed afterwards.
struct MonomialLists {
  std::vector<std::vector<int>> m1, m2, m3;
  MonomialLists() {
    for (int i = 0; i < 8; ++i) m1.push_back({i});
    for (int i = 0; i < 8; ++i)
      for (int j = i; j < 8; ++j) m2.push_back({i, j});
    for (int i = 0; i < 8; ++i)
      for (int j = i; j < 8; ++j)
        for (int k = j; k < 8; ++k) m3.push_back({i, j, k});
  }
};
const std::vector<std::vector<int>>& monomialList(int degree) {
  static const MonomialLists lists;
  return degree == 1 ? lists.m1 : degree == 2 ? lists.m2 : lists.m3;
}
}  // namespace

VecX studyMonomials(const Study& x, int degree) {
  const auto& L = monomialList(degree);
  VecX v(L.size());
  for (size_t r = 0; r < L.size(); ++r) {
    double p = 1;
    for (int i : L[r]) p *= x[i];
    v[r] = p;
  }
  return v;
}

int studyMonomialIndex(std::vector<int> vars) {
  std::sort(vars.begin(), vars.end());
  const auto& L = monomialList(static_cast<int>(vars.size()));
  for (size_t r = 0; r < L.size(); ++r)
    if (L[r] == vars) return static_cast<int>(r);
  throw Error("studyMonomialIndex: bad monomial");
}

double StudyPolynomial::operator()(const Study& x) const { return c.dot(studyMonomials(x, degree)); }

double ConstraintVariety::residual(const Study& x0) const {
  const Study x = transfer * x0.normalized();
  double r = 0;
  for (const auto& q : linear) r = std::max(r, std::abs(q(x)));
  for (const auto& q : quadrics) r = std::max(r, std::abs(q(x)));
  r = std::max(r, std::abs(cubic(x)));
  return r;
}

ConstraintVariety ConstraintVariety::transferred(const Study& t) const {
  ConstraintVariety v = *this;
  v.transfer = studyBaseMatrix(t) * transfer;
  return v;
}

namespace {
/// Orthonormal basis of the nullspace of A (rows = samples), relative threshold.
MatX nullspace(const MatX& A, double rel = 1e-9) {
  Eigen::BDCSVD<MatX> svd(A, Eigen::ComputeFullV);
  const VecX& s = svd.singularValues();
  const double smax = s.size() ? s[0] : 0.0;
  int rank = 0;
  for (int i = 0; i < s.size(); ++i)
    if (s[i] > rel * smax) ++rank;
  return svd.matrixV().rightCols(A.cols() - rank);
}
}  // namespace

ConstraintVariety implicitizeTwoJoint(const std::function<SE3(double, double)>& fk, double pa, double pb) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> U(0, 1);
  auto sample = [&] { return studyFromPose(fk(U(rng) * pa, U(rng) * pb)).normalized().eval(); };
  ConstraintVariety v;
  // linear forms (none for a general 2A-chain; 2R chains with intersecting axes have some)
  MatX A1(40, 8);
  for (int r = 0; r < A1.rows(); ++r) A1.row(r) = sample().transpose();
  const MatX N1 = nullspace(A1);
  for (int k = 0; k < N1.cols(); ++k) v.linear.push_back({1, N1.col(k)});
  // quadrics: nullspace of the 36 monomials over 120 sampled points
  MatX A2(120, 36);
  for (int r = 0; r < A2.rows(); ++r) A2.row(r) = studyMonomials(sample(), 2).transpose();
  const MatX N2 = nullspace(A2);
  for (int k = 0; k < N2.cols(); ++k) v.quadrics.push_back({2, N2.col(k)});
  // cubics: nullspace of the 120 monomials over 360 points, minus the span of x_i·Q_j
  MatX A3(360, 120);
  for (int r = 0; r < A3.rows(); ++r) A3.row(r) = studyMonomials(sample(), 3).transpose();
  const MatX N3 = nullspace(A3);
  MatX prod(120, 8 * N2.cols());
  prod.setZero();
  const auto& L2 = monomialList(2);
  for (int j = 0; j < N2.cols(); ++j)
    for (int i = 0; i < 8; ++i)
      for (size_t m = 0; m < L2.size(); ++m) {
        std::vector<int> vars = {L2[m][0], L2[m][1], i};
        prod(studyMonomialIndex(vars), 8 * j + i) += N2(m, j);
      }
  // orthonormal basis of the product span, then the cubic direction farthest from it
  Eigen::BDCSVD<MatX> ps(prod, Eigen::ComputeThinU);
  int pr = 0;
  for (int i = 0; i < ps.singularValues().size(); ++i)
    if (ps.singularValues()[i] > 1e-9 * ps.singularValues()[0]) ++pr;
  const MatX Q = ps.matrixU().leftCols(pr);
  const MatX R = N3 - Q * (Q.transpose() * N3);
  Eigen::BDCSVD<MatX> rs(R, Eigen::ComputeThinU);
  v.cubic = {3, rs.matrixU().col(0)};
  if (!(rs.singularValues().size() > 0 && rs.singularValues()[0] > 1e-6)) v.cubic.c = N3.col(0);
  return v;
}

std::vector<Eigen::Vector2d> ikTwoJoint(const Model& S, int first, const SE3& T, double tol) {
  using namespace ik_detail;
  const Joint &ja = S.joints[first], &jb = S.joints[first + 1];
  const JointModel &ma = S.jmodels[first], &mb = S.jmodels[first + 1];
  std::vector<Eigen::Vector2d> out;
  const Mat3 N = T.R * Rx(jb.alpha).transpose();  // = Rz(θa) Rx(αa) Rz(θb)
  const double sa = std::sin(ja.alpha), ca = std::cos(ja.alpha);
  if (std::abs(N(2, 2) - ca) > std::max(1e-6, tol) || std::abs(sa) < 1e-9) return out;
  const double tha = std::atan2(N(1, 2), N(0, 2)) - std::atan2(0.0, sa);  // N ẑ = Rz(θa)(sa·(0,−1,0)... )
  // Rx(αa)ẑ = (0, −sa, ca): its azimuth is atan2(−sa, 0)
  const double thA = std::atan2(N(1, 2), N(0, 2)) - std::atan2(-sa, 0.0);
  (void)tha;
  const double thB = std::atan2(sa, 0.0) - std::atan2(N(2, 1), N(2, 0));  // row: (0, sa, ca)·Rz(θb)
  double ba[2], bb[2];
  const int na = rotationBranches(ma.period, qFromTheta(ja, thA), ba),
            nb = rotationBranches(mb.period, qFromTheta(jb, thB), bb);
  JointState sa_, sb_;
  for (int i = 0; i < na; ++i)
    for (int k = 0; k < nb; ++k) {
      ma.evaluate(ba[i], sa_);
      mb.evaluate(bb[k], sb_);
      const SE3 P = dhLink(sa_.theta, sa_.dz, ja.a, ja.alpha) * dhLink(sb_.theta, sb_.dz, jb.a, jb.alpha);
      double pe, oe;
      poseError(P, T, pe, oe);
      if (pe <= tol * (1 + T.p.norm()) && oe <= tol) {
        double qa = ba[i], qb = bb[k];
        // a joint whose period exceeds one turn (an A-pair: 720°) is reported in [0, period)
        const double Pa = ma.period, Pb = mb.period;
        if (Pa > 2 * kPi) qa = std::fmod(std::fmod(qa, Pa) + Pa, Pa);
        if (Pb > 2 * kPi) qb = std::fmod(std::fmod(qb, Pb) + Pb, Pb);
        out.emplace_back(qa, qb);
      }
    }
  return out;
}

namespace {
/// Fallback intersection (chains whose varieties lack the structure the eliminant needs, e.g. 2R
/// sub-chains with meeting axes, which have linear forms): the right chain's implicit equations on the
/// left chain's parametrisation, minimised over a 64×64 grid of the (θ1, θ2) torus and refined by
/// Levenberg–Marquardt. Not a certified all-roots method; also used in tests as an independent check.
std::vector<Eigen::Vector2d> intersectByGrid(const AlgebraicReport& rep, const std::function<SE3(double, double)>& leftPose,
                                             double P1, double P2) {
  // Intersection over the left parametrisation: F(q1, q2) = right polynomials at Study(L(q1, q2)).
  const int nl = static_cast<int>(rep.right.linear.size()), nquad = static_cast<int>(rep.right.quadrics.size());
  const int nf = nl + nquad + 1;
  auto F = [&](double q1, double q2) {
    const Study x = studyFromPose(leftPose(q1, q2)).normalized();
    const Study xr = rep.right.transfer * x;
    VecX f(nf);
    for (int k = 0; k < nl; ++k) f[k] = rep.right.linear[k](xr);
    for (int k = 0; k < nquad; ++k) f[nl + k] = rep.right.quadrics[k](xr);
    f[nf - 1] = rep.right.cubic(xr);
    return f;
  };
  const int N1 = 64, N2 = 64;
  MatX g(N1, N2);
  for (int i = 0; i < N1; ++i)
    for (int j = 0; j < N2; ++j) g(i, j) = F(P1 * i / N1, P2 * j / N2).squaredNorm();
  std::vector<Eigen::Vector2d> roots;
  // starts: every local minimum of the grid, plus the 24 lowest grid values
  std::vector<std::pair<double, int>> order;
  std::vector<char> start(N1 * N2, 0);
  for (int i = 0; i < N1; ++i)
    for (int j = 0; j < N2; ++j) {
      order.push_back({g(i, j), i * N2 + j});
      bool minimum = true;
      for (int di = -1; di <= 1 && minimum; ++di)
        for (int dj = -1; dj <= 1; ++dj)
          if ((di || dj) && g((i + di + N1) % N1, (j + dj + N2) % N2) < g(i, j)) { minimum = false; break; }
      if (minimum) start[i * N2 + j] = 1;
    }
  std::partial_sort(order.begin(), order.begin() + 24, order.end());
  for (int k = 0; k < 24; ++k) start[order[k].second] = 1;
  for (int i = 0; i < N1; ++i)
    for (int j = 0; j < N2; ++j) {
      if (!start[i * N2 + j]) continue;
      // Levenberg–Marquardt on (q1, q2), finite-difference Jacobian
      Eigen::Vector2d q(P1 * i / N1, P2 * j / N2);
      double lambda = 1e-6;
      auto f = F(q[0], q[1]);
      for (int it = 0; it < 60 && f.norm() > 1e-15; ++it) {
        MatX Jf(nf, 2);
        const double h = 1e-7;
        Jf.col(0) = (F(q[0] + h, q[1]) - F(q[0] - h, q[1])) / (2 * h);
        Jf.col(1) = (F(q[0], q[1] + h) - F(q[0], q[1] - h)) / (2 * h);
        const Eigen::Matrix2d A = Jf.transpose() * Jf + lambda * Eigen::Matrix2d::Identity();
        const Eigen::Vector2d dq = -A.ldlt().solve(Jf.transpose() * f);
        const auto fn = F(q[0] + dq[0], q[1] + dq[1]);
        if (fn.norm() < f.norm()) {
          q += dq;
          f = fn;
          lambda = std::max(lambda * 0.3, 1e-12);
        } else {
          lambda *= 10;
          if (lambda > 1e6) break;
        }
      }
      if (f.norm() > 1e-9) continue;
      q[0] = std::fmod(std::fmod(q[0], P1) + P1, P1);
      q[1] = std::fmod(std::fmod(q[1], P2) + P2, P2);
      bool dup = false;
      for (const auto& r : roots)
        dup = dup || (std::abs(std::remainder(r[0] - q[0], P1)) < 1e-6 && std::abs(std::remainder(r[1] - q[1], P2)) < 1e-6);
      if (!dup) roots.push_back(q);
    }

  return roots;
}

// ---------------------------------------------------------------------------------------------
// Intersection of the two implicit varieties by total-degree homotopy continuation.
//
// The 9 distinct equations (4 + 4 quadrics with S²₆ shared, 2 cubics) in P⁷. As in the thesis, 7 of
// them are solved and the other two checked: the 7 independent quadrics (the span of both quadric
// spaces, S²₆ once). Bézout: 2⁷ = 128 paths, tracked by the total-degree homotopy of
// math/homotopy.hpp (random γ, random orthogonal chart: points with x₀ = 0 are found too). Every
// finite endpoint is a candidate; the real ones are polished by Gauss–Newton on the quadrics, checked
// on the cubics, and kept when all vanish.

using Mat8 = Eigen::Matrix<double, 8, 8>;
Mat8 quadricMatrix(const StudyPolynomial& p) {
  Mat8 M = Mat8::Zero();
  const auto& L = monomialList(2);
  for (size_t r = 0; r < L.size(); ++r) {
    const int i = L[r][0], j = L[r][1];
    if (i == j) M(i, i) += p.c[r];
    else {
      M(i, j) += 0.5 * p.c[r];
      M(j, i) += 0.5 * p.c[r];
    }
  }
  return M;
}


double lengthScale(const Model& S) {
  double L = S.base.p.norm() + S.tool.p.norm();
  for (const auto& j : S.joints) L += std::abs(j.a) + std::abs(j.d) + std::abs(j.rho);
  return L > 0 ? L : 1.0;
}

bool intersectByHomotopy(AlgebraicReport& rep, double length_scale, std::vector<Study>& points) {
  using C = std::complex<double>;
  using CVec8 = Eigen::Matrix<C, 8, 1>;
  if (rep.left.quadrics.size() + rep.right.quadrics.size() < 7) return false;
  // quadrics in Σ0 coordinates (right: Q' = Tᵀ Q T); linear forms enter as products with a random form
  std::vector<Mat8> W;
  const Mat8 T = rep.right.transfer;
  for (const auto& q : rep.left.quadrics) W.push_back(quadricMatrix(q));
  for (const auto& q : rep.right.quadrics) {
    Mat8 M = T.transpose() * quadricMatrix(q) * T;
    W.push_back(M / M.norm());
  }
  std::mt19937_64 rng(20120606);
  std::normal_distribution<double> Nd(0, 1);
  Eigen::Matrix<double, 8, 1> r8;
  for (int i = 0; i < 8; ++i) r8[i] = Nd(rng);
  for (const auto& l : rep.left.linear) {
    Mat8 M = 0.5 * (l.c * r8.transpose() + r8 * l.c.transpose());
    W.push_back(M / M.norm());
  }
  for (const auto& l : rep.right.linear) {
    const Eigen::Matrix<double, 8, 1> c = T.transpose() * l.c;
    Mat8 M = 0.5 * (c * r8.transpose() + r8 * c.transpose());
    W.push_back(M / M.norm());
  }
  // work in scaled lengths (y ↦ k·y) so that y is O(10) whatever the unit: the paths' conditioning
  // and the x = 0 test do not depend on metres vs inches
  const double kscale = 10.0 / length_scale;
  Mat8 Dk = Mat8::Identity();
  Dk.bottomRightCorner<4, 4>() /= kscale;
  for (auto& M : W) {
    M = Dk * M * Dk;
    M /= M.norm();
  }
  const int nw = static_cast<int>(W.size());
  MatX K(36, nw);
  for (int k = 0; k < nw; ++k) {
    int r = 0;
    for (int i = 0; i < 8; ++i)
      for (int j = i; j < 8; ++j) K(r++, k) = W[k](i, j) * (i == j ? 1.0 : 2.0);
  }
  Eigen::JacobiSVD<MatX> svd(K, Eigen::ComputeFullV);
  const VecX sv = svd.singularValues();
  if (sv.size() < 7 || sv[6] < 1e-8 * sv[0]) return false;
  std::array<Mat8, 7> Qr;
  for (int k = 0; k < 7; ++k) {
    Mat8 M = Mat8::Zero();
    for (int i = 0; i < nw; ++i) M += svd.matrixV()(i, k) * W[i];
    Qr[k] = M / M.norm();
  }
  // The exceptional set x = 0: every quadric reduces to c·|y|² there (a positive-dimensional
  // component, no pose). In the scaled units a real pose has |y| ≤ 5|x| (|y| = |p||x|/2, k|p| ≤ 10),
  // so |x|/|X| < 2e-2 this close to t = 1 (5e-2 at the end) is no pose.
  HomotopyOptions opt;
  opt.exceptional_measure = [](const Eigen::Matrix<C, Eigen::Dynamic, 1>& X) { return X.head(4).norm() / X.norm(); };
  std::vector<CVec8> ends;
  const HomotopyStats st = trackQuadricHomotopy<7>(Qr, rng, ends, opt);
  rep.homotopy_paths = st.paths;
  rep.homotopy_finite = st.finite;
  rep.homotopy_diverged = st.diverged;
  rep.homotopy_failed = st.failed;
  rep.homotopy_exceptional = st.exceptional;
  // Newton on the 7 quadrics (square after fixing the largest x-coordinate)
  auto q7 = [&](const Study& X) {
    Eigen::Matrix<double, 7, 1> f;
    for (int k = 0; k < 7; ++k) f[k] = X.dot(Qr[k] * X) / X.squaredNorm();
    return f;
  };
  auto polish = [&](Study& X) {
    int fix = 0;
    X.head<4>().cwiseAbs().maxCoeff(&fix);
    X /= X[fix];
    for (int it = 0; it < 12; ++it) {
      Eigen::Matrix<double, 7, 1> f;
      Eigen::Matrix<double, 7, 8> Jf;
      for (int k = 0; k < 7; ++k) {
        const Study QX = Qr[k] * X;
        f[k] = X.dot(QX);
        Jf.row(k) = 2 * QX.transpose();
      }
      if (f.norm() < 1e-15 * X.squaredNorm()) break;
      Jf.col(fix).setZero();
      const Eigen::Matrix<double, 8, 1> dx = Jf.completeOrthogonalDecomposition().solve(-f);
      X += dx;
      if (dx.norm() < 1e-15 * X.norm()) break;
    }
  };
  int complex_points = 0;
  for (CVec8 X8 : ends) {
    int imax = 0;
    X8.head<4>().cwiseAbs().maxCoeff(&imax);
    if (std::abs(X8[imax]) == 0.0) continue;
    X8 /= X8[imax];
    if (X8.imag().norm() > 1e-5 * (1 + X8.real().norm())) {
      ++complex_points;
      continue;
    }
    Study X = X8.real();
    polish(X);
    if (!X.allFinite() || q7(X).norm() > 1e-9) continue;
    X.tail<4>() /= kscale;
    Study Xn = X / X.head<4>().norm();
    int big = 0;
    Xn.head<4>().cwiseAbs().maxCoeff(&big);
    if (Xn[big] < 0) Xn = -Xn;
    bool dup = false;
    for (const auto& p : points) {
      Study pn = p / p.head<4>().norm();
      int bb = 0;
      pn.head<4>().cwiseAbs().maxCoeff(&bb);
      if (pn[bb] < 0) pn = -pn;
      dup = dup || (pn - Xn).norm() < 1e-6 * (1 + Xn.norm());
    }
    if (dup) continue;
    // normalise x0 = 1 as the thesis does, or by the largest x-coordinate when x0 ≈ 0
    if (std::abs(X[0]) > 1e-3 * X.head<4>().norm()) X /= X[0];
    else X /= X[big];
    points.push_back(X);
    // the two cubics (thesis: "used as a check") at the real intersection point
    const Study xn = X / X.norm();
    rep.cubic_residual.push_back(std::max(std::abs(rep.left.cubic(xn)), std::abs(rep.right.cubic(rep.right.transfer * xn))));
  }
  rep.homotopy_complex = complex_points;
  rep.intersection_method = "homotopy";
  return true;
}

bool checkAlgebraic(const Model& m, std::string* why) {
  auto fail = [&](const std::string& s) {
    if (why) *why = s;
    return false;
  };
  if (const std::string p = ik_detail::serialChainProblem(m, 4, 2); !p.empty()) return fail(p);
  return true;
}
}  // namespace

IkAllResult ikAlgebraic4A(const Model& model, const SE3& target, const VecX* seed, AlgebraicReport* report) {
  using namespace ik_detail;
  std::string why;
  if (!checkAlgebraic(model, &why)) throw Error("algebraic IK (4A-chain): " + why);
  Model conv;
  const Model& S = standardDH(model, conv);
  const auto& J = S.joints;
  if (std::abs(std::sin(J[0].alpha)) < 1e-9 || std::abs(std::sin(J[2].alpha)) < 1e-9)
    throw Error("algebraic IK (4A-chain): joints[0].alpha and joints[2].alpha must not be 0 or 180 deg (two-joint sub-IK)");
  auto link = [&](int i, double q) {
    JointState s;
    S.jmodels[i].evaluate(q, s);
    return dhLink(s.theta, s.dz, J[i].a, J[i].alpha);
  };
  auto leftPose = [&](double q1, double q2) { return S.base * link(0, q1) * link(1, q2); };
  auto rightPose = [&](double q3, double q4) { return (link(2, q3) * link(3, q4) * S.tool).inverse(); };
  auto period = [&](const Joint& j) { return S.jmodels[&j - J.data()].period; };
  AlgebraicReport local;
  AlgebraicReport& rep = report ? *report : local;
  rep = AlgebraicReport{};
  rep.left = implicitizeTwoJoint(leftPose, period(J[0]), period(J[1]));
  rep.right_local = implicitizeTwoJoint(rightPose, period(J[2]), period(J[3]));
  // Σ0: L = target · R  ⇒  Study(R) ∝ T_b(Study(target⁻¹)) · Study(L)
  rep.target_inverse = studyFromPose(target.inverse());
  rep.right = rep.right_local.transferred(rep.target_inverse);

  std::vector<Study> points;
  if (!intersectByHomotopy(rep, lengthScale(S), points)) {
    rep.intersection_method = "grid";
    for (const auto& r : intersectByGrid(rep, leftPose, period(J[0]), period(J[1]))) {
      points.push_back(studyFromPose(leftPose(r[0], r[1])));
      rep.cubic_residual.push_back(rep.right.residual(points.back()));
    }
  }
  Data data(model);  // FK checks and the least-squares answer
  IkSolutionSet set;
  IkCollector collect(set, model, seed ? seed->data() : nullptr, 1e-9);
  const SE3 base_inv = S.base.inverse(), tool_inv = S.tool.inverse();
  for (const Study& X : points) {
    rep.intersections.push_back(X);
    // recover (u1, u2) from ⁰T_L = pose(X) and (u3, u4) from ᴿT = ⁰T_L⁻¹·target·tool⁻¹ (the two-joint
    // sub-IKs); a point without both is a spurious point of the implicit varieties
    const SE3 L = poseFromStudy(X);
    const auto sub12 = ikTwoJoint(S, 0, base_inv * L);
    const SE3 M34 = L.inverse() * target * tool_inv;
    const auto sub = ikTwoJoint(S, 2, M34);
    rep.genuine.push_back(!sub12.empty() && !sub.empty());
    for (const auto& r : sub12)
    for (const auto& s34 : sub) {
      // u = tan(θ_v/4) for A-pairs (tan(θ/2) for R); θ_v = 4·atan(u) recovers the joint values
      Eigen::Vector4d u;
      const double qs[4] = {r[0], r[1], s34[0], s34[1]};
      VecX q(4);
      for (int i = 0; i < 4; ++i) {
        // half-angle parameter of the joint's period P (A-pair: tan(θ_v/4), R: tan(θ/2))
        const double P = S.jmodels[i].period;
        u[i] = std::tan(qs[i] * kPi / P);
        q[i] = P / kPi * std::atan(u[i]);
        if (P > 2 * kPi && q[i] < 0) q[i] += P;
      }
      rep.u.push_back(u);
      collect.offerChecked(data, target, q);
    }
  }
  collect.finish();
  return toIkAllResult(model, data, target, seed, set, IkMethod::Algebraic,
                       "algebraic (Study parameters): " + std::to_string(rep.intersections.size()) + " real intersection point(s) (" +
                           rep.intersection_method + "), " +
                           std::to_string(std::count(rep.genuine.begin(), rep.genuine.end(), false)) + " spurious");
}

}  // namespace achain
