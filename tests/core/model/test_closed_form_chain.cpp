// The closed-form IK's chain constants are the Model's (model/closed_form_chain.hpp): derived by finalize from the
// description, equal to what the class checks say, rebuilt when the description changes, and nothing of them
// is kept in Data (a Data made before a change is refused, so old constants cannot be used).
#include <catch2/catch.hpp>

#include <achain/ik/closed_form.hpp>
#include <achain/io/robot.hpp>
#include <achain/io/urdf.hpp>
#include <achain/model/closed_form_chain.hpp>
#include <achain/model/robots.hpp>

#include "helpers.hpp"

using namespace achain;

TEST_CASE("closed-form chain: every built-in's class equals the class checks", "[model][ik]") {
  int with = 0;
  for (const BuiltinRobot& r : builtinRobots()) {
    INFO(r.name);
    const Model m = builtinModel(r.name);
    const int expect = isPrototypeClass(m)      ? ClosedFormChain::kPrototype
                       : isWristPartitioned6R(m) ? ClosedFormChain::kWrist6R
                                                 : ClosedFormChain::kNone;
    CHECK(m.closed_form.cls == expect);
    CHECK(hasClosedForm(m) == (expect != ClosedFormChain::kNone));
    with += expect != ClosedFormChain::kNone;
    if (expect == ClosedFormChain::kNone) continue;
    CHECK(m.closed_form.nq == m.nq);
    for (int i = 0; i < m.nq; ++i) CHECK(m.closed_form.limits[i] == m.joints[i].limits);
  }
  CHECK(with >= 3);  // puma560, prototype-4a, prototype-4r at least
}

TEST_CASE("closed-form chain: follows the description (a changed link length moves the solutions)", "[model][ik]") {
  Model m = builtinModel("puma560");
  REQUIRE(m.closed_form.cls == ClosedFormChain::kWrist6R);
  const double a2 = m.closed_form.a[1];
  const VecX q = (VecX(6) << 0.3, -0.5, 0.4, 0.2, 0.7, -0.1).finished();
  const SE3 T = test::fkPose(m, q);

  m.joints[1].a += 0.05;  // a longer upper arm
  m.finalize();
  CHECK(m.closed_form.a[1] == Approx(a2 + 0.05).margin(1e-15));
  // the new chain's FK of q is reached again by its own closed form, and the old target's solutions differ
  Data data(m);
  const SE3 T2 = test::fkPose(m, q);
  IkAllResult r = ikAll(m, data, T2, IkMethod::Closed, IkOptions{}, &q);
  REQUIRE(r.status == IkStatus::Ok);
  CHECK((r.solutions[0].q - q).cwiseAbs().maxCoeff() < 1e-9);
  CHECK((T2.p - T.p).norm() > 1e-3);

  // a class change: a non-parallel axis 2/3 leaves the wrist-partitioned class
  m.joints[1].alpha = 0.3;
  m.finalize();
  CHECK(m.closed_form.cls == ClosedFormChain::kNone);
  CHECK_FALSE(hasClosedForm(m));
  CHECK_THROWS_WITH(ikAll(m, T, IkMethod::Closed, IkOptions{}), Catch::Contains("no closed form"));
}

TEST_CASE("closed-form chain: a chain placed by origin/axis has its extracted DH constants", "[model][ik]") {
  Model m = builtinModel("prototype-4a");
  // the same chain, joints placed by origin/axis (as a URDF would)
  const Model u = modelFromUrdfString(modelToUrdf(m));
  REQUIRE_FALSE(u.has_dh);
  CHECK(u.closed_form.cls == ClosedFormChain::kPrototype);
  for (int i = 0; i < 4; ++i) CHECK(u.closed_form.period[i] == Approx(m.closed_form.period[i]));
}
