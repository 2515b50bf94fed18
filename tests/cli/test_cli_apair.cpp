// achain apair-exact: the exact Griffis–Duffy A-pair's closure against Robinson's model and the
// leg-model comparison (the serial full rod equals the exact rods), and the errors.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "cli_runner.hpp"

using achain::test::runCli;

TEST_CASE("achain apair-exact: closure to 1e-9 and the leg-model table (full = exact)", "[cli][dynamics][apair-exact]") {
  const auto r = runCli("apair-exact --robot prototype-4a --joint 1 --deg --theta 60,180,300 --dt 0.01");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  const double rho = 4 * std::sqrt(2.0) * 0.0254;
  CHECK(j["rho"].get<double>() == Approx(rho).epsilon(1e-12));
  CHECK(j["leg_length"].get<double>() == Approx(6 * 0.0254).epsilon(1e-12));
  CHECK(j["closure"]["max_d_error"].get<double>() < 1e-9);
  CHECK(j["closure"]["max_drift"].get<double>() < 1e-9);
  CHECK(j["closure"]["max_direction_error"].get<double>() < 1e-9);
  REQUIRE(j["at"].size() == 3);
  CHECK(j["at"][1]["d"].get<double>() == Approx(rho).epsilon(1e-12));  // d(180°) = ρ
  CHECK(j["at"][0]["d"].get<double>() == Approx(rho / 2).epsilon(1e-12));
  for (const char* m : {"vertical", "horizontal"}) {
    const auto& c = j["single"][m];
    CHECK(c["rows"][2]["legs"] == "full");
    CHECK(c["rows"][2]["max_error"][0].get<double>() < 1e-10 * c["exact_peak"][0].get<double>());
    CHECK(c["rows"][0]["max_error"][0].get<double>() > 1e-3 * c["exact_peak"][0].get<double>());
  }
  // The six rods' inertia: the serial full rod's, (3/8) m_leg ρ² above the thesis's corrected formula.
  const double ml = 0.115 * 0.45359237;
  REQUIRE(j["leg_inertia"].size() == 5);
  for (const auto& b : j["leg_inertia"]) {
    CHECK(b["exact"].get<double>() == Approx(b["serial_full"].get<double>()).epsilon(1e-12));
    CHECK(b["exact"].get<double>() - b["thesis"].get<double>() == Approx(0.375 * ml * rho * rho).epsilon(1e-10));
  }
  REQUIRE(j["chain"]["exact_work"].size() == 4);
  for (int i = 0; i < 4; ++i) CHECK(j["chain"]["rows"][2]["max_error"][i].get<double>() < 1e-9 * j["chain"]["exact_peak"][i].get<double>());
}

TEST_CASE("achain apair-exact: clear errors", "[cli][apair-exact]") {
  auto r = runCli("apair-exact --robot planar-2r");
  CHECK(r.status == 1);
  CHECK(r.err.find("not an A-pair") != std::string::npos);
  r = runCli("apair-exact --joint 9");
  CHECK(r.status == 1);
  CHECK(r.err.find("no joint 9") != std::string::npos);
  r = runCli("apair-exact --theta 1,nan");
  CHECK(r.status == 1);
  r = runCli("apair-exact --dt 0");
  CHECK(r.status == 1);
  CHECK(r.err.find("--dt") != std::string::npos);
}
