// Closed-chain inverse dynamics in one pass (closedChainInverseDynamics) allocates nothing once its Data has run
// once: the N ≤ 6 solves are fixed-size, the rates and loads go into the caller's vectors. Counted by an
// interposed malloc that counts only while a test enables it (checked first to see a vector's allocation).
#include <catch2/catch.hpp>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/io/robot.hpp>
#include "alloc_counter.hpp"

using namespace achain;
using test::allocationsOf;

TEST_CASE("closedChainInverseDynamics allocates nothing after its first call", "[dynamics][closed][alloc]") {
  CHECK(allocationsOf([] { VecX v(100); v.setZero(); }) >= 1);  // the counter sees allocations
  Robot robot = readRobot("five-bar");
  const LoopClosure loop = robot.requireLoop();
  const Model& m = robot.model;
  Data data(m);
  VecX q = loop.assembly;
  closeLoop(m, data, loop, q, Eigen::Matrix<double, 1, 1>(1.5));
  const VecX yd = Eigen::Vector2d(2.0, 3.0), ydd = Eigen::Vector2d(1.0, 0.5);
  VecX qd(4), qdd(4), Ty(2), Tc(2);
  const DynamicsOptions o;
  closedChainInverseDynamics(m, data, loop, q, yd, ydd, o, qd, qdd, Ty, Tc);
  const long n = allocationsOf([&] {
    for (int k = 0; k < 10; ++k) closedChainInverseDynamics(m, data, loop, q, yd, ydd, o, qd, qdd, Ty, Tc);
  });
  CHECK(n == 0);
}
