// cartesianInertia and dynamicManipulability allocate nothing once their Data and result object have been
// used (counted by the interposed malloc of tests/core/alloc_counter.hpp; this is the one source of the
// dynamics tests that includes it).
#include <catch2/catch.hpp>

#include <random>

#include <achain/dynamics/operational.hpp>
#include <achain/io/robot.hpp>
#include "alloc_counter.hpp"
#include "helpers.hpp"

using namespace achain;
using test::allocationsOf;

TEST_CASE("operational alloc: the counter sees an Eigen allocation", "[dynamics][operational]") {
  const long n = allocationsOf([] {
    VecX e = VecX::Ones(50);
    asm volatile("" : : "g"(e.data()) : "memory");
  });
  CHECK(n == 1);
}

TEST_CASE("operational alloc: no allocation per call after the first (puma560, prototype-4a, all and linear rows)",
          "[dynamics][operational]") {
  for (const char* name : {"puma560", "prototype-4a"}) {
    const Model m = builtinModel(name);
    Data d(m);
    std::mt19937 rng(11);
    std::vector<VecX> qs;
    for (int k = 0; k < 50; ++k) qs.push_back(test::randomConfiguration(m, rng));
    for (TaskRows rows : {TaskRows::All, TaskRows::Linear}) {
      CartesianInertia c;
      DynamicManipulability r;
      cartesianInertia(m, d, qs[0], {}, c, rows);  // sizes the results
      dynamicManipulability(m, d, qs[0], {}, r, rows);
      double sum = 0;
      const long n = allocationsOf([&] {
        for (const VecX& q : qs) {
          cartesianInertia(m, d, q, {}, c, rows);
          dynamicManipulability(m, d, q, {}, r, rows);
          sum += c.Lambda(0, 0) + r.yoshikawa;
        }
      });
      INFO(name << " rows " << toString(rows));
      CHECK(n == 0);
      CHECK(std::isfinite(sum));
    }
  }
}
