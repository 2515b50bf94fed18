// achain closure: Freeman's five-bar (App. C) from the built-in robot file, Table C-3's loads, re-actuation
// and the errors for robots without a loop and wrong coordinate counts.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>

#include "cli_runner.hpp"

using achain::test::runCli;

TEST_CASE("achain closure: five-bar reproduces Table C-3's T_w (0.0504 in·lbf, 0.0688 lbf, −0.1476 lbf, −0.826 in·lbf)",
          "[cli][dynamics][closed]") {
  const auto r = runCli("closure --robot five-bar --deg --q 70,90 --qd 114.59155902616465,171.88733853924697 "
                        "--qdd 57.29577951308232,28.64788975654116 --actuate 0,1");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  const double inlbf = 0.1129848290276167, lbf = 4.4482216152605, deg = 3.141592653589793 / 180;
  const double q_ref[4] = {70, -35, -100, -25};
  for (int i = 0; i < 4; ++i) CHECK(j["q"][i].get<double>() / deg == Approx(q_ref[i]).margin(1e-5));
  CHECK(j["T_y"][0].get<double>() / inlbf == Approx(0.0504).epsilon(0.005));
  CHECK(j["T_c"][0].get<double>() / lbf == Approx(0.0688).epsilon(0.005));
  CHECK(j["T_c"][1].get<double>() / lbf == Approx(-0.1476).epsilon(0.005));
  CHECK(j["T_y"][1].get<double>() / inlbf == Approx(-0.826).epsilon(0.005));
  CHECK(j["qd"][1].get<double>() + j["qd"][0].get<double>() == Approx(-0.0743).margin(5e-5));  // ψ̇
  CHECK(j["w"]["Istar"].size() == 4);
  CHECK(j["H_phi_ww"].size() == 4);
  // Re-actuated at joints 0 and 1: the same power, T_q·q̇ = T_y·ẏ.
  const auto& ra = j["reactuated"];
  const double p_y = j["T_y"][0].get<double>() * 2 + j["T_y"][1].get<double>() * 3;
  const double p_q = ra["T_q"][0].get<double>() * j["qd"][0].get<double>() + ra["T_q"][1].get<double>() * j["qd"][1].get<double>();
  CHECK(p_q == Approx(p_y).epsilon(1e-9));
}

TEST_CASE("achain closure: clear errors", "[cli][closed]") {
  auto r = runCli("closure --robot planar-2r");
  CHECK(r.status == 1);
  CHECK(r.err.find("no loop section") != std::string::npos);
  r = runCli("closure --robot five-bar --q 70");
  CHECK(r.status == 1);
  CHECK(r.err.find("--q: expected 2 values") != std::string::npos);
  r = runCli("closure --robot five-bar --q 70,90 --deg --actuate 0");
  CHECK(r.status == 1);
  CHECK(r.err.find("2 degrees of freedom") != std::string::npos);
  r = runCli("closure --robot five-bar --q 180,270 --deg");  // A to B 50.4 in apart, the links reach 48
  CHECK(r.status == 1);
  CHECK(r.err.find("loop cannot close") != std::string::npos);
  const auto h = runCli("--help");
  CHECK(h.out.find("closure") != std::string::npos);
}

TEST_CASE("achain closure --duration: the free five-bar keeps its energy, a constant torque feeds it", "[cli][dynamics][closed]") {
  auto r = runCli("closure --robot five-bar --deg --q 70,90 --qd 30,-20 --duration 0.1 --dt 0.002");
  REQUIRE(r.status == 0);
  auto j = r.json();
  const auto& e = j["sim"]["energy"];
  REQUIRE(e.size() == 51);
  CHECK(j["sim"]["t"][50].get<double>() == Approx(0.1));
  double drift = 0;
  for (const auto& v : e) drift = std::max(drift, std::abs(v.get<double>() - e[0].get<double>()));
  CHECK(drift < 1e-9 * (1 + std::abs(e[0].get<double>())));
  CHECK(j["sim"]["y"][50][0].get<double>() != Approx(j["sim"]["y"][0][0].get<double>()));
  // A constant torque on crank 1 from rest does positive work: the energy rises.
  r = runCli("closure --robot five-bar --deg --q 70,90 --duration 0.05 --dt 0.001 --tau 0.01,0");
  REQUIRE(r.status == 0);
  j = r.json();
  CHECK(j["sim"]["energy"][50].get<double>() > j["sim"]["energy"][0].get<double>() + 1e-8);
  CHECK(runCli("closure --robot five-bar --duration 0.1 --tau 1").err.find("--tau: expected 2 values") != std::string::npos);
}

TEST_CASE("achain closure --linearize: the closed chain's state model in y, linearize refuses a closed chain by name",
          "[cli][dynamics][closed][linearize]") {
  // Freeman's configuration and motion (q1 = 70°, θz = 90°; ẏ = (2, 3), ÿ = (1, 0.5)): x = (y, ẏ), inputs T_y
  const auto j = runCli("closure --robot five-bar --q 70,90 --deg --qd 2,3 --qdd 1,0.5 --linearize").json();
  const auto& l = j["linearized"];
  REQUIRE(l["A"].size() == 4);
  CHECK(l["states"] == nlohmann::json({"y1", "y2", "yd1", "yd2"}));
  CHECK(l["inputs"] == nlohmann::json({"T_y1", "T_y2"}));
  // I*_yy is the closure's own y model, B's lower block its inverse
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) CHECK(l["Istar"][r][c].get<double>() == Approx(j["y"]["Istar"][r][c].get<double>()).epsilon(1e-12));
  const double det = l["Istar"][0][0].get<double>() * l["Istar"][1][1].get<double>() - l["Istar"][0][1].get<double>() * l["Istar"][1][0].get<double>();
  CHECK(l["B"][2][0].get<double>() == Approx(l["Istar"][1][1].get<double>() / det).epsilon(1e-9));
  CHECK(l["poles"].size() == 4);
  const auto e = runCli("linearize --robot five-bar --q 0,0,0,0");
  CHECK(e.status != 0);
  CHECK(e.err.find("closed chain") != std::string::npos);
  CHECK(e.err.find("achain closure --robot five-bar --linearize") != std::string::npos);
}
