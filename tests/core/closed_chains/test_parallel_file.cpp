// Parallel robot files (io/parallel_json.hpp, closed_chains/parallel_robot.hpp): Freeman's App. E robot from the built-in
// file parallel-3rrr (Tables E-1, E-2 to ±0.001 in Freeman's in/lbf/s units after the digest's errata, and the
// round trip to I*_qq = diag(1, 2, 3), P*_qqq = 0), the legs' inverse kinematics, and the errors for bad files.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>

#include "helpers.hpp"
#include <achain/closed_chains/parallel_robot.hpp>
#include <achain/io/parallel_json.hpp>
#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>

#include "table_check.hpp"

using namespace achain;
using nlohmann::json;

namespace {

constexpr double kInLbfS2 = 0.1129848290276167;  // kg·m² per in·lbf·s²

// Freeman's units for App. E: the w components x, y are lengths (in), θ an angle; inertia in in·lbf·s².
double lengthPower(int a, int b = -1, int c = -1) {
  auto n = [](int i) { return (i == 0 || i == 1) ? 1 : 0; };
  return std::pow(test::kInch, n(a) + (b < 0 ? 0 : n(b)) + (c < 0 ? 0 : n(c)));
}

using test::symPlane;
using test::withinAt;

struct Built {
  ParallelRobot robot;
  std::vector<Data> datas;
  ParallelState st;
  explicit Built(ParallelRobot r, const SE3* pose = nullptr) : robot(std::move(r)) {
    for (const Model& m : robot.legs) datas.emplace_back(m);
    parallelAt(robot, datas, pose ? *pose : robot.pose, DynamicsOptions{}, st);
  }
};

json appEDocument() {
  for (const auto& b : builtinParallelRobots())
    if (b.name == "parallel-3rrr") return json::parse(b.json);
  FAIL("no built-in parallel-3rrr");
  return {};
}

}  // namespace

TEST_CASE("parallel-3rrr built-in: Table E-1 (leg 1) and Table E-2 to ±0.001, round trip to diag(1, 2, 3)",
          "[dynamics][closed][parallel]") {
  Built b(loadParallel("parallel-3rrr"));
  const ParallelState& st = b.st;
  const double t = 0.001;
  REQUIRE(b.robot.planar);
  REQUIRE(st.pm.N == 3);
  // Joint-referenced (Table E-1, left): rows x, y (in) and θ of the leg's tool.
  CHECK(withinAt([&](int i, int k) { return st.pm.Gw_phi[0](i, k) / lengthPower(i); },
               {{-1.475, 0, -0.5}, {2.55, 2.28, 0.866}, {1, 1, 1}}, t));
  CHECK(withinAt([&](int i, int k) { return st.pm.Hw_phiphi[0](0, i, k) / test::kInch; },
               {{-2.55, -2.28, -0.866}, {-2.28, -2.28, -0.866}, {-0.866, -0.866, -0.866}}, t));
  CHECK(withinAt([&](int i, int k) { return st.pm.Hw_phiphi[0](1, i, k) / test::kInch; },
               {{-1.475, 0, -0.5}, {0, 0, -0.5}, {-0.5, -0.5, -0.5}}, t));
  CHECK(st.pm.Hw_phiphi[0].plane(2).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(withinAt([&](int i, int k) { return st.pm.legs_phi[0].Istar(i, k) / kInLbfS2; }, {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}},
               1e-12));
  CHECK(st.pm.legs_phi[0].Pstar.maxAbs() < 1e-15);
  // Hand-referenced (Table E-1, right).
  CHECK(withinAt([&](int i, int k) { return st.pm.Gphi_w[0](i, k) * lengthPower(k); },
               {{-0.637, 0.225, -0.513}, {0.758, 0.439, -0.001}, {-0.122, -0.664, 1.514}}, t));
  auto Iw = [&](const MatX& I) { return [&I](int a, int c) { return I(a, c) * lengthPower(a, c) / kInLbfS2; }; };
  CHECK(withinAt(Iw(st.pm.legs_w[0].Istar), {{0.405, -0.143, 0.327}, {-0.143, 0.051, -0.116}, {0.327, -0.116, 0.264}}, t));
  auto Hw = [&](const Tensor3& H, int p) { return [&H, p](int a, int c) { return H(p, a, c) * lengthPower(a, c); }; };
  CHECK(withinAt(Hw(st.pm.Hphi_ww[0], 0), {{0.050, -0.105, 0.116}, {-0.105, -0.439, 0.328}, {0.116, 0.328, -0.665}}, t));
  CHECK(withinAt(Hw(st.pm.Hphi_ww[0], 1), {{0.358, -0.053, 0.225}, {-0.053, 0.419, -0.390}, {0.225, -0.390, 1.327}}, t));
  CHECK(withinAt(Hw(st.pm.Hphi_ww[0], 2), {{-0.408, 0.158, -0.341}, {0.158, 0.019, 0.062}, {-0.341, 0.062, -0.662}}, t));
  auto Pw = [&](const Tensor3& P, int k) {
    const MatX S = symPlane(P, k);
    return [S, k](int a, int c) { return S(a, c) * lengthPower(k, a, c) / kInLbfS2; };
  };
  CHECK(withinAt(Pw(st.pm.legs_w[0].Pstar, 0), {{-0.032, 0.067, -0.074}, {0.067, 0.280, -0.209}, {-0.074, -0.209, 0.423}}, t));
  CHECK(withinAt(Pw(st.pm.legs_w[0].Pstar, 1), {{0.011, -0.024, 0.026}, {-0.024, -0.099, 0.074}, {0.026, 0.074, -0.150}}, t));
  CHECK(withinAt(Pw(st.pm.legs_w[0].Pstar, 2), {{-0.026, 0.054, -0.059}, {0.054, 0.225, -0.168}, {-0.059, -0.168, 0.341}}, t));
  // Table E-2: [G^q_w], I*_ww, [H^q_ww] and P*_www (the digest's derived values where the OCR is damaged).
  CHECK(withinAt([&](int i, int k) { return st.Gq_w(i, k) * lengthPower(k); },
               {{-0.637, 0.225, -0.513}, {0.123, -0.664, -0.513}, {0.513, 0.439, -0.513}}, t));
  CHECK(withinAt(Iw(st.pm.w.Istar), {{1.227, 0.369, -0.590}, {0.369, 1.510, -0.110}, {-0.590, -0.110, 1.581}}, t));
  CHECK(withinAt(Hw(st.Hq_ww, 1), {{-0.407, -0.159, -0.342}, {-0.159, 0.019, -0.064}, {-0.342, -0.064, -0.665}}, t));
  CHECK(withinAt(Hw(st.Hq_ww, 2), {{-0.226, 0.264, 0.226}, {0.264, -0.163, -0.264}, {0.226, -0.264, -0.665}}, t));
  CHECK(withinAt(Pw(st.pm.w.Pstar, 0), {{-0.480, 0.434, 0.190}, {0.434, 0.033, -0.631}, {0.190, -0.631, -0.764}}, t));
  CHECK(withinAt(Pw(st.pm.w.Pstar, 1), {{0.255, 0.536, 0.777}, {0.536, -0.338, -0.189}, {0.777, -0.189, -0.142}}, t));
  CHECK(withinAt(Pw(st.pm.w.Pstar, 2), {{0.740, -0.189, -0.057}, {-0.189, 0.457, 0.304}, {-0.057, 0.304, 2.047}}, t));
  // (E-7): actuated at the base joints, I*_qq = diag(1, 2, 3) in·lbf·s² and P*_qqq = 0.
  CHECK((st.q_model.Istar / kInLbfS2 - Eigen::Vector3d(1, 2, 3).asDiagonal().toDenseMatrix()).cwiseAbs().maxCoeff() < 1e-10);
  CHECK(st.q_model.Pstar.maxAbs() / kInLbfS2 * test::kInch * test::kInch < 1e-10);  // any of its entries in Freeman's units is below
  CHECK(st.q_model.TL.cwiseAbs().maxCoeff() < 1e-12);               // gravity is normal to the plane
}

TEST_CASE("parallel-3rrr: the legs close at any reachable platform pose, and the loads are the platform's",
          "[dynamics][closed][parallel]") {
  const ParallelRobot robot = loadParallel("parallel-3rrr");
  const SE3 X = planarPose(0.1 * test::kInch, -0.15 * test::kInch, 10 * kDeg, robot.pose);
  Built b(robot, &X);
  for (size_t r = 0; r < robot.legs.size(); ++r) {
    forwardKinematics(robot.legs[r], b.datas[r], b.st.q[r]);
    const SE3& T = b.datas[r].oMtool;
    CHECK((T.p - X.p).norm() < 1e-12 * test::kInch);
    CHECK((T.R - X.R).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(b.st.iterations[r] >= 1);
  }
  // Actuator loads for platform rates equal the platform loads by virtual work: T_w = [G^q_w]ᵀ T_q.
  ParallelMotion mo;
  const VecX wd = Eigen::Vector3d(0.3 * test::kInch, -0.2 * test::kInch, 0.5), wdd = Eigen::Vector3d(-1.0 * test::kInch, 0.4 * test::kInch, 2.0);
  parallelMotion(b.st, wd, wdd, mo);
  CHECK((b.st.Gq_w.transpose() * mo.Tq - mo.Tw).cwiseAbs().maxCoeff() < 1e-12 * (1 + mo.Tw.norm()));
  // Each actuator carries only its own base link (E-7): T_q = I_r q̈_r.
  for (int n = 0; n < 3; ++n) CHECK(mo.Tq[n] == Approx((n + 1) * kInLbfS2 * mo.q_dd[n]).epsilon(1e-9));
  for (int n = 0; n < 3; ++n) CHECK(mo.q_dd[n] == Approx(mo.qdd[n][0]).epsilon(1e-12));
}

TEST_CASE("parallel robot files: clear errors naming the field", "[dynamics][closed][parallel]") {
  auto err = [](const json& doc) {
    try {
      const ParallelRobot r = parallelFromJson(doc);
      std::vector<Data> d;
      for (const Model& m : r.legs) d.emplace_back(m);
      ParallelState st;
      parallelAt(r, d, r.pose, DynamicsOptions{}, st);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  json doc = appEDocument();
  CHECK(err(doc) == "no error");

  json d = doc;  // a leg with four joints
  d["parallel"]["legs"][1]["joints"].push_back({{"kind", "R"}, {"a", 1}, {"alpha", 0}});
  CHECK_THAT(err(d), Catch::StartsWith("parallel.legs[1].joints: a planar platform has 3 freedoms") &&
                         Catch::Contains("this leg has 4"));
  d = doc;  // a field of a leg's robot description
  d["parallel"]["legs"][2]["joints"][0]["kind"] = "Q";
  CHECK_THAT(err(d), Catch::StartsWith("parallel.legs[2].joints[0].kind: unknown joint kind"));
  d = doc;  // a platform pose the legs cannot reach
  d["parallel"]["platform"]["pose"]["xyz"] = {5, 0, 0};
  CHECK_THAT(err(d), Catch::StartsWith("parallel.legs[") && Catch::Contains("out of this leg's reach") &&
                         Catch::Contains("loop cannot close"));
  d = doc;  // a leg stretched straight at the platform pose: [G^w_φ] singular
  {
    const double L = 1.499508253 + 1.499798653 + 0.9999779998;  // leg 1's reach, pointing at P
    d["parallel"]["legs"][0]["base"] = {{"xyz", {-L, 0, 0}}, {"rpy", {0, 0, 0}}};
    d["parallel"]["legs"][0]["tool"] = json::object();
    d["parallel"]["legs"][0]["assembly"] = {0, 0, 0};
  }
  CHECK_THAT(err(d), Catch::StartsWith("parallel.legs[0] (leg 1): [G^w_φ] is singular"));
  d = doc;  // a joint out of the plane
  d["parallel"]["legs"][0]["joints"][1]["alpha"] = 90;
  CHECK_THAT(err(d), Catch::StartsWith("parallel.legs[0].joints[2]: moves the tool out of the world xy-plane"));
  d = doc;
  d["parallel"]["actuated"].erase(2);
  CHECK_THAT(err(d), Catch::StartsWith("parallel.actuated: a planar platform needs 3 actuated joints"));
  d = doc;
  d["parallel"]["actuated"][2] = {2, "elbow"};
  CHECK_THAT(err(d), Catch::StartsWith("parallel.actuated[2][1]: no joint of this leg is named"));
  d = doc;
  d["parallel"]["legs"][0]["units"] = {{"length", "m"}};
  CHECK_THAT(err(d), Catch::StartsWith("parallel.legs[0].units: given once for the whole file"));
  d = doc;
  d["parallel"]["space"] = "curved";
  CHECK_THAT(err(d), Catch::StartsWith("parallel.space: must be \"planar\" or \"spatial\""));
  d = doc;
  d["parallel"]["legs"][0]["assembly"] = {0, 0};
  CHECK_THAT(err(d), Catch::StartsWith("parallel.legs[0].assembly: must be an array of 3 joint values"));
  d = doc;
  d["parallel"]["platform"]["inertia"] = {1, 1, 1, 0, 0, 0};
  d["parallel"]["platform"]["mass"] = -1;
  CHECK_THAT(err(d), Catch::StartsWith("parallel.platform.mass: must be ≥ 0"));
  CHECK_THROWS_WITH(loadParallel("no-such-parallel"), Catch::Contains("neither a built-in (") && Catch::Contains("parallel-3rrr"));
}
