// The orientation sweep (method "sweep"): every solution of a four-joint rotating chain, checked against
// the homotopy (method "algebraic", the reference), the closed form and a numeric multi-start.
#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <cstdlib>
#include <random>

#include <achain/ik/algebraic_4a.hpp>
#include <achain/ik/ik.hpp>
#include <achain/ik/sweep.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>
#include "helpers.hpp"
#include "test_scale.hpp"

using namespace achain;

namespace {

using test::fkPose;

/// A random 4A-chain of the prototype's family: skew axes (never parallel), random a, d, θ_f, ρ.
Model randomChain(std::mt19937& rng, bool apairs = true) {
  std::uniform_real_distribution<double> U(-1, 1), Ua(0.3, 1.3);
  Model m = builtinModel(apairs ? "prototype-4a" : "prototype-4r");
  for (auto& j : m.joints) {
    j.a = 0.05 + 0.2 * Ua(rng) * (U(rng) > 0 ? 1 : -1);
    j.alpha = (U(rng) > 0 ? 1 : -1) * Ua(rng);
    j.d = 0.1 * U(rng);
    j.theta_f = kPi * U(rng);
    if (apairs) j.rho = 0.02 + 0.06 * (1 + U(rng));  // 2–14 cm (the prototype's: about 5 cm)
    j.limits.lower = apairs ? 0 : -kPi;
    j.limits.upper = apairs ? 4 * kPi : kPi;
  }
  m.finalize();
  return m;
}

/// Distance between two configurations modulo each joint's period.
double periodicGap(const Model& m, const VecX& a, const VecX& b) {
  double d = 0;
  for (int i = 0; i < m.nq; ++i) {
    double x = std::abs(a[i] - b[i]);
    const double P = m.jmodels[i].period;
    if (P > 0) x = std::min(std::fmod(x, P), P - std::fmod(x, P));
    d = std::max(d, x);
  }
  return d;
}

std::vector<VecX> allOf(const IkAllResult& r) {
  std::vector<VecX> v;
  for (const auto& s : r.solutions) v.push_back(s.q);
  for (const auto& s : r.outside_limits) v.push_back(s.q);
  return v;
}

/// Every member of `a` is in `b` (to tol, modulo periods).
bool contains(const Model& m, const std::vector<VecX>& b, const std::vector<VecX>& a, double tol) {
  for (const VecX& x : a) {
    double best = kInf;
    for (const VecX& y : b) best = std::min(best, periodicGap(m, x, y));
    if (best > tol) return false;
  }
  return true;
}

/// One random case: a random 4A-chain, joint values uniform over [0, 720°) and the target they reach.
struct RandomCase {
  Model m;
  VecX q = VecX(4);
  SE3 T;
  explicit RandomCase(std::mt19937& rng) : m(randomChain(rng)) {
    std::uniform_real_distribution<double> U(0, 4 * kPi);
    for (int i = 0; i < 4; ++i) q[i] = U(rng);
    T = fkPose(m, q);
  }
};

/// The generating configuration q is among the sweep's solutions of FK(q) (method `method`, which must turn out
/// to be the sweep), and so is every solution a 60-start numeric multi-start finds (an independent peer).
void checkAgainstNumeric(const Model& m, const VecX& q, IkMethod method) {
  const SE3 T = fkPose(m, q);
  IkOptions o;
  const IkAllResult sw = ikAll(m, T, method, o);
  INFO("q " << q.transpose() << ": " << sw.note);
  CHECK(sw.method == IkMethod::Sweep);
  REQUIRE((sw.status == IkStatus::Ok || sw.status == IkStatus::Limits));
  CHECK(contains(m, allOf(sw), {q}, 1e-7));
  o.restarts = 60;
  const IkAllResult nu = ikAll(m, T, IkMethod::Numeric, o);
  CHECK(contains(m, allOf(sw), allOf(nu), 1e-6));
}

}  // namespace

TEST_CASE("ik sweep: the thesis example on prototype-4a gives the closed form's solution set", "[ik][sweep]") {
  const Model m = builtinModel("prototype-4a");
  VecX q(4);
  q << 84.107, 224.203, 106.791, 236.997;
  q *= kDeg;
  const SE3 T = fkPose(m, q);
  IkOptions o;
  const IkAllResult sw = ikAll(m, T, IkMethod::Sweep, o);
  const IkAllResult cl = ikAll(m, T, IkMethod::Closed, o);
  INFO(sw.note);
  REQUIRE(sw.status == IkStatus::Ok);
  CHECK(sw.method == IkMethod::Sweep);
  const auto a = allOf(sw), b = allOf(cl);
  CHECK(a.size() == b.size());
  CHECK(contains(m, a, b, 1e-7));
  CHECK(contains(m, b, a, 1e-7));
  CHECK(contains(m, a, {q}, 1e-7));  // the thesis's angles
  IkSolutionSet s;
  Data d(m);
  ikSweep(m, d, T, s);
  CHECK((s.sweep.sweep_joint == 1 || s.sweep.sweep_joint == 2));  // axes 2 ∥ 3: the outer joints cannot be held
}

TEST_CASE("ik sweep: random 4A-chains give the homotopy's solution set", "[ik][sweep]") {
  std::mt19937 rng(77);
  const int n = test::scaled(24, 4);
  int total = 0, multi = 0, homotopy_short = 0;
  for (int trial = 0; trial < n; ++trial) {
    const RandomCase c(rng);
    const Model& m = c.m;
    const VecX& q = c.q;
    const SE3& T = c.T;
    IkOptions o;
    const IkAllResult sw = ikAll(m, T, IkMethod::Sweep, o);
    const IkAllResult al = ikAll(m, T, IkMethod::Algebraic, o);
    INFO("trial " << trial << ": " << sw.note << " | " << al.note);
    REQUIRE(sw.status == IkStatus::Ok);
    const auto a = allOf(sw), b = allOf(al);
    CHECK(contains(m, a, {q}, 1e-7));  // the generating configuration
    CHECK(contains(m, a, b, 1e-6));    // every homotopy solution found by the sweep
    // and the other way round, except where the homotopy lost a path (it then lacks a solution that FK
    // verifies below; the [.sweep-1k] run counts these)
    if (!contains(m, b, a, 1e-6)) {
      ++homotopy_short;
      CHECK_FALSE(contains(m, b, {q}, 1e-7));
    }
    for (const VecX& x : a) {
      const SE3 P = fkPose(m, x);
      CHECK((P.p - T.p).norm() + (P.R - T.R).norm() < 1e-9);
    }
    for (size_t i = 0; i < a.size(); ++i)
      for (size_t j = i + 1; j < a.size(); ++j) CHECK(periodicGap(m, a[i], a[j]) > 1e-7);
    total += static_cast<int>(a.size());
    multi += a.size() > 1;
  }
  INFO(total << " solutions over " << n << " chains, " << multi << " with more than one; the homotopy short on "
             << homotopy_short);
  CHECK(total >= n);
  CHECK(homotopy_short <= n / 8);
}

// The 1,000 chains (about 75 s: the homotopy is the slow side). Run with
// achain_tests_ik "[.sweep-1k]" -s; prints the solution counts.
TEST_CASE("ik sweep: 1000 random 4A-chains against the homotopy", "[.sweep-1k]") {
  std::mt19937 rng(1000);
  int agree = 0, generator = 0, contains_homotopy = 0, homotopy_generator = 0;
  std::map<int, int> counts;
  double t_sweep = 0, t_alg = 0;
  const int n = 1000;
  for (int trial = 0; trial < n; ++trial) {
    const RandomCase c(rng);
    const Model& m = c.m;
    const VecX& q = c.q;
    const SE3& T = c.T;
    IkOptions o;
    Data d(m);
    const auto t0 = std::chrono::steady_clock::now();
    const IkAllResult sw = ikAll(m, d, T, IkMethod::Sweep, o);
    const auto t1 = std::chrono::steady_clock::now();
    const IkAllResult al = ikAll(m, d, T, IkMethod::Algebraic, o);
    const auto t2 = std::chrono::steady_clock::now();
    t_sweep += std::chrono::duration<double>(t1 - t0).count();
    t_alg += std::chrono::duration<double>(t2 - t1).count();
    const auto a = allOf(sw), b = allOf(al);
    const bool superset = contains(m, a, b, 1e-6), same = superset && contains(m, b, a, 1e-6);
    agree += same;
    contains_homotopy += superset;
    homotopy_generator += contains(m, b, {q}, 1e-7);
    generator += contains(m, a, {q}, 1e-7);
    ++counts[static_cast<int>(a.size())];
    if (!same) WARN("trial " << trial << ": sweep " << a.size() << ", homotopy " << b.size() << " | " << al.note);
  }
  std::string hist;
  for (const auto& [k, v] : counts) hist += " " + std::to_string(k) + ":" + std::to_string(v);
  WARN("equal sets " << agree << "/" << n << "; sweep contains the homotopy's set " << contains_homotopy << "/" << n
                     << "; generator found by the sweep " << generator << "/" << n << ", by the homotopy "
                     << homotopy_generator << "/" << n << "; solution counts" << hist << "; mean time sweep "
                     << 1e6 * t_sweep / n << " us, homotopy " << 1e3 * t_alg / n << " ms");
  CHECK(contains_homotopy == n);
  CHECK(generator == n);
  CHECK(agree == homotopy_generator);  // the sets differ only where the homotopy lost the generating solution
}

TEST_CASE("ik sweep: 4R chains and joint values at exactly 0 and pi", "[ik][sweep]") {
  std::mt19937 rng(5);
  const double special[] = {0.0, kPi, -kPi, 2 * kPi, 3 * kPi};
  std::uniform_int_distribution<int> pick(0, 4);
  for (int trial = 0; trial < test::scaled(12, 3); ++trial) {
    const bool apairs = trial % 2 == 0;
    const Model m = randomChain(rng, apairs);
    VecX q(4);
    for (int i = 0; i < 4; ++i) {
      q[i] = special[pick(rng)];
      if (!apairs) q[i] = std::remainder(q[i], 2 * kPi);
    }
    INFO("trial " << trial);
    checkAgainstNumeric(m, q, IkMethod::Sweep);
  }
}

TEST_CASE("ik sweep: H-pairs (a helical joint with finite limits) against a numeric multi-start", "[ik][sweep]") {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < test::scaled(6, 2); ++trial) {
    Model m = randomChain(rng, false);
    m.joints[2].kind = JointKind::H;
    m.joints[2].pitch = 0.02;  // m/rad
    m.joints[2].limits.lower = -3 * kPi;
    m.joints[2].limits.upper = 3 * kPi;
    m.finalize();
    VecX q(4);
    for (int i = 0; i < 4; ++i) q[i] = kPi * U(rng);
    q[2] = 2.5 * kPi * U(rng);
    INFO("trial " << trial);
    checkAgainstNumeric(m, q, IkMethod::Auto);  // auto takes the sweep for an H-pair chain too
  }
}

TEST_CASE("ik sweep: auto takes it for a general 4A-chain, clear errors elsewhere", "[ik][sweep]") {
  std::mt19937 rng(3);
  const Model m = randomChain(rng);
  VecX q(4);
  q << 1, 2, 3, 4;
  const SE3 T = fkPose(m, q);
  IkOptions o;
  const IkAllResult r = ikAll(m, T, IkMethod::Auto, o);
  CHECK(r.method == IkMethod::Sweep);
  CHECK(r.status == IkStatus::Ok);
  CHECK(std::string(toString(IkMethod::Sweep)) == "sweep");
  CHECK(ikMethodFromString("sweep") == IkMethod::Sweep);

  // unreachable (a 4-joint chain reaches a 4-dimensional set of poses): the nearest pose, no exception
  SE3 far = T;
  far.p += Vec3(0.02, -0.01, 0.03);
  const IkAllResult u = ikAll(m, far, IkMethod::Sweep, o);
  CHECK(u.status == IkStatus::Unreachable);
  CHECK(u.has_nearest);
  CHECK(u.residual > 0);

  std::string why;
  CHECK_FALSE(isSweepChain(builtinModel("puma560"), &why));
  CHECK(why.find("4 joints") != std::string::npos);
  Model p = randomChain(rng, false);
  p.joints[1].kind = JointKind::P;
  p.finalize();
  CHECK_FALSE(isSweepChain(p, &why));
  CHECK(why.find("joints[1].kind") != std::string::npos);
  Data d(p);
  IkSolutionSet s;
  CHECK_THROWS_WITH(ikSweep(p, d, T, s), Catch::Contains("method sweep: joints[1].kind"));
  o.position_only = true;
  CHECK_THROWS_WITH(ikAll(m, T, IkMethod::Sweep, o), Catch::Contains("position-only"));
}
