#include <achain/ik/general6r.hpp>

#include <algorithm>
#include <cmath>
#include <complex>

#include <Eigen/Eigenvalues>

#include <achain/ik/closed_common.hpp>
#include <achain/kinematics/fk.hpp>

namespace achain {

namespace {

using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat12 = Eigen::Matrix<double, 12, 12>;
using Mat24 = Eigen::Matrix<double, 24, 24>;
using Mat14x8 = Eigen::Matrix<double, 14, 8>;
using Mat14x27 = Eigen::Matrix<double, 14, 27>;
using Mat6x27 = Eigen::Matrix<double, 6, 27>;

constexpr int kFormulations = 12;
/// Fixed shifts of the three eliminated half-angle variables (ψ = 2·atan(x) + β), so that a joint value at
/// 0 or π is no special point of the parametrisation; a second shift of ψ₂ when the first leaves M₂ singular.
constexpr double kShift3[2] = {0.4137, 2.2871};
constexpr double kShift4 = 1.0761, kShift5 = -0.6239;
/// Thresholds of the degeneracy checks (relative): rank of the 14×8 matrix, reciprocal condition of M₂.
constexpr double kRankTol = 1e-9, kLeadTol = 1e-11;
/// An eigenvalue is a real candidate when the imaginary part of its angle is below this (rad).
constexpr double kImagTol = 2e-3;

/// The chain as T = H₀ J₀ H₁ J₁ … J₅ H₆ with J_i = Z(θ_i) (rotation about z) for a revolute joint and Tz(θ_i)
/// (translation along z) for a prismatic one; θ_i = θ0_i + k_i·q_i is the joint's rotation or translation.
struct Chain6 {
  std::array<SE3, 7> H;
  std::array<double, 6> theta0{}, k{};
  std::array<bool, 6> prismatic{};
};

/// The motion of joint i of the chain by v (an angle, or a length for a prismatic joint).
inline SE3 jointMotion(const Chain6& c, int i, double v) { return c.prismatic[i] ? translation(Vec3(0, 0, v)) : rotZ(v); }

void buildChain(const Model& m, Chain6& c) {
  for (int i = 0; i < 6; ++i) {
    const JointModel& jm = m.jmodels[i];
    // joint i moves its link by pre·Rz(θ)·Tz(d)·post (the joint model's placement); the constant d joins the constant part
    const SE3 pre = jm.pre.toSE3() * translation(Vec3(0, 0, jm.d0));
    c.prismatic[i] = !jm.angular();
    c.theta0[i] = c.prismatic[i] ? 0.0 : jm.theta0 + jm.rot * jm.offset;
    c.k[i] = c.prismatic[i] ? jm.law.c1 * jm.scale : jm.rot * jm.scale;
    c.H[i] = (i == 0 ? m.base * pre : m.jmodels[i - 1].post.toSE3() * pre) * (c.prismatic[i] ? rotZ(jm.theta0) : SE3::Identity());
  }
  c.H[6] = m.jmodels[5].post.toSE3() * m.tool;
}

/// Pose of the chain at the joint values th (rotations, or translations for prismatic joints) and, if J is
/// given, its world-frame geometric Jacobian.
void chainPose(const Chain6& c, const double* th, SE3& T, Mat6* J) {
  Vec3 z[6], o[6];
  SE3 A = c.H[0];
  for (int i = 0; i < 6; ++i) {
    z[i] = A.R.col(2);
    o[i] = A.p;
    A = A * jointMotion(c, i, th[i]) * c.H[i + 1];
  }
  T = A;
  if (J)
    for (int i = 0; i < 6; ++i) {
      if (c.prismatic[i]) {
        J->col(i).head<3>() = z[i];
        J->col(i).tail<3>().setZero();
      } else {
        J->col(i).head<3>() = z[i].cross(T.p - o[i]);
        J->col(i).tail<3>() = z[i];
      }
    }
}

/// Newton steps on the chain from th (rotations, updated in place; left at the best iterate). Returns
/// its |e| (m and rad together).
double polish(const Chain6& c, const SE3& target, double* th) {
  SE3 T;
  Mat6 J;
  Vec6 e;
  double best = kInf, best_th[6];
  for (int it = 0; it < 16; ++it) {
    chainPose(c, th, T, &J);
    e.head<3>() = target.p - T.p;
    e.tail<3>() = rotationLog(target.R * T.R.transpose());
    const double err = e.norm();
    if (!(err < best)) break;  // no progress (or not finite): back to the best iterate
    best = err;
    std::copy(th, th + 6, best_th);
    if (err < 1e-15) break;
    const Vec6 d = J.colPivHouseholderQr().solve(e);
    if (!d.allFinite()) break;
    for (int i = 0; i < 6; ++i) th[i] += d[i];
  }
  std::copy(best_th, best_th + 6, th);
  return best;
}

/// One closure formulation: I = J(σθ_{j₀}) D₀ J(σθ_{j₁}) D₁ … J(σθ_{j₅}) D₅ (translations scaled; J a rotation
/// about z, or a translation along z for a prismatic joint, `prismatic[k]`, its length scaled too).
struct Loop {
  std::array<int, 6> j{};
  std::array<bool, 6> prismatic{};
  double sigma = 1;
  std::array<SE3, 6> D;
};

/// Formulation f ∈ [0, 12): the loop rotated to start at joint f mod 6, forwards (f < 6) or backwards.
void makeLoop(const Chain6& c, const SE3& target, int f, double scale, Loop& L) {
  // forwards: I = Z₀C₀ Z₁C₁ … Z₅C₅ with C_i = H_{i+1} (i < 5), C₅ = H₆·T⁻¹·H₀
  std::array<SE3, 6> C;
  for (int i = 0; i < 5; ++i) C[i] = c.H[i + 1];
  C[5] = c.H[6] * target.inverse() * c.H[0];
  const int r = f % 6;
  for (int k = 0; k < 6; ++k) {
    const int b = (r + k) % 6;
    if (f < 6) {
      L.j[k] = b;
      L.D[k] = C[b];
    } else {
      // backwards (the inverse loop): I = Z₅⁻¹C₄⁻¹ Z₄⁻¹C₃⁻¹ … Z₀⁻¹C₅⁻¹
      L.j[k] = 5 - b;
      L.D[k] = C[(10 - b) % 6].inverse();
    }
    L.D[k].p *= scale;
    L.prismatic[k] = c.prismatic[L.j[k]];
  }
  L.sigma = f < 6 ? 1.0 : -1.0;
}

/// The motion of loop position k by v (scaled units for a prismatic joint).
inline SE3 loopMotion(const Loop& L, int k, double v) { return L.prismatic[k] ? translation(Vec3(0, 0, v)) : rotZ(v); }

/// The 14 quantities of the line (P, Q): P, Q, P·Q, Q·Q, P×Q, P(Q·Q) − 2Q(P·Q).
inline void lineQuantities(const Vec3& P, const Vec3& Q, double* out, int stride) {
  const double pq = P.dot(Q), qq = Q.dot(Q);
  const Vec3 x = P.cross(Q), w = qq * P - 2 * pq * Q;
  for (int k = 0; k < 3; ++k) {
    out[k * stride] = P[k];
    out[(3 + k) * stride] = Q[k];
    out[(8 + k) * stride] = x[k];
    out[(11 + k) * stride] = w[k];
  }
  out[6 * stride] = pq;
  out[7 * stride] = qq;
}

/// Sample angles 2πm/3 and the exact 3-point transform to (1, cos, sin) coefficients, in place along one
/// index of a row-major block (count samples of 3 with the given stride between the three).
inline void dft3(double* v, int stride) {
  const double f0 = v[0], f1 = v[stride], f2 = v[2 * stride];
  v[0] = (f0 + f1 + f2) / 3.0;
  v[stride] = (2.0 * f0 - f1 - f2) / 3.0;
  v[2 * stride] = (f1 - f2) / 1.7320508075688772;
}
/// A prismatic variable d enters the 14 quantities as a polynomial of degree ≤ 2 (its (1, d, d²) play the part of
/// (1, cos, sin); the handbook's 5R1P note): sampled at d = 0, 1, −1, exact quadratic interpolation in place.
inline void fit3(double* v, int stride) {
  const double f0 = v[0], f1 = v[stride], f2 = v[2 * stride];
  v[stride] = (f1 - f2) / 2.0;
  v[2 * stride] = (f1 + f2) / 2.0 - f0;
}
/// Sample m (0, 1, 2) of a variable: the angle 2πm/3 + shift, or the length 0, 1, −1 (scaled) for a prismatic one.
inline double sampleValue(bool prismatic, int m, double shift) {
  return prismatic ? (m == 0 ? 0.0 : m == 1 ? 1.0 : -1.0) : 2 * kPi * m / 3 + shift;
}
inline void toBasis(bool prismatic, double* v, int stride) { prismatic ? fit3(v, stride) : dft3(v, stride); }
/// The basis values (1, cos v, sin v), or (1, d, d²).
inline void basis(bool prismatic, double v, double out[3]) {
  out[0] = 1;
  out[1] = prismatic ? v : std::cos(v);
  out[2] = prismatic ? v * v : std::sin(v);
}
/// (1, cos, sin) coefficients → coefficients of 1, x, x² after multiplying by (1 + x²), x = tan(angle/2); a
/// prismatic variable's (1, d, d²) coefficients are already those of 1, x, x² with x = d.
inline void halfAngle(double* v, int stride, bool prismatic = false) {
  if (prismatic) return;
  const double c0 = v[0], cc = v[stride], cs = v[2 * stride];
  v[0] = c0 + cc;
  v[stride] = 2 * cs;
  v[2 * stride] = c0 - cc;
}

}  // namespace

bool isGeneral6R(const Model& m, std::string* why) {
  auto fail = [&](const std::string& s) {
    if (why) *why = s;
    return false;
  };
  const int n_revolute = ik_detail::sixJointRevoluteCount(m, why);
  if (n_revolute < 0) return false;
  if (n_revolute < 3) return fail("at most three prismatic joints (6R, 5R1P, 4R2P, 3R3P)");
  return true;
}

void ikGeneral6R(const Model& model, Data& data, const SE3& target, IkSolutionSet& out, const double* seed,
                 double tolerance) {
  std::string why;
  if (!isGeneral6R(model, &why)) throw Error("method general6r: " + why);
  checkData(model, data);
  ik_detail::IkCollector set(out, model, seed, tolerance);  // empties out
  Chain6 chain;
  buildChain(model, chain);
  // length scale: the mean length of the constant links (the target's included)
  double len = 0;
  for (int i = 1; i < 6; ++i) len += chain.H[i].p.norm();
  len += (chain.H[6] * target.inverse() * chain.H[0]).p.norm();
  const double scale = len > 1e-12 ? 6.0 / len : 1.0;

  Loop L;
  Mat14x27 A;
  Mat14x8 B;
  Eigen::Matrix<double, 14, 9> Rc;
  Mat6x27 S;
  Mat12 M[3];
  Mat24 C;
  Eigen::ColPivHouseholderQR<Mat14x8> qr;
  Eigen::PartialPivLU<Mat12> lu;
  Eigen::EigenSolver<Mat24> es;
  Eigen::Matrix<double, 14, 14> Qfull;
  bool solved = false;
  double shift3 = 0;
  // Pass 0: the companion matrix with M₂⁻¹ (M₂ regular). Pass 1, only if no formulation had a regular M₂ (two
  // or three prismatic joints: fewer roots than the pencil's degree 24, so roots at infinity in every
  // formulation): the generalized eigenproblem of the pencil (QZ), whose infinite eigenvalues are skipped, for a
  // formulation whose pencil is regular (det M(x) ≢ 0, checked at a fixed x).
  Eigen::RealQZ<Mat24> rqz;  // (Eigen's GeneralizedEigenSolver asserts instead of reporting a QZ failure)
  Mat24 Bq;
  bool qz = false;
  for (int pass = 0; pass < 2 && !solved; ++pass)
  for (int f = 0; f < kFormulations && !solved; ++f) {
    makeLoop(chain, target, f, scale, L);
    // the last position's joint turns about the line the 14 quantities follow; a prismatic one would slide it
    if (L.prismatic[5]) continue;
    // Right side: D₁⁻¹ Z(−ψ₁) D₀⁻¹ Z(−ψ₀) D₅⁻¹ applied to the last axis (e₃ through the origin).
    const SE3 D0i = L.D[0].inverse(), D1i = L.D[1].inverse(), D5i = L.D[5].inverse();
    for (int m0 = 0; m0 < 3; ++m0) {
      const SE3 U = loopMotion(L, 0, -sampleValue(L.prismatic[0], m0, 0)) * D5i;
      for (int m1 = 0; m1 < 3; ++m1) {
        const SE3 G = D1i * loopMotion(L, 1, -sampleValue(L.prismatic[1], m1, 0)) * D0i * U;
        lineQuantities(G.R.col(2), G.p, Rc.data() + (m0 * 3 + m1) * 14, 1);
      }
    }
    for (int i = 0; i < 14; ++i) {
      double* row = Rc.data() + i;  // column-major: element (i, b) at i + 14·b
      for (int m1 = 0; m1 < 3; ++m1) toBasis(L.prismatic[0], row + 14 * m1, 14 * 3);
      for (int m0 = 0; m0 < 3; ++m0) toBasis(L.prismatic[1], row + 14 * 3 * m0, 14);
    }
    B = Rc.rightCols<8>();
    qr.setThreshold(kRankTol);
    qr.compute(B);
    if (qr.rank() < 8) continue;  // degenerate split: ψ₀, ψ₁ cannot be eliminated this way
    Qfull = qr.householderQ();
    // Left side Z(ψ₂) D₂ Z(ψ₃) D₃ Z(ψ₄) D₄ applied to the same line, sampled at ψ = 2πm/3 + β.
    for (int shift = 0; shift < 2 && !solved; ++shift) {
      shift3 = kShift3[shift];
      SE3 W[3], V[9];
      for (int m4 = 0; m4 < 3; ++m4) W[m4] = loopMotion(L, 4, sampleValue(L.prismatic[4], m4, kShift5)) * L.D[4];
      for (int m3 = 0; m3 < 3; ++m3) {
        const SE3 Z3 = loopMotion(L, 3, sampleValue(L.prismatic[3], m3, kShift4)) * L.D[3];
        for (int m4 = 0; m4 < 3; ++m4) V[m3 * 3 + m4] = Z3 * W[m4];
      }
      for (int m2 = 0; m2 < 3; ++m2) {
        const SE3 Z2 = loopMotion(L, 2, sampleValue(L.prismatic[2], m2, shift3)) * L.D[2];
        for (int v = 0; v < 9; ++v) {
          const SE3 G = Z2 * V[v];
          lineQuantities(G.R.col(2), G.p, A.data() + (m2 * 9 + v) * 14, 1);
        }
      }
      // coefficients over (1, cos, sin)³ of (ξ, η₄, η₅), the unshifted variables; then the constant of
      // the right side joins the left: A·t(ξ, η₄, η₅) = B·Y
      for (int i = 0; i < 14; ++i) {
        double* row = A.data() + i;
        for (int a = 0; a < 9; ++a) toBasis(L.prismatic[2], row + 14 * a, 14 * 9);              // ξ
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) toBasis(L.prismatic[3], row + 14 * (a * 9 + b), 14 * 3);  // η₄
        for (int a = 0; a < 9; ++a) toBasis(L.prismatic[4], row + 14 * 3 * a, 14);               // η₅
        A(i, 0) -= Rc(i, 0);
      }
      // eliminate Y: the 6 rows of the left null space of B
      S.noalias() = Qfull.rightCols<6>().transpose() * A;
      // half-angle polynomials in x₃, x₄, x₅ (each row multiplied by (1 + x₃²)(1 + x₄²)(1 + x₅²))
      Mat6x27 P = S;
      for (int i = 0; i < 6; ++i) {
        double* row = P.data() + i;
        for (int a = 0; a < 9; ++a) halfAngle(row + 6 * a, 6 * 9, L.prismatic[2]);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) halfAngle(row + 6 * (a * 9 + b), 6 * 3, L.prismatic[3]);
        for (int a = 0; a < 9; ++a) halfAngle(row + 6 * 3 * a, 6, L.prismatic[4]);
      }
      // 12×12: rows 0–5 multiplied by x₄, rows 6–11 as they are; columns x₄ᵃx₅ᵇ at 3(3 − a) + (2 − b)
      for (auto& Mk : M) Mk.setZero();
      for (int i = 0; i < 6; ++i)
        for (int p3 = 0; p3 < 3; ++p3)
          for (int p4 = 0; p4 < 3; ++p4)
            for (int p5 = 0; p5 < 3; ++p5) {
              const double v = P(i, p3 * 9 + p4 * 3 + p5);
              M[p3](i, 3 * (2 - p4) + (2 - p5)) = v;
              M[p3](6 + i, 3 * (3 - p4) + (2 - p5)) = v;
            }
      if (pass == 1) {
        const double x = 0.7317;
        lu.compute((M[2] * x + M[1]) * x + M[0]);
        if (!(lu.rcond() > 1e-14)) continue;  // a singular pencil: this formulation says nothing
        C.setZero();
        C.topRightCorner<12, 12>().setIdentity();
        C.bottomLeftCorner<12, 12>() = -M[0];
        C.bottomRightCorner<12, 12>() = -M[1];
        Bq.setIdentity();
        Bq.bottomRightCorner<12, 12>() = M[2];
        rqz.compute(C, Bq, false);
        if (rqz.info() != Eigen::Success) continue;
        solved = qz = true;
        out.general6r.formulation = f;
        continue;
      }
      lu.compute(M[2]);
      if (!(lu.rcond() > kLeadTol)) continue;  // a root at infinity (try the other shift) or a singular pencil
      C.setZero();
      C.topRightCorner<12, 12>().setIdentity();
      C.bottomLeftCorner<12, 12>() = -lu.solve(M[0]);
      C.bottomRightCorner<12, 12>() = -lu.solve(M[1]);
      es.compute(C, false);
      if (es.info() != Eigen::Success) continue;
      solved = true;
      out.general6r.formulation = f;
    }
  }
  if (!solved) {
    set.finish();
    out.general6r.degenerate = true;
    return;
  }

  Eigen::Matrix<double, 6, 1> q;
  Eigen::Matrix<std::complex<double>, 24, 1> evals;
  if (qz) {
    // eigenvalues of the quasi-triangular pencil (S, T): 1×1 blocks α/β (β ≈ 0: infinite, no root), 2×2 blocks
    // a complex pair from det(S_b − λ T_b) = 0
    const Mat24& S = rqz.matrixS();
    const Mat24& T = rqz.matrixT();
    const std::complex<double> none(kInf, 0);
    for (int k = 0; k < 24;) {
      if (k == 23 || S(k + 1, k) == 0.0) {
        evals[k] = std::abs(T(k, k)) > 1e-10 * std::abs(S(k, k)) ? std::complex<double>(S(k, k) / T(k, k), 0) : none;
        ++k;
        continue;
      }
      const double a = T(k, k) * T(k + 1, k + 1);
      const double b = -(S(k, k) * T(k + 1, k + 1) + S(k + 1, k + 1) * T(k, k) - S(k + 1, k) * T(k, k + 1));
      const double c = S(k, k) * S(k + 1, k + 1) - S(k, k + 1) * S(k + 1, k);
      if (std::abs(a) <= 1e-10 * (std::abs(b) + std::abs(c))) {
        evals[k] = evals[k + 1] = none;
      } else {
        const std::complex<double> r = std::sqrt(std::complex<double>(b * b - 4 * a * c, 0));
        evals[k] = (-b + r) / (2 * a);
        evals[k + 1] = (-b - r) / (2 * a);
      }
      k += 2;
    }
  } else {
    evals = es.eigenvalues();
  }
  Eigen::ColPivHouseholderQR<Mat12> qrx;
  for (int k = 0; k < 24; ++k) {
    const std::complex<double> lam = evals[k];
    if (!std::isfinite(lam.real())) continue;
    const double xr = lam.real();
    if (!(2 * std::abs(lam.imag()) / (1 + xr * xr) < kImagTol)) continue;
    if (std::abs(1.0 + lam * lam) < 1e-6) continue;  // x = ±i: the factor (1 + x²), no angle
    ++out.general6r.real_roots;
    // X spans the null space of M₂x² + M₁x + M₀ at the (real) root: column-pivoted QR, last pivot ≈ 0
    // (cheaper than the 24×24 eigenvectors, and as accurate at a simple root; Newton polishes)
    const Mat12 Px = (M[2] * xr + M[1]) * xr + M[0];
    qrx.compute(Px);
    Eigen::Matrix<double, 12, 1> w;
    w[11] = 1;
    w.head<11>() = -qrx.matrixQR().topLeftCorner<11, 11>().triangularView<Eigen::Upper>().solve(qrx.matrixQR().block<11, 1>(0, 11));
    const Eigen::Matrix<double, 12, 1> X = qrx.colsPermutation() * w;
    if (!X.allFinite()) continue;
    int i4 = 0, i5 = 0;
    for (int i = 0; i < 9; ++i)
      if (std::abs(X[i + 3]) > std::abs(X[i4 + 3])) i4 = i;
    for (int i = 0; i < 11; ++i)
      if (i % 3 != 2 && std::abs(X[i + 1]) > std::abs(X[i5 + 1])) i5 = i;
    if (X[i4 + 3] == 0 || X[i5 + 1] == 0) continue;
    const double x4 = X[i4] / X[i4 + 3], x5 = X[i5] / X[i5 + 1];
    // unshifted variables and the shifted angles ψ₂, ψ₃, ψ₄ (a prismatic joint's x is its scaled length)
    auto unshifted = [&](int k, double x) { return L.prismatic[k] ? x : 2 * std::atan(x); };
    const double xi = unshifted(2, xr), e4 = unshifted(3, x4), e5 = unshifted(4, x5);
    double psi[6];
    psi[2] = L.prismatic[2] ? xi : xi + shift3;
    psi[3] = L.prismatic[3] ? e4 : e4 + kShift4;
    psi[4] = L.prismatic[4] ? e5 : e5 + kShift5;
    // ψ₀, ψ₁ from B·Y = A·t (least squares)
    Eigen::Matrix<double, 27, 1> t;
    double t3[3], t4[3], t5[3];
    basis(L.prismatic[2], xi, t3);
    basis(L.prismatic[3], e4, t4);
    basis(L.prismatic[4], e5, t5);
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 3; ++c) t[a * 9 + b * 3 + c] = t3[a] * t4[b] * t5[c];
    const Eigen::Matrix<double, 14, 1> rhs = A * t;
    const Eigen::Matrix<double, 8, 1> Y = qr.solve(rhs);
    // Y over (1, cos ψ₀, sin ψ₀) ⊗ (1, cos ψ₁, sin ψ₁) without the constant: index m₀·3 + m₁ − 1 ((1, d, d²)
    // for a prismatic joint: d is the coefficient of its linear term)
    psi[0] = L.prismatic[0] ? Y[2] : std::atan2(Y[5], Y[2]);
    psi[1] = L.prismatic[1] ? Y[0] : std::atan2(Y[1], Y[0]);
    // ψ₅ from the closure: Z(ψ₅) = (J(ψ₀)D₀ … J(ψ₄)D₄)⁻¹ · D₅⁻¹ (a revolute joint: see the formulation check)
    SE3 G = SE3::Identity();
    for (int i = 0; i < 5; ++i) G = G * loopMotion(L, i, psi[i]) * L.D[i];
    const Mat3 Z5 = G.R.transpose() * L.D[5].R.transpose();
    psi[5] = std::atan2(Z5(1, 0), Z5(0, 0));
    double th[6];
    for (int i = 0; i < 6; ++i) th[L.j[i]] = L.sigma * (L.prismatic[i] ? psi[i] / scale : psi[i]);
    polish(chain, target, th);
    for (int i = 0; i < 6; ++i)
      q[i] = chain.prismatic[i] ? th[i] / chain.k[i] : ik_detail::wrapPi((th[i] - chain.theta0[i]) * chain.k[i]);
    forwardKinematics(model, data, q);
    double pe, oe;
    poseError(data.oMtool, target, pe, oe);
    if (!(pe + oe <= tolerance)) continue;
    // two eigenvalues converging to one solution are merged by the collector, which keeps the first (both
    // reproduce the target within the tolerance)
    set.offer(q.data(), pe, oe);
  }
  set.finish();
}

}  // namespace achain
