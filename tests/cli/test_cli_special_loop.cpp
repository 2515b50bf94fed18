// achain special-loop (App. D: the spatial slider-crank built-in and a Bricard 6R fixture), achain parallel --actuate
// with more actuators than freedoms (the over-constrained minimum-norm split, 4-80…4-90) and achain redundant (the
// kinetic-energy-weighted pseudo-inverse split, 4-65…4-75), with the numbers checked against identities.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include <Eigen/Dense>

#include "cli_runner.hpp"
#include "test_paths.hpp"

using achain::test::runCli;

namespace {

Eigen::MatrixXd mat(const nlohmann::json& j) {
  Eigen::MatrixXd m(j.size(), j[0].size());
  for (size_t i = 0; i < j.size(); ++i)
    for (size_t k = 0; k < j[0].size(); ++k) m(i, k) = j[i][k].get<double>();
  return m;
}
Eigen::VectorXd vec(const nlohmann::json& j) {
  Eigen::VectorXd v(j.size());
  for (size_t i = 0; i < j.size(); ++i) v[i] = j[i].get<double>();
  return v;
}
const std::string kBricard = achain::test::sourceDir() + "/tests/fixtures/loops/bricard-6r.json";

}  // namespace

TEST_CASE("achain special-loop: the spatial slider-crank (2 freedoms, Zp in closed form) agrees with achain closure",
          "[cli][dynamics][closed][special]") {
  const std::string args = " --robot spatial-slider-crank --deg --q 75,40 --qd 60,-30 --qdd 100,20";
  const auto r = runCli("special-loop" + args);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["rank"] == 6);
  CHECK(j["grubler"] == 2);
  CHECK(j["freedoms"] == 2);
  CHECK(j["coordinates"][1] == "spin");
  const double t = 75 * M_PI / 180, s = std::sin(20 * M_PI / 180), c = std::cos(20 * M_PI / 180);
  const double Cx = 0.04 + 0.06 * std::cos(t), Cy = 0.03 + 0.06 * s * std::sin(t), Cz = -0.06 * c * std::sin(t);
  CHECK(j["q"][7].get<double>() == Approx(Cz + std::sqrt(0.04 - Cx * Cx - Cy * Cy)).epsilon(1e-12));
  CHECK(std::abs(j["G_phi_y"][7][1].get<double>()) < 1e-14);  // the spin does not move the slider
  // the single-loop transfer of the same weld gives the same loads
  const auto k = runCli("closure" + args);
  REQUIRE(k.status == 0);
  const auto kj = k.json();
  for (int a = 0; a < 2; ++a)
    CHECK(j["T_y"][a].get<double>() == Approx(kj["T_y"][a].get<double>()).epsilon(1e-10).margin(1e-12));
  for (int i = 0; i < 8; ++i) CHECK(j["qdd"][i].get<double>() == Approx(kj["qdd"][i].get<double>()).epsilon(1e-9).margin(1e-12));
}

TEST_CASE("achain special-loop: a Bricard 6R robot file (rank 5, Grübler 0, one freedom) and clear errors",
          "[cli][dynamics][closed][special]") {
  const auto r = runCli("special-loop --robot " + kBricard + " --qd 1.5");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["rank"] == 5);
  CHECK(j["grubler"] == 0);
  CHECK(j["freedoms"] == 1);
  CHECK(j["compatibility"].get<double>() < 1e-10);
  const Eigen::MatrixXd Gc = mat(j["G_c_phi"]), G = mat(j["G_phi_y"]);
  CHECK((Gc * G).cwiseAbs().maxCoeff() < 1e-12);  // (D-1)
  CHECK(G(0, 0) == 1);
  // T_y at ÿ = 0: I*_yy·0 + P*_yyy ẏ² − T^L_y
  const double Ty = j["y"]["Pstar"][0][0][0].get<double>() * 2.25 - j["y"]["TL"][0].get<double>();
  CHECK(j["T_y"][0].get<double>() == Approx(Ty).epsilon(1e-12));
  auto e = runCli("special-loop --robot spatial-slider-crank --coordinates crank");
  CHECK(e.status == 1);
  CHECK(e.err.find("1 coordinates chosen, but the loop has 2 freedoms here (M − rank[G^c_φ] = 8 − 6") != std::string::npos);
  e = runCli("special-loop --robot " + kBricard + " --rows x,q");
  CHECK(e.status == 1);
  CHECK(e.err.find("--rows: q is not an influence row") != std::string::npos);
  e = runCli("special-loop --robot spatial-slider-crank --qd 1");
  CHECK(e.status == 1);
  CHECK(e.err.find("--qd: expected 2 values, one per coordinate") != std::string::npos);
  e = runCli("special-loop --robot puma560");
  CHECK(e.status == 1);
  CHECK(e.err.find("no loop section") != std::string::npos);
}

TEST_CASE("achain parallel --actuate: over-constrained minimum-norm split reproduces T_w (Freeman 4-80…4-86)",
          "[cli][dynamics][closed][parallel]") {
  for (const std::string& cmd :
       {std::string("parallel --robot stewart-6ups --actuate 0:P,1:P,2:P,3:P,4:P,5:P,0:U1,3:U2 --wd 0.1,0,0.05,0,0.2,0 "
                    "--wdd 0.5,0,0.2,0,0,1"),
        std::string("parallel --robot parallel-3rrr --actuate 0:0,1:0,2:0,0:1,1:1,2:1 --wd 0.01,-0.02,0.5 --wdd 0.1,0.05,2")}) {
    const auto r = runCli(cmd);
    REQUIRE(r.status == 0);
    const auto j = r.json();
    const auto& o = j["overconstrained"];
    const Eigen::MatrixXd G = mat(o["G_q_w"]);
    const Eigen::VectorXd Tq = vec(o["T_q"]), Tw = vec(j["T_w"]);
    const int N = static_cast<int>(Tw.size()), Q = static_cast<int>(Tq.size());
    CHECK(Q > N);
    // Σ over the actuators of [G^q_w]ᵀ T_q = T_w (4-80)
    CHECK((G.transpose() * Tq - Tw).cwiseAbs().maxCoeff() < 1e-10 * (1 + Tw.cwiseAbs().maxCoeff()));
    CHECK(o["residual"].get<double>() < 1e-10 * (1 + Tw.cwiseAbs().maxCoeff()));
    // the file's N actuators alone (the others idle) also hold the platform; the split is that plus a null-space
    // load, and the minimum-norm one is orthogonal to it (4-85)
    Eigen::VectorXd Tn = Eigen::VectorXd::Zero(Q);
    const Eigen::VectorXd Tdecl = vec(j["actuated"]["T_q"]);
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < Q; ++k)
        if (o["joints"][k] == j["actuated"]["joints"][n]) Tn[k] = Tdecl[n];
    CHECK((G.transpose() * Tn - Tw).cwiseAbs().maxCoeff() < 1e-9 * (1 + Tw.cwiseAbs().maxCoeff()));
    CHECK(std::abs(Tq.dot(Tn - Tq)) < 1e-9 * Tn.squaredNorm());
    CHECK(Tq.norm() < Tn.norm());
    // and it equals the least-norm solution of [G^q_w]ᵀ T = T_w
    const Eigen::VectorXd Tmin = G.transpose().completeOrthogonalDecomposition().solve(Tw);
    CHECK((Tq - Tmin).cwiseAbs().maxCoeff() < 1e-9 * (1 + Tmin.cwiseAbs().maxCoeff()));
  }
  auto e = runCli("parallel --robot stewart-6ups --actuate 0:P,1:P");
  CHECK(e.status == 1);
  CHECK(e.err.find("--actuate: the platform has 6 freedoms; 2 actuated joints cannot drive it") != std::string::npos);
  e = runCli("parallel --robot stewart-6ups --actuate 0:P,1:P,2:P,3:P,4:P,9:P");
  CHECK(e.status == 1);
  CHECK(e.err.find("no leg 9 (legs 0…5)") != std::string::npos);
  e = runCli("parallel --robot stewart-6ups --actuate 0:P,1:P,2:P,3:P,4:P,5:Q");
  CHECK(e.status == 1);
  CHECK(e.err.find("leg 5 has no joint Q") != std::string::npos);
}

TEST_CASE("achain redundant: KE-weighted pseudo-inverse split of a 3-D task on the PUMA (Freeman 4-70…4-75)",
          "[cli][dynamics][closed]") {
  const auto r = runCli("redundant --robot puma560 --q 0.1,0.5,-0.3,0.2,0.4,0.1 --rows x,y,z --ud 0.1,0.2,0 --udd 1,0,0.5");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  const Eigen::MatrixXd G = mat(j["G_u_q"]), I = mat(j["q_model"]["Istar"]);
  const Eigen::VectorXd qd = vec(j["qd"]), Tq = vec(j["T_q"]), TL = vec(j["q_model"]["TL"]);
  CHECK((G * qd - Eigen::Vector3d(0.1, 0.2, 0)).cwiseAbs().maxCoeff() < 1e-12);
  const Eigen::MatrixXd Nn = G.fullPivLu().kernel();  // the self-motions (3 of them)
  REQUIRE(Nn.cols() == 3);
  // the rates are the KE-minimal ones: I*-orthogonal to every self-motion, so any other rates cost more
  CHECK((Nn.transpose() * I * qd).cwiseAbs().maxCoeff() < 1e-12);
  const double ke = j["kinetic_energy"].get<double>();
  CHECK(ke == Approx(0.5 * qd.dot(I * qd)).epsilon(1e-12));
  const Eigen::VectorXd other = qd + 0.05 * Nn.col(0);
  CHECK(0.5 * other.dot(I * other) > ke);
  // at rest the inertial loads T = T_q + T^L_q are the KE-weighted minimum (min Tᵀ I*⁻¹ T with G I*⁻¹ T = ü):
  // T = Gᵀλ, orthogonal to every self-motion
  const auto s = runCli("redundant --robot puma560 --q 0.1,0.5,-0.3,0.2,0.4,0.1 --rows x,y,z --udd 1,0,0.5");
  REQUIRE(s.status == 0);
  const Eigen::VectorXd Ti = vec(s.json()["T_q"]) + TL;
  CHECK((Nn.transpose() * Ti).cwiseAbs().maxCoeff() < 1e-10 * Ti.norm());
  CHECK((G * I.ldlt().solve(Ti) - Eigen::Vector3d(1, 0, 0.5)).cwiseAbs().maxCoeff() < 1e-10);  // it gives ü
  CHECK(Ti.norm() > 0.1);
  const auto e = runCli("redundant --robot puma560 --q 0,0,0,0,0,0 --rows x,y,z,wx,wy,wz");
  CHECK(e.status == 1);
  CHECK(e.err.find("--rows: 6 task rows for 6 joints") != std::string::npos);
  const auto h = runCli("--help");
  for (const char* c : {"special-loop", "redundant", "parallel"}) CHECK(h.out.find(c) != std::string::npos);
}
