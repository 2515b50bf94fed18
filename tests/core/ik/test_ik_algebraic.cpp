// Algebraic (Study-parameter) IK of 4A-chains: the thesis worked example (Robinson §3.8.4; reference
// digest §7.2–7.4 with the errata of §10) and agreement with the closed form.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>

#include <achain/kinematics/fk.hpp>
#include "test_scale.hpp"
#include "helpers.hpp"
#include <achain/ik/algebraic_4a.hpp>
#include <achain/ik/ik.hpp>
#include <achain/io/robot.hpp>

using namespace achain;

namespace {

using test::fkPose;

/// prototype-4a with lengths in inches (the thesis's printed numbers are in inches).
Model prototypeInches() {
  Model m = builtinModel("prototype-4a");
  for (auto& j : m.joints) {
    j.a /= test::kInch;
    j.d /= test::kInch;
    j.rho /= test::kInch;
  }
  m.base.p /= test::kInch;
  m.tool.p /= test::kInch;
  m.finalize();
  return m;
}

VecX thesisQ() {
  VecX q(4);
  q << 84.107, 224.203, 106.791, 236.997;
  return q * kDeg;
}

/// Quadric from (coefficient, variable indices) terms, as a coefficient vector (unit norm).
VecX quadric(std::initializer_list<std::pair<double, std::vector<int>>> terms) {
  VecX c = VecX::Zero(36);
  for (const auto& t : terms) c[studyMonomialIndex(t.second)] += t.first;
  return c.normalized();
}

/// Distance of a coefficient vector from the span of a polynomial basis.
double distanceFromSpan(const VecX& c, const std::vector<StudyPolynomial>& basis) {
  MatX B(c.size(), basis.size());
  for (size_t k = 0; k < basis.size(); ++k) B.col(k) = basis[k].c;
  const VecX coef = B.colPivHouseholderQr().solve(c);
  return (B * coef - c).norm();
}

enum { sx0, sx1, sx2, sx3, sy0, sy1, sy2, sy3 };

/// The link frames of the thesis configuration with joints `first` and `first + 1` drawn at random over their
/// 720° (20 draws).
std::vector<std::vector<SE3>> framesVarying(const Model& m, int first, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(0, 4 * kPi);
  std::vector<std::vector<SE3>> out;
  Data d(m);
  for (int k = 0; k < 20; ++k) {
    VecX q = thesisQ();
    q[first] = U(rng);
    q[first + 1] = U(rng);
    forwardKinematics(m, d, q);
    out.push_back(d.oMi);
  }
  return out;
}

/// The Σ2 pose the right chain assigns from the target: target · (T3 T4)⁻¹, as a Study point with |x| = 1.
Study rightChainPoint(const SE3& target, const std::vector<SE3>& oMi) {
  Study s = studyFromPose(target * (oMi[1].inverse() * oMi[3]).inverse());
  return s / s.head<4>().norm();
}

using Terms = std::vector<std::pair<double, std::vector<int>>>;

/// A printed polynomial at a Study point, relative to the sum of its terms' magnitudes there (so 5 printed
/// significant figures give about 1e-5, whatever the polynomial's scale).
double relativeValue(const Terms& terms, const Study& s) {
  double v = 0, scale = 0;
  for (const auto& [c, vars] : terms) {
    double t = c;
    for (int i : vars) t *= s[i];
    v += t;
    scale += std::abs(t);
  }
  return std::abs(v) / scale;
}

}  // namespace

TEST_CASE("ik algebraic: thesis example end to end", "[ik][algebraic]") {
  const Model m = prototypeInches();
  const SE3 T = fkPose(m, thesisQ());
  AlgebraicReport rep;
  const IkAllResult r = ikAlgebraic4A(m, T, nullptr, &rep);
  REQUIRE(r.status == IkStatus::Ok);
  REQUIRE(r.solutions.size() == 1);
  for (int i = 0; i < 4; ++i) CHECK(r.solutions[0].q[i] / kDeg == Approx(thesisQ()[i] / kDeg).margin(0.01));

  SECTION("constraint varieties: 4 quadrics each (S²₆ included), base chain = Eq. 3.151") {
    CHECK(rep.left.quadrics.size() == 4);
    CHECK(rep.right_local.quadrics.size() == 4);
    // Eq. 3.151 P1 (Study quadric), P2, P3 lie in the computed quadric space
    CHECK(distanceFromSpan(quadric({{1, {sx0, sy0}}, {1, {sx1, sy1}}, {1, {sx2, sy2}}, {1, {sx3, sy3}}}), rep.left.quadrics) < 1e-9);
    CHECK(distanceFromSpan(quadric({{1, {sx0, sx0}}, {-1, {sx1, sx1}}, {-1, {sx2, sx2}}, {1, {sx3, sx3}}}), rep.left.quadrics) < 1e-9);
    CHECK(distanceFromSpan(quadric({{-12, {sx0, sx1}}, {2, {sx0, sy0}}, {-12, {sx2, sx3}}, {2, {sx3, sy3}}}), rep.left.quadrics) < 1e-9);
    // a wrong coefficient is detected (the test can fail)
    CHECK(distanceFromSpan(quadric({{-11, {sx0, sx1}}, {2, {sx0, sy0}}, {-12, {sx2, sx3}}, {2, {sx3, sy3}}}), rep.left.quadrics) > 1e-3);
    // Eq. 3.151 P5 (cubic) vanishes on the base chain
    for (const auto& oMi : framesVarying(m, 0, 4)) {
      Study s = studyFromPose(oMi[1]);
      s /= s[0];
      const double p5 = 2 * s[sx0] * s[sx3] * s[sy0] - 12 * s[sx2] * s[sx3] * s[sx3] - 2 * s[sx0] * s[sx0] * s[sy3] +
                        2 * s[sx2] * s[sx2] * s[sy3] - 12 * s[sx0] * s[sx1] * s[sx3] + 2 * s[sx1] * s[sx1] * s[sy3];
      CHECK(std::abs(p5) < 1e-9 * (1 + s.squaredNorm() * s.norm()));
    }
  }

  SECTION("EE variety in Σ0 (Eq. 3.153) uses T_b of the inverse target") {
    // Study parameters of the target (digest §7.3): (1, 1.15806, −4.80333, 2.83208, 66.3786, −4.27520, 0.05064, −21.60408)
    Study t = studyFromPose(T);
    t /= t[0];
    CHECK(t[1] == Approx(1.15806).margin(2e-3));
    CHECK(t[4] == Approx(66.3786).margin(0.05));
    Study ti = rep.target_inverse / rep.target_inverse[0];
    CHECK(ti[1] == Approx(-1.15806).margin(2e-3));  // the conjugate: (t0, −t1, −t2, −t3, t4, −t5, −t6, −t7)
    CHECK(ti[4] == Approx(66.3786).margin(0.05));
    // printed Eq. 3.153 P2 vanishes on the transferred EE variety (to its 5 printed digits)
    for (const auto& oMi : framesVarying(m, 2, 8)) {
      const Study s = rightChainPoint(T, oMi);
      const double p2 = -0.26068 * s[sx2] * s[sx2] + s[sx2] * s[sx3] + 0.26068 * s[sx3] * s[sx3] + 0.26068 * s[sx0] * s[sx0] -
                        1.0 * s[sx0] * s[sx1] + 0.10322 * s[sx0] * s[sx2] - 0.26068 * s[sx1] * s[sx1] + 0.10322 * s[sx1] * s[sx3];
      CHECK(std::abs(p2) < 2e-4);
      CHECK(rep.right.residual(s) < 1e-9);
      // with T_b of the target itself (not its inverse) the printed polynomial does not vanish everywhere
    }
    // the transfer with T_b(target) instead of T_b(target⁻¹) gives a different variety
    const ConstraintVariety wrong = rep.right_local.transferred(studyFromPose(T));
    Data d(m);
    forwardKinematics(m, d, thesisQ());
    CHECK(rep.right.residual(studyFromPose(d.oMi[1])) < 1e-9);
    CHECK(wrong.residual(studyFromPose(d.oMi[1])) > 1e-4);
  }

  SECTION("Eq. 3.153 P3, P4 (quadrics) and P5 (cubic), as printed, vanish on the transferred EE variety") {
    // Printed to 5 significant figures (digest §7.3, transcribed term by term; P4's 8.3585(y0² + … + y3²)
    // expanded). Each is evaluated where the right chain puts Σ2 for random θ3, θ4; relative to the sum of its
    // terms' magnitudes there, 5 figures give a few 1e-5. One term's sign flipped is seen.
    const Terms P3 = {{3.915, {sx0, sx1}}, {44.49, {sx0, sx2}}, {44.49, {sx1, sx3}}, {-3.915, {sx2, sx3}}, {0.64926, {sx2, sx2}}, {0.19045, {sx2, sy0}}, {1.1276, {sx2, sy2}}, {1.8452, {sx2, sy3}}, {-0.64926, {sx3, sx3}}, {0.19045, {sx3, sy1}}, {1.8452, {sx3, sy2}}, {3.0516, {sx3, sy3}}, {-0.64926, {sx0, sx0}}, {3.0516, {sx0, sy0}}, {-1.8452, {sx0, sy1}}, {0.19045, {sx0, sy2}}, {0.64926, {sx1, sx1}}, {-1.8452, {sx1, sy0}}, {1.1276, {sx1, sy1}}, {0.19045, {sx1, sy3}}};
    const Terms P4 = {{59.046, {sx1, sx2}}, {1393.2, {sx0, sx0}}, {569.51, {sx1, sx1}}, {8.3585, {sy0, sy0}}, {8.3585, {sy1, sy1}}, {8.3585, {sy2, sy2}}, {8.3585, {sy3, sy3}}, {106.85, {sx2, sy0}}, {-106.85, {sx3, sy1}}, {-106.85, {sx0, sy2}}, {106.85, {sx1, sy3}}, {1387.1, {sx3, sx3}}, {731.71, {sx0, sx1}}, {563.42, {sx2, sx2}}, {-36.42, {sx0, sx2}}, {25.15, {sx1, sx3}}, {-5.147, {sx0, sy1}}, {5.147, {sx1, sy0}}, {-5.147, {sx2, sy3}}, {5.147, {sx3, sy2}}, {-193.1, {sx3, sy0}}, {-98.539, {sx2, sy1}}, {193.1, {sx0, sy3}}, {98.539, {sx1, sy2}}, {-731.71, {sx2, sx3}}, {59.046, {sx0, sx3}}};
    const Terms P5 = {{2.2709, {sx1, sx2, sy3}}, {1.4969, {sx0, sx2, sy3}}, {-0.79836, {sx0, sx3, sy3}}, {-1.2112, {sx1, sx3, sy3}}, {1.0574, {sx2, sx3, sy3}}, {46.679, {sx0, sx1, sx2}}, {38.612, {sx0, sx2, sx3}}, {9.0867, {sx1, sx2, sx3}}, {2.5653, {sx0, sx1, sy0}}, {-0.30551, {sx1, sx2, sy0}}, {-0.73099, {sx0, sx2, sy0}}, {-0.078081, {sx1, sx3, sy0}}, {-5.2734, {sx2, sx3, sy0}}, {4.4867, {sx0, sx1, sy1}}, {-0.88349, {sx1, sx2, sy1}}, {-1.449, {sx0, sx2, sy1}}, {0.59614, {sx0, sx3, sy1}}, {0.076804, {sx1, sx3, sy1}}, {-8.8079, {sx2, sx3, sy1}}, {2.3655, {sx0, sx1, sy2}}, {-2.326, {sx0, sx2, sy2}}, {-3.6645, {sx1, sx2, sy2}}, {1.9952, {sx1, sx3, sy2}}, {1.2588, {sx0, sx3, sy2}}, {-0.83971, {sx2, sx3, sy2}}, {-1.7103, {sx0, sx1, sy3}}, {0.053195, {sx2, sx2, sy3}}, {-0.25231, {sx1, sx1, sy3}}, {125.33, {sx2, sx3, sx3}}, {0.48101, {sx0, sx0, sy3}}, {-87.846, {sx0, sx1, sx3}}, {0.2819, {sx0, sx3, sy0}}, {9.9322, {sx0, sx0, sx0}}, {0.75533, {sx1, sx1, sx1}}, {-1.8686, {sx2, sx2, sx2}}, {32.091, {sx3, sx3, sx3}}, {-37.847, {sx0, sx0, sx1}}, {-5.3242, {sx0, sx1, sx1}}, {37.483, {sx0, sx0, sx2}}, {3.7624, {sx0, sx2, sx2}}, {-1.8686, {sx1, sx1, sx2}}, {0.75533, {sx1, sx2, sx2}}, {32.091, {sx0, sx0, sx3}}, {9.9322, {sx0, sx3, sx3}}, {0.76432, {sx1, sx3, sx3}}, {-2.1606, {sx0, sx0, sy0}}, {-0.8535, {sx1, sx1, sy0}}, {1.4174, {sx2, sx2, sy0}}, {-1.3623, {sx3, sx3, sy0}}, {-3.6169, {sx0, sx0, sy1}}, {-1.354, {sx1, sx1, sy1}}, {2.3105, {sx2, sx2, sy1}}, {-2.3581, {sx3, sx3, sy1}}, {-0.4222, {sx0, sx0, sy2}}, {0.55704, {sx1, sx1, sy2}}, {-0.32645, {sx2, sx2, sy2}}, {-1.0183, {sx3, sx3, sy2}}, {0.76291, {sx3, sx3, sy3}}, {-25.336, {sx2, sx2, sx3}}, {21.343, {sx1, sx1, sx3}}};
    Terms P4off = P4;
    P4off[20].first = -P4off[20].first;  // −193.1 x3y0 → +193.1
    double worst = 0, off = 0;
    for (const auto& oMi : framesVarying(m, 2, 3153)) {
      const Study st = rightChainPoint(T, oMi);
      worst = std::max({worst, relativeValue(P3, st), relativeValue(P4, st), relativeValue(P5, st)});
      off = std::max(off, relativeValue(P4off, st));
    }
    WARN("Eq. 3.153 P3-P5 on the EE variety: worst relative value " << worst << "; P4 with its x3y0 term's sign flipped: " << off);
    CHECK(worst < 2e-4);
    CHECK(off > 1e-3);
  }

  SECTION("Eqs. 3.157-3.159 and 3.162: T_R from X1, R_T_target and its Study parameters, φ") {
    // Printed as [1 0; p R] (inches), 3 decimals.
    const double TR[3][4] = {{-1.272, -0.072, 0.074, -0.995}, {-8.280, -0.694, 0.713, 0.103}, {19.730, 0.717, 0.698, 0.000}};
    const double RT[3][4] = {{3.747, 0.522, -0.803, 0.289}, {-12.420, 0.157, -0.242, -0.957}, {-1.116, 0.839, 0.545, 0.000}};
    REQUIRE(r.solutions.size() == 1);
    Data d(m);
    forwardKinematics(m, d, r.solutions[0].q);
    Study X1;
    X1 << 1, 0.362, -1.043, -0.467, -0.525, -11.590, 0.863, -12.030;  // Eq. 3.154 with the x3 erratum
    const SE3 fromX1 = poseFromStudy(X1), T2 = d.oMi[1], RTt = T2.inverse() * T;
    // position (in) and rotation parts of a pose against a printed [1 0; p R]
    auto errors = [](const SE3& P, const double (&M)[3][4]) {
      double ep = 0, er = 0;
      for (int i = 0; i < 3; ++i) {
        ep = std::max(ep, std::abs(P.p[i] - M[i][0]));
        for (int j = 0; j < 3; ++j) er = std::max(er, std::abs(P.R(i, j) - M[i][j + 1]));
      }
      return std::make_pair(ep, er);
    };
    // ⁰T2 at the solution: rotation to the printed digits; position within 4.7e-3 in of them (19.7347 against the
    // printed 19.730: the thesis's numbers come through its rounded X1, whose own pose is within 8.5e-3 in)
    const auto [t2p, t2r] = errors(T2, TR);
    const auto [x1p, x1r] = errors(fromX1, TR);
    const auto [rtp, rtr] = errors(RTt, RT);
    WARN("Eq. 3.157: ⁰T2 " << t2p << " in, " << t2r << "; pose of the printed X1 " << x1p << " in, " << x1r << ". Eq. 3.158: " << rtp
                           << " in, " << rtr);
    CHECK(t2r < 1e-3);
    CHECK(t2p < 5e-3);
    CHECK(x1r < 2e-3);  // X1 has 3 decimals
    CHECK(x1p < 1e-2);
    CHECK(rtr < 1e-3);
    CHECK(rtp < 5e-3);
    // Eq. 3.159: normalised Study parameters of ᴿT_target
    const double S159[8] = {1.000, 1.174, -0.430, 0.751, 4.450, 3.027, 8.271, -5.928};
    Study sr = studyFromPose(RTt);
    sr /= sr[0];
    for (int i = 0; i < 8; ++i) CHECK(sr[i] == Approx(S159[i]).margin(1e-3));
    // Eq. 3.162: φ_i = 2·atan(u_i) = θ_vi/2, printed to 3 decimals of a degree
    const double phi[4] = {42.053, 112.101, 53.395, 118.498};
    for (int i = 0; i < 4; ++i) CHECK(2 * std::atan(rep.u[0][i]) / kDeg == Approx(phi[i]).margin(1e-3));
  }

  SECTION("intersection by homotopy: X1 (sx3 = −0.467 erratum) genuine, X2 spurious, both found by the solver") {
    CHECK(rep.intersection_method == "homotopy");
    CHECK(rep.homotopy_paths == 128);
    CHECK(rep.homotopy_finite + rep.homotopy_diverged + rep.homotopy_failed + rep.homotopy_exceptional == 128);
    CHECK(rep.homotopy_failed == 0);
    REQUIRE(rep.intersections.size() >= 2);
    REQUIRE(rep.genuine.size() == rep.intersections.size());
    REQUIRE(rep.cubic_residual.size() == rep.intersections.size());
    CHECK(std::count(rep.genuine.begin(), rep.genuine.end(), true) == 1);
    auto find = [&](const double* P, double tol) {
      for (size_t k = 0; k < rep.intersections.size(); ++k) {
        Study Y = rep.intersections[k];
        if (std::abs(Y[0]) < 1e-6) continue;
        Y /= Y[0];
        bool all = true;
        for (int i = 0; i < 8; ++i) all = all && std::abs(Y[i] - P[i]) <= tol * std::max(1.0, std::abs(P[i]));
        if (all) return static_cast<int>(k);
      }
      return -1;
    };
    const double X1[8] = {1, 0.3622, -1.0427, -0.4673, -0.5252, -11.5870, 0.8633, -12.0301};
    const double X2p[8] = {1.000, 0.422, -1.049, -0.527, -3.270, -6.590, 2.925, -17.300};  // printed, 3 decimals
    const int i1 = find(X1, 2e-3), i2 = find(X2p, 1e-3);
    REQUIRE(i1 >= 0);
    REQUIRE(i2 >= 0);
    CHECK(rep.genuine[i1]);
    CHECK_FALSE(rep.genuine[i2]);
    CHECK(rep.cubic_residual[i1] < 1e-9);  // X1 satisfies all 9 equations exactly
    // X2: a root of the 7 quadrics; no base 2A-IK (the thesis's reason for calling it spurious)
    CHECK(ikTwoJoint(m, 0, poseFromStudy(rep.intersections[i2]), 1e-6).empty());
    Study X = rep.intersections[i1];
    X /= X[0];
    CHECK(X[3] != Approx(-0.457).margin(5e-3));  // the printed digit is wrong
    // u values (Eq. 3.156, 3.161): u1 = 0.384, u2 = 1.485, u3 = 0.503, u4 = 1.681
    REQUIRE(rep.u.size() == 1);
    CHECK(rep.u[0][0] == Approx(0.384).margin(2e-3));
    CHECK(rep.u[0][1] == Approx(1.485).margin(2e-3));
    CHECK(rep.u[0][2] == Approx(0.503).margin(2e-3));
    CHECK(rep.u[0][3] == Approx(1.681).margin(2e-3));
    // X2 (printed) satisfies the 9 implicit equations to its rounding but has no base 2A-IK: spurious
    Study X2;
    X2 << 1.000, 0.422, -1.049, -0.527, -3.270, -6.590, 2.925, -17.300;
    Study X1p;
    X1p << 1, 0.362, -1.043, -0.467, -0.525, -11.590, 0.863, -12.030;
    WARN("residuals X1: " << rep.left.residual(X1p) << " " << rep.right.residual(X1p) << "  X2: " << rep.left.residual(X2) << " " << rep.right.residual(X2));
    CHECK(rep.left.residual(X2) < 1e-2);
    CHECK(rep.right.residual(X2) < 1e-2);
    CHECK(rep.left.residual(X1p) < 1e-2);
    CHECK(rep.right.residual(X1p) < 1e-2);
    // a point of S²₆ off the varieties is far from satisfying them
    Study off;
    off << 1, 0.5, -0.5, 0.2, 0, 0, 0, 0;
    off.tail<4>() = Eigen::Vector4d(-3, 4, 1, 0);
    off[7] = -(off[0] * off[4] + off[1] * off[5] + off[2] * off[6]) / off[3];
    CHECK(std::max(rep.left.residual(off), rep.right.residual(off)) > 5e-2);
    CHECK(ikTwoJoint(m, 0, poseFromStudy(X1p), 2e-3).size() == 1);
    CHECK(ikTwoJoint(m, 0, poseFromStudy(X2), 2e-3).empty());
  }
}

TEST_CASE("ik algebraic: agrees with the closed form on random prototype targets", "[ik][algebraic]") {
  for (const char* name : {"prototype-4a", "prototype-4r"}) {
    const Model m = builtinModel(name);
    std::mt19937 rng(13);
    // Reduced sizes (sanitizer builds, tests/core/test_scale.hpp): the first 3 of the 12 targets, the
    // homotopy solve taking about 15 s each under ASan+UBSan.
    const int targets = test::scaled(12, 3);
    for (int k = 0; k < targets; ++k) {
      const VecX q = test::randomConfiguration(m, rng);
      const SE3 T = fkPose(m, q);
      const IkAllResult a = ikAll(m, T, IkMethod::Algebraic, {});
      const IkAllResult c = ikAll(m, T, IkMethod::Closed, {});
      INFO(name << " " << k);
      REQUIRE(a.solutions.size() == c.solutions.size());
      // same set (the order without a seed is unspecified)
      for (const auto& sa : a.solutions) {
        double best = 1e9;
        for (const auto& sc : c.solutions) best = std::min(best, (sa.q - sc.q).cwiseAbs().maxCoeff());
        CHECK(best < 1e-6);
      }
    }
  }
}

TEST_CASE("ik algebraic: general 4A-chains (random DH, not prototype class) verified by FK", "[ik][algebraic]") {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> U(-1, 1), Ua(0.3, 1.3);
  int solved = 0;
  for (int trial = 0; trial < 4; ++trial) {
    Model m = builtinModel("prototype-4a");
    for (auto& j : m.joints) {
      j.a = 0.05 + 0.2 * Ua(rng) * (U(rng) > 0 ? 1 : -1);
      j.alpha = (U(rng) > 0 ? 1 : -1) * Ua(rng);  // skew axes, never parallel
      j.d = 0.1 * U(rng);
      j.theta_f = U(rng);
      j.limits.lower = 0;
      j.limits.upper = 4 * kPi;
    }
    m.finalize();
    VecX q(4);
    for (int i = 0; i < 4; ++i) q[i] = 2 * kPi * (1 + U(rng));
    const SE3 T = fkPose(m, q);
    AlgebraicReport rep;
    const IkAllResult r = ikAlgebraic4A(m, T, nullptr, &rep);
    INFO("trial " << trial << ": " << r.note);
    CHECK(rep.intersection_method == "homotopy");
    REQUIRE(r.status == IkStatus::Ok);
    bool generator = false;
    for (const auto& s : r.solutions) {
      const SE3 P = fkPose(m, s.q);
      CHECK((P.p - T.p).norm() < 1e-9);
      CHECK((P.R - T.R).norm() < 1e-9);
      VecX d = s.q - q;
      for (int i = 0; i < 4; ++i) d[i] = std::remainder(d[i], 4 * kPi);
      generator = generator || d.cwiseAbs().maxCoeff() < 1e-6;
    }
    CHECK(generator);  // the configuration that made the target is among the solutions
    ++solved;
  }
  CHECK(solved == 4);
}
