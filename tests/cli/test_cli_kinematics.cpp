// CLI contract of the differential-kinematics subcommands: jacobian, influence, manipulability, statics.
#include <string>

#include "cli_runner.hpp"
#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include "kinematics_test_support.hpp"
#include <achain/io/robot.hpp>

using namespace achain;
using nlohmann::json;
using test::CliResult;
using test::runCli;

namespace {
MatX matrix(const json& j) {
  MatX M(j.size(), j.at(0).size());
  for (size_t r = 0; r < j.size(); ++r)
    for (size_t c = 0; c < j[r].size(); ++c) M(r, c) = j[r][c].get<double>();
  return M;
}
}  // namespace

TEST_CASE("achain jacobian: the thesis's 4A-chain Jacobian at the IK example (acceptance)", "[cli][kinematics]") {
  const CliResult r = runCli("jacobian --robot prototype-4a --q 84.107,224.203,106.791,236.997 --deg");
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  const MatX J = matrix(j.at("J"));
  REQUIRE(J.rows() == 6);
  REQUIRE(J.cols() == 4);
  MatX E = test::thesisJacobian((VecX(4) << 84.107, 224.203, 106.791, 236.997).finished() * kDeg);
  E.topRows<3>() *= test::kInch;
  CHECK((J - E).cwiseAbs().maxCoeff() < 1e-14);
  CHECK(j.at("rank") == 4);
}

TEST_CASE("achain jacobian: --point/--link, --frame tool, --qd, --analytic agree with the library", "[cli][kinematics]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  const VecX q = (VecX(6) << 0.1, 0.7, -1.9, 0.4, 0.8, -0.3).finished();
  const VecX qd = (VecX(6) << 0.5, -0.2, 0.3, 1.0, -0.4, 0.2).finished();
  forwardKinematics(m, d, q);
  const CliResult r = runCli("jacobian --robot puma560 --q 0.1,0.7,-1.9,0.4,0.8,-0.3 --point 0.01,0.02,0.03 --link 2 "
                          "--qd 0.5,-0.2,0.3,1.0,-0.4,0.2");
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  MatX J(6, 6), Jd(6, 6);
  pointJacobian(m, d, 2, Vec3(0.01, 0.02, 0.03), J);
  pointJacobianDerivative(m, d, 2, Vec3(0.01, 0.02, 0.03), qd, Jd);
  CHECK((matrix(j.at("J")) - J).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((matrix(j.at("Jdot")) - Jd).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(j.at("link") == 2);
  const CliResult rt = runCli("jacobian --robot puma560 --q 0.1,0.7,-1.9,0.4,0.8,-0.3 --frame tool --analytic");
  REQUIRE(rt.status == 0);
  const json jt = json::parse(rt.out);
  toolJacobian(m, d, J, Frame::Tool);
  CHECK((matrix(jt.at("J")) - J).cwiseAbs().maxCoeff() < 1e-15);
  analyticalJacobian(m, d, J);
  CHECK((matrix(jt.at("Ja")) - J).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("achain influence: G, H (and D) as nested arrays, acceleration and jerk", "[cli][kinematics]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  const VecX q = (VecX(4) << 100, 150, 200, 250).finished() * kDeg;
  forwardKinematics(m, d, q);
  Influence inf;
  toolInfluence(m, d, inf, 3);
  const CliResult r = runCli("influence --robot prototype-4a --q 100,150,200,250 --deg --order 3 --qd 0.1,0.2,0.3,0.4 "
                          "--qdd 1,0,-1,0.5 --qddd 0,1,0,1");
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  CHECK((matrix(j.at("G")) - inf.G).cwiseAbs().maxCoeff() < 1e-15);
  REQUIRE(j.at("H").size() == 6);
  for (int p = 0; p < 6; ++p) CHECK((matrix(j.at("H")[p]) - MatX(inf.H.plane(p))).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(j.at("D")[2][1][3][3].get<double>() == Approx(inf.D(2, 1, 3, 3)).margin(1e-15));
  VecX acc(6);
  // --deg converts the rates too (deg/s, deg/s², deg/s³)
  const VecX v = (VecX(4) << 0.1, 0.2, 0.3, 0.4).finished() * kDeg, a = (VecX(4) << 1, 0, -1, 0.5).finished() * kDeg;
  influenceAcceleration(inf.G, inf.H, v, a, acc);
  for (int p = 0; p < 6; ++p) CHECK(j.at("acceleration")[p].get<double>() == Approx(acc[p]).margin(1e-15));
  CHECK(j.at("jerk").size() == 6);
}

TEST_CASE("achain manipulability: the 4A-chain at 180 deg is rank 3 with named singularities", "[cli][kinematics]") {
  const CliResult r = runCli("manipulability --robot prototype-4a --q 180,180,180,180 --deg");
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("rank") == 3);
  CHECK(j.at("condition").is_null());  // +inf
  int axial = 0;
  for (const auto& s : j.at("singularities")) axial += s.at("kind") == "apair-axial";
  CHECK(axial == 4);
  CHECK(j.at("linear").at("force_ellipsoid").at("radii")[1].is_null());  // unbounded: borne by the structure
  const CliResult ok = runCli("manipulability --robot puma560 --q 0,45,180,0,45,0 --deg");
  REQUIRE(ok.status == 0);
  const json k = json::parse(ok.out);
  CHECK(k.at("rank") == 6);
  CHECK(k.at("singularities").empty());
  CHECK(k.at("yoshikawa").get<double>() > 0);
}

TEST_CASE("achain statics: tau = J^T F", "[cli][kinematics]") {
  const CliResult r = runCli("statics --robot prototype-4a --q 180,180,180,180 --deg --wrench 0,3,-7,2,0,0");
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  for (const auto& t : j.at("tau")) CHECK(std::abs(t.get<double>()) < 1e-12);
  const CliResult r2 = runCli("statics --robot planar-2r --q 0,90 --deg --wrench 0,0,0,0,0,1");
  REQUIRE(r2.status == 0);
  const json j2 = json::parse(r2.out);
  // a pure moment about the joint axes: both joints carry it (axes ∥ base z or −z depending on the model)
  CHECK(std::abs(j2.at("tau")[0].get<double>()) == Approx(std::abs(j2.at("tau")[1].get<double>())));
}

TEST_CASE("kinematics subcommands name the bad option and exit 1", "[cli][kinematics][errors]") {
  const CliResult a = runCli("jacobian --robot puma560 --q 0,0,0,0,0,0 --frame world");
  CHECK(a.status == 1);
  CHECK(a.err.find("--frame") != std::string::npos);
  const CliResult b = runCli("jacobian --robot puma560 --q 0,0,0,0,0,0 --link 9");
  CHECK(b.status == 1);
  CHECK(b.err.find("--link") != std::string::npos);
  const CliResult c = runCli("influence --robot puma560 --q 0,0,0,0,0,0 --point 1,2");
  CHECK(c.status == 1);
  CHECK(c.err.find("--point") != std::string::npos);
  const CliResult e = runCli("influence --robot puma560 --q 0,0,0,0,0,0 --order 5");
  CHECK(e.status == 1);
  CHECK(e.err.find("order") != std::string::npos);
  const CliResult f = runCli("statics --robot puma560 --q 0,0,0,0,0,0 --wrench 1,2,3");
  CHECK(f.status == 1);
  CHECK(f.err.find("--wrench") != std::string::npos);
  const CliResult g = runCli("influence --robot puma560 --q 0,0,0,0,0,0 --qd 1,1,1,1,1,1");
  CHECK(g.status == 1);
  CHECK(g.err.find("--qdd") != std::string::npos);
}
