// `achain flex-check`: the thesis trapezoid on the prototype with the derived drive, from the variant file and from
// --stiffness/--damping (the same numbers), ZV/ZVD reductions, and bad input named.
#include <cmath>

#include "cli_runner.hpp"
#include "test_paths.hpp"

using achain::test::runCli;

namespace {
const std::string kVariant = achain::test::sourceDir() + "/core/robots/variants/prototype-4a-drive.json";
const std::string kMove = " --from 60,60,60,60 --to 300,300,300,300 --deg";
}  // namespace

TEST_CASE("achain flex-check: the thesis trapezoid on the prototype's drive variant, unshaped, ZV and ZVD", "[cli][flex]") {
  const auto r = runCli("flex-check --robot " + kVariant + kMove);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  REQUIRE(j["results"].size() == 3);
  const auto& none = j["results"][0];
  CHECK(none["shaper"] == "none");
  CHECK(none["duration"].get<double>() == Approx(1.5833333333).epsilon(1e-9));  // 240° at 180°/s, 720°/s²
  CHECK(j["first_frequency_hz"]["min"].get<double>() < j["first_frequency_hz"]["max"].get<double>());
  CHECK(j["shaper_frequency_hz"].get<double>() == Approx(j["first_frequency_hz"]["end"].get<double>()));
  CHECK(none["bandwidth_ratio"].get<double>() ==
        Approx(none["bandwidth_hz"].get<double>() / j["first_frequency_hz"]["min"].get<double>()));
  for (int k = 1; k < 3; ++k) {
    const auto& s = j["results"][k];
    INFO(s["shaper"].get<std::string>());
    CHECK(s["residual_reduction"].get<double>() > 5);
    CHECK(s["residual_tip_vibration_m"].get<double>() < none["residual_tip_vibration_m"].get<double>() / 5);
    CHECK(s["bandwidth_hz"].get<double>() < none["bandwidth_hz"].get<double>());
    double sum = 0;
    for (const auto& a : s["impulses"]["amplitude"]) sum += a.get<double>();
    CHECK(sum == Approx(1).epsilon(1e-14));
    // The shaped move ends later by the shaper's last impulse time.
    CHECK(s["duration"].get<double>() == Approx(none["duration"].get<double>() + s["impulses"]["time"].back().get<double>()));
  }
  // The built-in prototype with the same drive on the command line gives the same numbers.
  const auto same = runCli("flex-check --robot prototype-4a" + kMove + " --shaper none --stiffness " + std::to_string(827 * 0.1129848290276167 * 180 / M_PI) +
                           " --damping " + std::to_string(2 * 0.1129848290276167 * 180 / M_PI));
  REQUIRE(same.status == 0);
  CHECK(same.json()["results"][0]["residual_tip_vibration_m"].get<double>() ==
        Approx(none["residual_tip_vibration_m"].get<double>()).epsilon(1e-5));
}

TEST_CASE("achain flex-check: bad input is named", "[cli][flex]") {
  auto r = runCli("flex-check --robot prototype-4a" + kMove);
  CHECK(r.status == 1);
  CHECK(r.err.find("--drive-stiffness: required (the robot file declares no joint drives") != std::string::npos);
  r = runCli("flex-check --robot prototype-4a" + kMove + " --stiffness 0");
  CHECK(r.status == 1);
  CHECK(r.err.find("--drive-stiffness: must be positive (got 0.000000 for coordinate 0 (joint 'waist'))") != std::string::npos);
  r = runCli("flex-check --robot prototype-4a" + kMove + " --stiffness 100,200,-3,4");
  CHECK(r.err.find("--drive-stiffness: must be positive (got -3.000000 for coordinate 2 (joint 'elbow'))") != std::string::npos);
  r = runCli("flex-check --robot prototype-4a" + kMove + " --stiffness 100 --damping -1");
  CHECK(r.err.find("--drive-damping: must be zero or positive") != std::string::npos);
  r = runCli("flex-check --robot prototype-4a" + kMove + " --stiffness nan");
  CHECK(r.status == 1);
  CHECK(r.err.find("--drive-stiffness") != std::string::npos);
  r = runCli("flex-check --robot prototype-4a" + kMove + " --stiffness 100 --shaper zvv");
  CHECK(r.err.find("expected none, zv or zvd") != std::string::npos);
  r = runCli("flex-check --robot prototype-4a" + kMove + " --stiffness 100 --shaper zv --shaper-damping 1.5");
  CHECK(r.err.find("shaper damping ratio: must be in [0, 1)") != std::string::npos);
  // The controller simulator's flexible drives are checked before it starts.
  r = runCli("controller-sim --drive-stiffness 5354,0,5354,5354 --duration 0.01");
  CHECK(r.status == 1);
  CHECK(r.err.find("--drive-stiffness: must be positive (got 0.000000 for joint 1)") != std::string::npos);
  r = runCli("controller-sim --drive-damping 3 --duration 0.01");
  CHECK(r.err.find("--drive-damping: only with --drive-stiffness") != std::string::npos);
  r = runCli("flex-check --help");
  CHECK(r.status == 0);
  CHECK(r.out.find("--shaper") != std::string::npos);
}
