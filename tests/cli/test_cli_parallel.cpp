// achain parallel: Freeman's App. E robot from the built-in parallel robot file (Table E-1's hand-referenced leg 1,
// Table E-2's I*_ww, the round trip to I*_qq = diag(1, 2, 3) in·lbf·s², P*_qqq = 0), the Stewart platform's loads
// and the errors.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>

#include "cli_runner.hpp"

using achain::test::runCli;

TEST_CASE("achain parallel: parallel-3rrr reproduces Table E-1/E-2 and the round trip to diag(1, 2, 3)",
          "[cli][dynamics][closed][parallel]") {
  const auto r = runCli("parallel --robot parallel-3rrr --wd 0.00762,-0.00508,0.5 --wdd -0.0254,0.01016,2");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  const double in = 0.0254, I = 0.1129848290276167;  // m per in, kg·m² per in·lbf·s²
  CHECK(j["space"] == "planar");
  REQUIRE(j["legs"].size() == 3);
  const auto& G = j["legs"][0]["G_phi_w"];  // [_1G^φ_w], x and y columns per inch
  const double Gref[3][3] = {{-0.637, 0.225, -0.513}, {0.758, 0.439, -0.001}, {-0.122, -0.664, 1.514}};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) CHECK(G[i][k].get<double>() * (k < 2 ? in : 1) == Approx(Gref[i][k]).margin(0.001));
  const auto& Iw = j["w"]["Istar"];  // Table E-2 (derived values)
  const double Iref[3][3] = {{1.227, 0.369, -0.590}, {0.369, 1.510, -0.110}, {-0.590, -0.110, 1.581}};
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 3; ++c)
      CHECK(Iw[a][c].get<double>() * std::pow(in, (a < 2) + (c < 2)) / I == Approx(Iref[a][c]).margin(0.001));
  const auto& act = j["actuated"];
  CHECK(act["joints"][1][1] == "base");
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 3; ++c) {
      CHECK(act["q"]["Istar"][a][c].get<double>() / I == Approx(a == c ? a + 1 : 0).margin(1e-10));
      for (int p = 0; p < 3; ++p) CHECK(std::abs(act["q"]["Pstar"][p][a][c].get<double>()) / I < 1e-10);
    }
  for (int n = 0; n < 3; ++n)  // each actuator drives its own base link: T_q = I_n q̈_n
    CHECK(act["T_q"][n].get<double>() == Approx((n + 1) * I * act["qdd"][n].get<double>()).epsilon(1e-9));
}

TEST_CASE("achain parallel: stewart-6ups holds its platform, --deg poses", "[cli][dynamics][closed][parallel]") {
  auto r = runCli("parallel --robot stewart-6ups --pose 0.03,-0.02,0.62,5,-4,8 --deg");
  REQUIRE(r.status == 0);
  auto j = r.json();
  CHECK(j["space"] == "spatial");
  CHECK(j["pose"][5].get<double>() == Approx(8 * 3.141592653589793 / 180).margin(1e-12));
  REQUIRE(j["actuated"]["T_q"].size() == 6);
  double up = 0;  // at rest the actuators carry the weight: Σ T_q,i (u_i)_z = the weight of everything
  for (int i = 0; i < 6; ++i) {
    CHECK(j["actuated"]["T_q"][i].get<double>() > 0);
    up += j["actuated"]["T_q"][i].get<double>() * j["actuated"]["G_q_w"][i][2].get<double>();
  }
  CHECK(up > 10 * 9.80665);  // the platform alone; the legs add their share
  CHECK(up < (10 + 6 * 3) * 9.80665);
}

TEST_CASE("achain parallel: clear errors", "[cli][closed][parallel]") {
  auto r = runCli("parallel --robot five-bar");
  CHECK(r.status == 1);
  // one lookup for every built-in: five-bar is found, and is a closed chain, not a parallel robot file
  CHECK(r.err.find("five-bar: not a parallel robot file (no parallel section)") != std::string::npos);
  r = runCli("parallel --robot parallel-3rrr --wd 1,2");
  CHECK(r.status == 1);
  CHECK(r.err.find("--wd: expected 3 values") != std::string::npos);
  r = runCli("parallel --robot parallel-3rrr --pose 0.2,0,0");
  CHECK(r.status == 1);
  CHECK(r.err.find("out of this leg's reach") != std::string::npos);
  const auto h = runCli("--help");
  CHECK(h.out.find("parallel") != std::string::npos);
}
