// The IK hot paths allocate nothing once their Data has solved once: ikClosed (regular and degenerate
// targets) and ikNumeric (with restarts). Counted by an interposed malloc that counts only while a
// test enables it (checked first to see a vector's allocation).
#include <catch2/catch.hpp>

#include <random>

#include <achain/ik/closed_form.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/ik/three_r_three_p.hpp>
#include <achain/ik/track.hpp>
#include <achain/io/robot.hpp>
#include "alloc_counter.hpp"
#include "helpers.hpp"

using namespace achain;
using test::allocationsOf;

namespace {

std::vector<SE3> targets(const Model& m, int n, std::vector<VecX>& seeds) {
  std::mt19937 rng(31);
  std::vector<SE3> out;
  for (int k = 0; k < n; ++k) {
    out.push_back(test::fkPose(m, test::randomConfiguration(m, rng)));
    seeds.push_back(test::randomConfiguration(m, rng));
  }
  return out;
}

}  // namespace

TEST_CASE("ik alloc: the counter sees heap allocations (std::vector, Eigen)", "[ik]") {
  const long n = allocationsOf([] {
    std::vector<double> v(100, 1.0);
    VecX e = VecX::Ones(50);
    asm volatile("" : : "g"(v.data()), "g"(e.data()) : "memory");
  });
  CHECK(n == 2);
}

TEST_CASE("ik alloc: ikClosed allocates nothing after the first solve, degenerate targets included", "[ik]") {
  for (const char* name : {"puma560", "prototype-4a"}) {
    const Model m = builtinModel(name);
    std::vector<VecX> seeds;
    std::vector<SE3> T = targets(m, 1000, seeds);
    VecX qd = VecX::Zero(m.nq);  // degenerate: PUMA θ5 = 0; prototype θ2 = θ3 (approach ∥ axis 1)
    if (m.nq == 6) qd << 0.3, -0.5, 0.4, 0.2, 0.0, -0.1;
    else qd << 100 * kDeg, 150 * kDeg, 150 * kDeg, 250 * kDeg;
    T.push_back(test::fkPose(m, qd));
    seeds.push_back(qd);
    SE3 far = T[0];
    far.p *= 10;  // unreachable
    T.push_back(far);
    seeds.push_back(qd);
    Data d(m);
    IkSolutionSet out;
    ikClosed(m, d, T[0], nullptr, out);  // derives the chain constants
    int solved = 0;
    const long n = allocationsOf([&] {
      for (size_t k = 0; k < T.size(); ++k) {
        ikClosed(m, d, T[k], k % 2 ? seeds[k].data() : nullptr, out);
        solved += out.count > 0;
      }
    });
    INFO(name);
    CHECK(n == 0);
    CHECK(solved >= 1000);
  }
}

TEST_CASE("ik alloc: ikNumeric with restarts allocates nothing after the first solve", "[ik]") {
  for (const char* name : {"puma560", "prototype-4a", "stanford"}) {
    const Model m = builtinModel(name);
    std::vector<VecX> seeds;
    const std::vector<SE3> T = targets(m, 200, seeds);
    Data d(m);
    IkOptions opt;
    opt.restarts = 20;
    IkResult r;
    for (const bool analytic : {true, false}) {  // with the analytic warm start and purely numeric
      ikNumeric(m, d, T[0], seeds[0], opt, r, analytic);
      int ok = 0;
      const long n = allocationsOf([&] {
        for (size_t k = 0; k < T.size(); ++k) {
          ikNumeric(m, d, T[k], seeds[k], opt, r, analytic);
          ok += r.status == IkStatus::Ok;
        }
      });
      INFO(name << (analytic ? " (analytic start)" : " (numeric only)"));
      CHECK(n == 0);
      CHECK(ok >= 190);
    }
  }
}

TEST_CASE("ik alloc: trackBranches allocates nothing per frame", "[ik]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  VecX q(6);
  q << 0.2, -0.4, 0.5, 0.3, 0.6, -0.2;
  IkSolutionSet cs;
  const SE3 T0 = test::fkPose(m, q);
  ikClosed(m, d, T0, nullptr, cs);
  IkBranches br;
  startBranches(m, T0, br);
  for (int s = 0; s < cs.count; ++s) addBranch(m, br, cs.sol(s).q.data());
  std::vector<SE3> path;
  for (int f = 1; f <= 200; ++f) {
    VecX qf = q;
    qf[0] += 0.003 * f;
    qf[2] -= 0.002 * f;
    qf[4] += 0.004 * f;
    path.push_back(test::fkPose(m, qf));
  }
  int alive = 0;
  const long n = allocationsOf([&] {
    for (const SE3& T : path) trackBranches(m, d, T, br);
    for (int k = 0; k < br.count; ++k) alive += br.alive[k];
  });
  CHECK(n == 0);
  CHECK(alive == 8);
}

TEST_CASE("ik alloc: ikThreeRThreeP allocates nothing after the first solve", "[ik][3r3p]") {
  Model m = builtinModel("puma560");  // made an RPRPRP arm of generic DH constants
  const double a[6] = {0.31, -0.45, 0.22, 0.6, -0.17, 0.08}, alpha[6] = {1.1, -0.7, 2.0, 0.4, -1.3, 0.9};
  for (int i = 0; i < 6; ++i) {
    Joint& j = m.joints[i];
    j.kind = i % 2 ? JointKind::P : JointKind::R;
    j.a = a[i];
    j.alpha = alpha[i];
    j.d = 0.1 * i;
    j.limits.lower = -kInf;
    j.limits.upper = kInf;
  }
  m.finalize();
  std::vector<VecX> seeds;
  const std::vector<SE3> T = targets(m, 500, seeds);
  Data d(m);
  IkSolutionSet out;
  ikThreeRThreeP(m, d, T[0], out);
  int two = 0;
  const long n = allocationsOf([&] {
    for (size_t k = 0; k < T.size(); ++k) {
      ikThreeRThreeP(m, d, T[k], out, k % 2 ? seeds[k].data() : nullptr);
      two += out.count == 2;
    }
  });
  CHECK(n == 0);
  CHECK(two == 500);
}
