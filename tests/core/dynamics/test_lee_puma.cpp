// Lee, Lee & Nigam (1982), §4: the first three links of the PUMA in Lee's own convention (his "PUMA Robot Link
// Coordinate Parameters" table, rows 1–3: α = −90°, 0, 90°; a2 = 431.8 mm, a3 = −20.32 mm; d2 = 149.09 mm) and
// his printed closed forms for D(θ), H^rot, H^tran and G (handbook-puma-lee.md §2.8.2–2.8.7, with the digest's
// reconstruction of the OCR-damaged H^tran). The forms are written here from his rotation matrices and position
// vectors alone (no achain kinematics), evaluated at random states with random masses, centres of mass and
// diagonal inertias, and compared with achain's leeTerms (D, h_tran, h_rot, c, term by term) and with RNEA.
// His printed H₃ has a θ̇1θ̇2 term m3(S1c̄3y + C1c̄3x)(C1p2y − S1p2x) that his own Eq. L-31 does not give: it vanishes
// with d2 = 0 (the example's drawings) and is wrong with the real d2 = 149.09 mm; the test shows both.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>

#include <achain/dynamics/lee.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/model_json.hpp>

using namespace achain;

namespace lee_puma {  // named: the unity build puts this file beside others

constexpr double kG = 9.8062;  // Lee's g (m/s²)

struct LinkData {
  double m;
  Vec3 s;  // CoM in the link frame (m)
  Vec3 I;  // principal moments about the CoM, link axes (Ixx, Iyy, Izz)
};

/// Lee's 3-link PUMA (rows 1–3 of his table) with the given links and shoulder offset d2.
Model leePuma3(const LinkData (&L)[3], double d2) {
  const double alpha[3] = {-90, 0, 90}, a[3] = {0, 0.4318, -0.02032}, d[3] = {0, d2, 0};
  std::string joints;
  for (int i = 0; i < 3; ++i) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  R"(%s{"kind": "R", "a": %.17g, "d": %.17g, "alpha": %.17g, "link": {"mass": %.17g, "com": [%.17g, %.17g, %.17g], "inertia": [%.17g, %.17g, %.17g, 0, 0, 0]}})",
                  i ? ", " : "", a[i], d[i], alpha[i], L[i].m, L[i].s.x(), L[i].s.y(), L[i].s.z(), L[i].I.x(), L[i].I.y(), L[i].I.z());
    joints += buf;
  }
  return modelFromJsonString(R"({"schema_version": 1, "name": "lee-puma-3", "convention": "standard",
    "units": {"length": "m", "angle": "deg", "mass": "kg"}, "gravity": [0, 0, -9.8062], "joints": [)" + joints + "]}");
}

/// Lee's closed forms at (θ, θ̇) (his §4; C_i = cos θ_i, S_i = sin θ_i, C23 = cos(θ2 + θ3)).
struct LeeForms {
  Mat3 D;
  Vec3 Htran, Hrot, G;
  double printed_h3_extra;  // the printed H₃'s θ̇1θ̇2 term (not in Eq. L-31)
};

LeeForms leeForms(const LinkData (&L)[3], double a2, double a3, double d2, const Vec3& th, const Vec3& w) {
  const double C1 = std::cos(th[0]), S1 = std::sin(th[0]), C2 = std::cos(th[1]), S2 = std::sin(th[1]);
  const double C23 = std::cos(th[1] + th[2]), S23 = std::sin(th[1] + th[2]), C3 = std::cos(th[2]), S3 = std::sin(th[2]);
  Mat3 R1, R2, R3;  // ⁰R1, ⁰R2, ⁰R3 as printed
  R1 << C1, 0, -S1, S1, 0, C1, 0, -1, 0;
  R2 << C1 * C2, -C1 * S2, -S1, S1 * C2, -S1 * S2, C1, -S2, -C2, 0;
  R3 << C1 * C23, -S1, C1 * S23, S1 * C23, C1, S1 * S23, -S23, 0, C23;
  // p1 = 0; p2 = [a2C1C2, a2S1C2, −a2S2] + d2·z1; p*3 = ⁰R2 (a3C3, a3S3, 0)
  const Vec3 z1(-S1, C1, 0), p2 = Vec3(a2 * C1 * C2, a2 * S1 * C2, -a2 * S2) + d2 * z1;
  const Vec3 p3 = p2 + R2 * Vec3(a3 * C3, a3 * S3, 0);
  // r̄_i: the CoM from the base origin; c̄3 = r̄3 − p2 (from joint 3's axis origin)
  const Vec3 r1 = R1 * L[0].s, r2 = p2 + R2 * L[1].s, r3 = p3 + R3 * L[2].s, c3 = r3 - p2;
  const double m1 = L[0].m, m2 = L[1].m, m3 = L[2].m;
  const Vec3 &I1 = L[0].I, &I2 = L[1].I, &I3 = L[2].I;
  LeeForms f;
  Mat3& D = f.D;
  D(0, 0) = I1.y() + S2 * S2 * I2.x() + C2 * C2 * I2.y() + S23 * S23 * I3.x() + C23 * C23 * I3.z() +
            m1 * (r1.x() * r1.x() + r1.y() * r1.y()) + m2 * (r2.x() * r2.x() + r2.y() * r2.y()) + m3 * (r3.x() * r3.x() + r3.y() * r3.y());
  D(0, 1) = m2 * (-C1 * r2.z() * r2.y() + S1 * r2.z() * r2.x()) + m3 * (-C1 * r3.z() * r3.y() + S1 * r3.z() * r3.x());
  D(0, 2) = m3 * (-C1 * c3.z() * r3.y() + S1 * c3.z() * r3.x());
  D(1, 1) = I2.z() + I3.y() + m2 * (r2.z() * r2.z() + std::pow(S1 * r2.y() + C1 * r2.x(), 2)) +
            m3 * (r3.z() * r3.z() + std::pow(S1 * r3.y() + C1 * r3.x(), 2));
  D(1, 2) = I3.y() + m3 * (c3.z() * r3.z() + (S1 * c3.y() + C1 * c3.x()) * (S1 * r3.y() + C1 * r3.x()));
  D(2, 2) = I3.y() + m3 * (c3.z() * c3.z() + std::pow(S1 * c3.y() + C1 * c3.x(), 2));
  D(1, 0) = D(0, 1), D(2, 0) = D(0, 2), D(2, 1) = D(1, 2);
  const double w1 = w[0], w2 = w[1], w3 = w[2];
  f.Hrot << 2 * S2 * C2 * (I2.x() - I2.y()) * w1 * w2 + 2 * S23 * C23 * (I3.x() - I3.z()) * w1 * w2 +
                2 * S23 * C23 * (I3.x() - I3.z()) * w1 * w3,
      (S2 * C2 * (I2.y() - I2.x()) + C23 * S23 * (I3.z() - I3.x())) * w1 * w1, C23 * S23 * (I3.z() - I3.x()) * w1 * w1;
  const Vec3 u(C1, S1, 0);
  const double k3 = (S1 * c3.y() + C1 * c3.x()) * p2.z() - c3.z() * (C1 * p2.x() + S1 * p2.y());
  f.Htran[2] = -m3 * c3.z() * (C1 * r3.x() + S1 * r3.y()) * w1 * w1 + m3 * k3 * w2 * w2;
  f.Htran[1] = -(m2 * r2.z() * (C1 * r2.x() + S1 * r2.y()) + m3 * r3.z() * (C1 * r3.x() + S1 * r3.y())) * w1 * w1 -
               m3 * k3 * (2 * w2 * w3 + w3 * w3);
  f.Htran[0] = 2 * (m2 * r2.z() * r2.dot(u) + m3 * r3.z() * r3.dot(u)) * w1 * w2 + 2 * m3 * c3.z() * r3.dot(u) * w1 * w3 +
               (m2 * r2.dot(u) * r2.dot(z1) + m3 * r3.dot(u) * r3.dot(z1)) * w2 * w2 +
               2 * m3 * c3.dot(u) * r3.dot(z1) * w2 * w3 + m3 * c3.dot(u) * r3.dot(z1) * w3 * w3;
  const double g = -kG;  // the signed z component of gravity (z0 up)
  f.G << 0, m2 * g * (S1 * r2.y() + C1 * r2.x()) + m3 * g * (S1 * r3.y() + C1 * r3.x()), m3 * g * (S1 * c3.y() + C1 * c3.x());
  f.printed_h3_extra = m3 * (S1 * c3.y() + C1 * c3.x()) * (C1 * p2.y() - S1 * p2.x()) * w1 * w2;
  return f;
}

LinkData randomLink(std::mt19937& rng) {
  std::uniform_real_distribution<double> mass(1, 20), off(-0.3, 0.3), mom(0.01, 0.8);
  const double A = mom(rng), B = mom(rng);
  const double C = std::uniform_real_distribution<double>(std::abs(A - B), A + B)(rng);  // a physical body
  return {mass(rng), Vec3(off(rng), off(rng), off(rng)), Vec3(A, B, C)};
}

}  // namespace lee_puma

using namespace lee_puma;

TEST_CASE("Lee's printed 3-link PUMA closed forms (D, H^rot, H^tran, G) = leeTerms = RNEA at random states", "[dynamics][lee]") {
  std::mt19937 rng(1982);
  std::uniform_real_distribution<double> ang(-kPi, kPi), rate(-3, 3);
  double worst_D = 0, worst_h = 0, worst_G = 0, worst_tau = 0, smallest_extra = 1e300;
  for (const double d2 : {0.0, 0.14909}) {
    INFO("d2 = " << d2);
    for (int trial = 0; trial < 20; ++trial) {
      const LinkData L[3] = {randomLink(rng), randomLink(rng), randomLink(rng)};
      const Model m = leePuma3(L, d2);
      Data data(m);
      const Vec3 th(ang(rng), ang(rng), ang(rng)), w(rate(rng), rate(rng), rate(rng)), acc(rate(rng), rate(rng), rate(rng));
      const LeeForms f = leeForms(L, 0.4318, -0.02032, d2, th, w);
      LeeTerms t;
      leeTerms(m, data, th, w, DynamicsOptions{}, t);
      const double sD = std::max(1.0, f.D.cwiseAbs().maxCoeff());
      worst_D = std::max(worst_D, (t.D - f.D).cwiseAbs().maxCoeff() / sD);
      worst_h = std::max({worst_h, (t.h_tran - f.Htran).cwiseAbs().maxCoeff() / sD, (t.h_rot - f.Hrot).cwiseAbs().maxCoeff() / sD});
      worst_G = std::max(worst_G, (t.c - f.G).cwiseAbs().maxCoeff() / std::max(1.0, f.G.cwiseAbs().maxCoeff()));
      VecX tau(3);
      inverseDynamics(m, data, th, w, acc, DynamicsOptions{}, tau);
      const Vec3 lee = f.D * acc + f.Htran + f.Hrot + f.G;
      worst_tau = std::max(worst_tau, (tau - lee).cwiseAbs().maxCoeff() / std::max(1.0, tau.cwiseAbs().maxCoeff()));
      // the printed H₃'s θ̇1θ̇2 term: 0 with d2 = 0 (harmless there), a real error with d2 = 149.09 mm
      if (d2 == 0) {
        CHECK(std::abs(f.printed_h3_extra) < 1e-12);
      } else {
        smallest_extra = std::min(smallest_extra, std::abs(f.printed_h3_extra) / std::max(1.0, std::abs(tau[2])));
        CHECK(std::abs(tau[2] - (lee[2] + f.printed_h3_extra)) > 1e-6);
      }
    }
  }
  std::printf("Lee's 3-link PUMA forms vs leeTerms: D %.2e, H %.2e, G %.2e; D q̈ + H + G vs RNEA %.2e (relative); the printed "
              "H3 θ̇1θ̇2 term with d2 = 149.09 mm: at least %.2e of |τ3|\n",
              worst_D, worst_h, worst_G, worst_tau, smallest_extra);
  CHECK(worst_D < 1e-12);
  CHECK(worst_h < 1e-12);
  CHECK(worst_G < 1e-12);
  CHECK(worst_tau < 1e-12);
}

TEST_CASE("Lee's PUMA table (6 rows, row 6 after Fu, Gonzalez & Lee): FK, and the conversion to Corke's puma560", "[dynamics][lee]") {
  // Lee's "PUMA Robot Link Coordinate Parameters": α = (−90, 0, 90, −90, 90, 0)°, a2 = 431.8, a3 = −20.32,
  // d2 = 149.09, d4 = 433.07 mm; row 6 (lost in the OCR) d6 = 56.25 mm (Fu, Gonzalez & Lee 1987, Fig. 2.11).
  const Model lee = modelFromJsonString(R"({"schema_version": 1, "name": "puma560-lee", "convention": "standard",
    "units": {"length": "mm", "angle": "deg"},
    "joints": [{"kind": "R", "a": 0, "d": 0, "alpha": -90}, {"kind": "R", "a": 431.8, "d": 149.09, "alpha": 0},
               {"kind": "R", "a": -20.32, "d": 0, "alpha": 90}, {"kind": "R", "a": 0, "d": 433.07, "alpha": -90},
               {"kind": "R", "a": 0, "d": 0, "alpha": 90}, {"kind": "R", "a": 0, "d": 56.25, "alpha": 0}]})");
  Data dl(lee);
  // the digest's FK of the table by Eq. H-3 (an independent derivation; not printed in the paper), mm
  const struct {
    double q[6];
    double p[3];
  } poses[] = {{{0, 0, 0, 0, 0, 0}, {411.48, 149.09, 489.32}},
               {{90, 0, 90, 0, 0, 0}, {-149.09, 921.12, 20.32}},
               {{0, 0, 90, 0, 0, 0}, {921.12, 149.09, 20.32}}};
  for (const auto& pose : poses) {
    VecX q(6);
    for (int i = 0; i < 6; ++i) q[i] = pose.q[i] * kPi / 180;
    forwardKinematics(lee, dl, q);
    for (int i = 0; i < 3; ++i) CHECK(dl.oMtool.p[i] * 1000 == Approx(pose.p[i]).margin(5e-3));
  }
  // Corke's puma560 (Paul's signs: α negated, d3 = 150.05 mm on the other side, a3 = +20.3, d4 = 431.8) is the same
  // arm with q_Corke = q_Lee + (180°, 180°, 180°, 0, 0, 0): the tool frames differ by a constant half turn about z6
  // and the wrist centres by the two tables' different lengths (|Δd2| = 0.96 mm, |Δd4| = 1.27 mm)
  const Model corke = builtinModel("puma560");
  Data dc(corke);
  std::mt19937 rng(560);
  std::uniform_real_distribution<double> U(-kPi, kPi);
  double worst_R = 0, worst_wrist = 0;
  for (int k = 0; k < 20; ++k) {
    VecX ql(6);
    for (int i = 0; i < 6; ++i) ql[i] = U(rng);
    VecX qc = ql;
    for (int i = 0; i < 3; ++i) qc[i] += kPi;
    forwardKinematics(lee, dl, ql);
    forwardKinematics(corke, dc, qc);
    const Mat3 Rz180 = Vec3(-1, -1, 1).asDiagonal();
    worst_R = std::max(worst_R, (dl.oMi[5].R - dc.oMi[5].R * Rz180).cwiseAbs().maxCoeff());
    worst_wrist = std::max(worst_wrist, (dl.oMi[3].p - dc.oMi[3].p).norm());
  }
  std::printf("Lee's PUMA vs Corke's at q + (180, 180, 180, 0, 0, 0)°: rotation %.1e, wrist centre %.3f mm\n", worst_R, worst_wrist * 1000);
  CHECK(worst_R < 1e-12);
  CHECK(worst_wrist < 1.7e-3);  // √(0.96² + 1.27²) = 1.59 mm at most
  CHECK(worst_wrist > 0.3e-3);  // and the tables do differ
}
