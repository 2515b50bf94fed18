// Data is only scratch, made for one Model: what the algorithms derive from the description (the dynamics'
// bodies, the A-pair legs) lives in the Model, and a Data used with another model is an error, even when the
// other model has the same size.
#include <catch2/catch.hpp>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/model/data.hpp>

using namespace achain;

TEST_CASE("a Data made for one model is refused by another model of the same size", "[model][data]") {
  const Model a = builtinModel("puma560");
  Model b = a;
  b.joints[2].link.mass *= 2;  // the same size and kinematics, other dynamics
  b.finalize();
  REQUIRE(a.nv == b.nv);
  REQUIRE(a.njoints() == b.njoints());
  CHECK(a.fingerprint != b.fingerprint);

  Data da(a);
  const VecX q = VecX::Constant(6, 0.3), zero = VecX::Zero(6);
  VecX tau(6);
  MatX M(6, 6);
  // with its own model it runs; with the other one every entry point refuses it, naming why
  CHECK_NOTHROW(inverseDynamics(a, da, q, zero, zero, DynamicsOptions{}, tau));
  CHECK_THROWS_WITH(inverseDynamics(b, da, q, zero, zero, DynamicsOptions{}, tau),
                    Catch::Contains("data: made for another model than 'puma560'"));
  CHECK_THROWS_WITH(forwardKinematics(b, da, q), Catch::Contains("made for another model"));
  CHECK_THROWS_WITH(massMatrix(b, da, q, DynamicsOptions{}, M), Catch::Contains("made for another model"));
  // and a Data of another size names both sizes
  const Model two = builtinModel("planar-2r");
  CHECK_THROWS_WITH(forwardKinematics(two, da, VecX::Zero(2)), Catch::Contains("made for a model with 6 joints"));

  // a copy of the model (same description) shares its Data; the doubled mass shows in the torques
  const Model a_copy = a;
  CHECK(a_copy.fingerprint == a.fingerprint);
  Data db(b);
  VecX tau_b(6), tau_copy(6);
  inverseDynamics(a_copy, da, q, zero, zero, DynamicsOptions{}, tau_copy);
  inverseDynamics(b, db, q, zero, zero, DynamicsOptions{}, tau_b);
  CHECK(tau_copy.isApprox(tau, 1e-15));
  CHECK(std::abs(tau_b[1] - tau[1]) > 1e-3);  // the shoulder carries the heavier link 3
}

TEST_CASE("the dynamics' bodies and the A-pair legs are derived by the Model", "[model][data]") {
  const Model m = builtinModel("prototype-4a");
  // six legs per A-pair with leg mass, each anchored on its parent (base frame for joint 0) and its own link
  int with_legs = 0;
  for (const Joint& j : m.joints) with_legs += j.leg_mass > 0 ? 1 : 0;
  REQUIRE(with_legs > 0);
  CHECK(static_cast<int>(m.legs.size()) == 6 * with_legs);
  const auto& massless = m.bodies[static_cast<int>(LegModel::Massless)];
  const auto& lumped = m.bodies[static_cast<int>(LegModel::Lumped)];
  const auto& full = m.bodies[static_cast<int>(LegModel::Full)];
  double legs_total = 0, massless_total = 0, lumped_total = 0, full_total = 0;
  for (const DynLeg& L : m.legs) legs_total += L.mass;
  for (int i = 0; i < m.njoints(); ++i) {
    CHECK(massless[i].mass == m.joints[i].link.mass);
    massless_total += massless[i].mass;
    lumped_total += lumped[i].mass;
    full_total += full[i].mass;
  }
  // Lumped adds all six legs to the link; Full puts a sixth of each leg at each end as a point mass (the end on
  // the base is not a body), the rest of the leg's inertia entering through the legs themselves
  CHECK(lumped_total == Approx(massless_total + legs_total).epsilon(1e-12));
  double parent_ends = 0;
  for (const DynLeg& L : m.legs)
    if (L.parent >= 0) parent_ends += L.mass / 6;
  CHECK(full_total == Approx(massless_total + legs_total / 6 + parent_ends).epsilon(1e-12));
}
