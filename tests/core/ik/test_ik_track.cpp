// Branch tracking while dragging (issue 14 item 3): a long drag on a random smooth path, every frame checked
// against a from-scratch solve (closed form for PUMA, the general 6R eigenvalue method for a random arm):
// no branch lost or swapped, the generating branch followed exactly, ends only where solutions disappear,
// limit crossings reported.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <random>

#include <achain/ik/closed_form.hpp>
#include <achain/ik/general6r.hpp>
#include <achain/ik/track.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>
#include "helpers.hpp"
#include "test_scale.hpp"

using namespace achain;
using test::fkPose;

namespace {

double angDist(const double* a, const double* b, int n) {
  double d = 0;
  for (int i = 0; i < n; ++i) d = std::max(d, std::abs(std::remainder(a[i] - b[i], 2 * kPi)));
  return d;
}

/// A random smooth joint path: q(t) = q0 + Σ_k A_k sin(2π f_k t + φ_k), t ∈ [0, 1].
struct Path {
  std::array<double, 6> q0{}, amp[2]{}, freq[2]{}, phase[2]{};
  VecX at(double t) const {
    VecX q(6);
    for (int i = 0; i < 6; ++i) {
      q[i] = q0[i];
      for (int k = 0; k < 2; ++k) q[i] += amp[k][i] * std::sin(2 * kPi * freq[k][i] * t + phase[k][i]);
    }
    return q;
  }
};

Path randomPath(std::mt19937_64& rng, double amplitude) {
  std::uniform_real_distribution<double> U(-1, 1);
  Path p;
  for (int i = 0; i < 6; ++i) {
    p.q0[i] = 0.5 * U(rng);
    for (int k = 0; k < 2; ++k) {
      p.amp[k][i] = amplitude * U(rng);
      p.freq[k][i] = 0.5 + 1.5 * std::abs(U(rng));
      p.phase[k][i] = kPi * U(rng);
    }
  }
  return p;
}

/// The from-scratch solutions of one frame (nq = 6).
struct Scratch {
  int n = 0;
  std::array<std::array<double, 6>, 64> q{};
};

struct DragStats {
  int frames = 0, max_scratch = 0, ended = 0, drops = 0, births = 0, left = 0, entered = 0;
  double worst_truth = 0, worst_match = 0, worst_step = 0, worst_error = 0;
  int newton_steps = 0;
};

/// Drags the target along FK(path(t)) for `frames` frames, tracking every branch of frame 0 and checking each
/// frame against `solve` (from scratch).
template <class Solve>
DragStats drag(const Model& m, const Path& path, int frames, Solve solve) {
  Data data(m);
  DragStats st;
  IkBranches br;
  Scratch sc;
  VecX q = path.at(0);
  SE3 T = fkPose(m, q);
  solve(T, sc);
  REQUIRE(sc.n >= 1);
  startBranches(m, T, br);
  int truth = -1;
  for (int s = 0; s < sc.n; ++s) {
    const int k = addBranch(m, br, sc.q[s].data());
    if (angDist(sc.q[s].data(), q.data(), 6) < 1e-8) truth = k;
  }
  REQUIRE(truth >= 0);  // the generating configuration is among the solutions
  int prev_n = sc.n;
  std::array<std::array<double, 6>, IkBranches::kCapacity> before{};
  for (int f = 1; f <= frames; ++f) {
    before = br.q;
    q = path.at(f / 2000.0);  // the full run's frame step (a reduced run covers the start of the path)
    T = fkPose(m, q);
    trackBranches(m, data, T, br);
    st.newton_steps += br.newton_steps;
    solve(T, sc);
    st.max_scratch = std::max(st.max_scratch, sc.n);
    if (sc.n < prev_n) st.drops += prev_n - sc.n;
    if (sc.n > prev_n) st.births += sc.n - prev_n;
    prev_n = sc.n;
    // the generating branch is followed exactly, never lost
    REQUIRE(br.alive[truth]);
    st.worst_truth = std::max(st.worst_truth, angDist(br.q[truth].data(), q.data(), 6));
    int alive = 0;
    std::array<int, 64> used{};
    for (int k = 0; k < br.count; ++k) {
      if (br.event[k] == BranchEvent::Ended || br.event[k] == BranchEvent::Singular) ++st.ended;
      if (br.event[k] == BranchEvent::LeftLimits) ++st.left;
      if (br.event[k] == BranchEvent::EnteredLimits) ++st.entered;
      if (!br.alive[k]) continue;
      ++alive;
      // every alive branch is one of the from-scratch solutions, and no two alive branches are the same one
      double best = kInf;
      int which = -1;
      for (int s = 0; s < sc.n; ++s) {
        const double d = angDist(br.q[k].data(), sc.q[s].data(), 6);
        if (d < best) best = d, which = s;
      }
      st.worst_match = std::max(st.worst_match, best);
      REQUIRE(which >= 0);
      CHECK(++used[which] == 1);
      // continuity: a branch moves a little per frame (a swap would jump between branches)
      st.worst_step = std::max(st.worst_step, angDist(br.q[k].data(), before[k].data(), 6));
      st.worst_error = std::max(st.worst_error, br.error[k]);
      // the limit flag is the truth
      CHECK(br.within_limits[k] == withinLimits(m, Eigen::Map<const VecX>(br.q[k].data(), 6)));
    }
    // no branch lost: every from-scratch solution is tracked, except those born after frame 0 (at a fold)
    CHECK(alive + st.births >= sc.n);
    ++st.frames;
  }
  // branches end only where solutions disappear (two per fold)
  CHECK(st.ended <= st.drops);
  std::printf("track %s: %d frames, solutions ≤ %d, ended %d, solutions lost %d / born %d, limit exits %d / entries %d, "
              "Newton steps %.2f per frame, worst: generating branch %.2g, match %.2g, step %.3f rad\n",
              m.name.c_str(), st.frames, st.max_scratch, st.ended, st.drops, st.births, st.left, st.entered,
              double(st.newton_steps) / st.frames, st.worst_truth, st.worst_match, st.worst_step);
  return st;
}

/// The per-drag assertions (both arms): the generating branch exact and every alive branch a from-scratch
/// solution (pose error ≤ 1e-10 at the joints' conditioning; branches lie ≥ 1e-2 apart), small steps.
void checkDrag(const DragStats& st, int frames) {
  CHECK(st.frames == frames);
  CHECK(st.worst_truth < 1e-5);
  CHECK(st.worst_match < 1e-5);
  CHECK(st.worst_step < 0.3);
  CHECK(st.worst_error <= 1e-10);
}

}  // namespace

TEST_CASE("ik track: PUMA 560, every branch followed along a random drag, checked against the closed form", "[ik]") {
  const Model m = builtinModel("puma560");
  const int frames = test::reducedSizes() ? 300 : 2000;
  Data d(m);
  IkSolutionSet cs;
  auto solve = [&](const SE3& T, Scratch& sc) {
    ikClosed(m, d, T, nullptr, cs);
    sc.n = cs.count;
    for (int s = 0; s < cs.count; ++s) std::copy_n(cs.sol(s).q.data(), 6, sc.q[s].begin());
  };
  std::mt19937_64 rng(1414);
  int left = 0, entered = 0, paths = 0;
  for (int p = 0; p < 3; ++p) {
    const Path path = randomPath(rng, 0.6);
    const DragStats st = drag(m, path, frames, solve);
    INFO("path " << p);  // the numbers: the summary line drag() prints
    checkDrag(st, frames);
    CHECK(st.max_scratch == 8);
    left += st.left;
    entered += st.entered;
    ++paths;
  }
  // PUMA's limits cut through its branches: over the full drags crossings happen and are reported both ways
  // (the reduced run covers only the start of each path, where none may occur)
  CHECK(paths == 3);
  if (!test::reducedSizes()) {
    CHECK(left > 0);
    CHECK(entered > 0);
  }
}

TEST_CASE("ik track: general 6R arm, every branch followed along a random drag, checked against ikGeneral6R", "[ik]") {
  const int frames = test::reducedSizes() ? 300 : 2000;
  std::mt19937_64 rng(2718);
  std::uniform_real_distribution<double> U(-1, 1), Ua(0.05, 1);
  Model m = builtinModel("puma560");
  m.name = "general-6r";
  for (int i = 0; i < 6; ++i) {
    Joint& j = m.joints[i];
    j.a = Ua(rng) * (U(rng) > 0 ? 1 : -1);
    j.alpha = kPi * U(rng);
    j.d = 0.5 * U(rng);
    j.theta_f = kPi * U(rng);
    j.limits.lower = -kPi;
    j.limits.upper = kPi;
  }
  m.finalize();
  Data d(m);
  IkSolutionSet g;
  auto solve = [&](const SE3& T, Scratch& sc) {
    ikGeneral6R(m, d, T, g);
    REQUIRE(!g.general6r.degenerate);
    sc.n = g.count;
    for (int s = 0; s < g.count; ++s) std::copy_n(g.sol(s).q.data(), 6, sc.q[s].begin());
  };
  int ended = 0, drops = 0;
  for (int p = 0; p < 3; ++p) {
    const Path path = randomPath(rng, 0.6);
    const DragStats st = drag(m, path, frames, solve);
    INFO("path " << p);
    checkDrag(st, frames);
    ended += st.ended;
    drops += st.drops;
  }
  CHECK(ended <= drops);
}

TEST_CASE("ik track: a fold ends both branches as a pair, with each other as partner", "[ik]") {
  // planar-like 2-link behaviour of PUMA's elbow: stretching the arm to full reach joins elbow up and down
  const Model m = builtinModel("puma560");
  Data d(m);
  IkSolutionSet cs;
  VecX q(6);
  q << 0.2, -0.3, 0.4, 0.1, 0.5, 0.3;
  IkBranches br;
  SE3 T = fkPose(m, q);
  ikClosed(m, d, T, nullptr, cs);
  REQUIRE(cs.count == 8);
  startBranches(m, T, br);
  for (int s = 0; s < cs.count; ++s) addBranch(m, br, cs.sol(s).q.data());
  // move the target straight away from the shoulder until it is out of reach
  const Vec3 dir = (T.p - Vec3(0, 0, T.p.z())).normalized();
  int ended_pairs = 0, alive = 8;
  for (int f = 0; f < 400 && alive > 0; ++f) {
    T.p += 0.005 * dir;
    trackBranches(m, d, T, br);
    for (int k = 0; k < br.count; ++k)
      if (br.event[k] == BranchEvent::Singular) {
        const int p = br.partner[k];
        REQUIRE(p >= 0);
        CHECK(br.partner[p] == k);  // each names the other
        CHECK(br.event[p] == BranchEvent::Singular);
        ++ended_pairs;
      }
    alive = 0;
    for (int k = 0; k < br.count; ++k) alive += br.alive[k];
  }
  CHECK(ended_pairs == 8);  // all four elbow pairs meet at the stretched arm
  for (int k = 0; k < br.count; ++k) CHECK_FALSE(br.alive[k]);
}

TEST_CASE("ik track: bad input is refused with a named error", "[ik]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  IkBranches br;
  startBranches(m, SE3::Identity(), br);
  const double bad[6] = {0, 0, NAN, 0, 0, 0};
  CHECK_THROWS_WITH(addBranch(m, br, bad), Catch::Contains("q[2]"));
  BranchTrackOptions o;
  o.max_joint_step = 0;
  CHECK_THROWS_WITH(trackBranches(m, d, SE3::Identity(), br, o), Catch::Contains("maxJointStep"));
  const double ok[6] = {};
  for (int k = 0; k < IkBranches::kCapacity; ++k) addBranch(m, br, ok);
  CHECK_THROWS_WITH(addBranch(m, br, ok), Catch::Contains("at most 16"));
}
