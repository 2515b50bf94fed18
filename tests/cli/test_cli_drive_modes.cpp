// CLI `achain drive-modes` (formerly `modes`, kept as an alias): lumped joint (drive) flexibility modal analysis.
#include <cmath>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

using achain::test::runCli;

TEST_CASE("achain modes: planar-2r locked motors match the hand-computed 2-DOF frequencies", "[cli][flex]") {
  const auto r = runCli("modes --robot planar-2r --q 0.3,1.5707963267948966 --joint-stiffness 100,50");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  // Hand: M11 = 2/3 + 1 + 0.64/3, M12 = M22 = 0.64/3 at q2 = 90°; det(M)λ² − (k1 M22 + k2 M11)λ + k1 k2 = 0.
  const double M11 = 2.0 / 3 + 1 + 0.64 / 3, M12 = 0.64 / 3, M22 = 0.64 / 3, k1 = 100, k2 = 50;
  const double det = M11 * M22 - M12 * M12, b = k1 * M22 + k2 * M11, disc = std::sqrt(b * b - 4 * det * k1 * k2);
  const double w1 = std::sqrt((b - disc) / (2 * det)), w2 = std::sqrt((b + disc) / (2 * det));
  REQUIRE(j["modes"].size() == 2);
  CHECK(j["modes"][0]["omega"].get<double>() == Approx(w1).epsilon(1e-9));
  CHECK(j["modes"][1]["omega"].get<double>() == Approx(w2).epsilon(1e-9));
  CHECK(j["modes"][0]["frequency_hz"].get<double>() == Approx(w1 / (2 * M_PI)).epsilon(1e-9));
  CHECK(j["motor"] == "locked");
  CHECK(j["coordinates"][1] == "elbow");
  CHECK(j["modes"][0]["shape"].size() == 2);
}

TEST_CASE("achain modes: free motors, one stiffness for all, degrees, prototype-4a", "[cli][flex]") {
  const auto r = runCli("modes --robot prototype-4a --q 100,200,150,250 --deg --joint-stiffness 500 --motor free --motor-inertia 0.001");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  REQUIRE(j["modes"].size() == 8);
  // Four rigid modes (rotor and link together) at zero, to round-off: ω is the square root of a ~1e-12 relative eigenvalue.
  const double top = j["modes"][7]["omega"].get<double>();
  for (int k = 0; k < 4; ++k) CHECK(j["modes"][k]["omega"].get<double>() < 1e-5 * top);
  for (int k = 4; k < 8; ++k) CHECK(j["modes"][k]["omega"].get<double>() > 1);
  CHECK(j["coordinates"][4].get<std::string>().rfind("motor:", 0) == 0);
  const auto locked = runCli("modes --robot prototype-4a --q 100,200,150,250 --deg --joint-stiffness 500").json();
  for (int k = 0; k < 4; ++k) CHECK(j["modes"][4 + k]["omega"].get<double>() > locked["modes"][k]["omega"].get<double>());
}

TEST_CASE("achain modes: bad input and --help", "[cli][flex]") {
  auto r = runCli("modes --robot planar-2r --q 0,0 --joint-stiffness 100,0");
  CHECK(r.status == 1);
  CHECK(r.err.find("--drive-stiffness: must be positive (got 0.000000 for coordinate 1 (joint 'elbow'))") != std::string::npos);
  r = runCli("modes --robot planar-2r --q 0,0 --joint-stiffness 1,2,3");
  CHECK(r.status == 1);
  CHECK(r.err.find("--drive-stiffness: expected 1 value or 2") != std::string::npos);
  r = runCli("modes --robot planar-2r --q 0,0 --joint-stiffness 100 --motor free");
  CHECK(r.status == 1);
  CHECK(r.err.find("--motor-inertia: required with --motor free") != std::string::npos);
  r = runCli("modes --robot planar-2r --q 0,0 --joint-stiffness 100 --motor loose");
  CHECK(r.status == 1);
  CHECK(r.err.find("expected locked or free") != std::string::npos);
  r = runCli("modes --robot planar-2r --q 0,0");  // no option and no drive blocks in the file
  CHECK(r.status == 1);
  CHECK(r.err.find("--drive-stiffness: required (the robot file declares no joint drives") != std::string::npos);
  r = runCli("--help");
  CHECK(r.out.find("modes") != std::string::npos);
  r = runCli("modes --help");
  CHECK(r.out.find("--drive-stiffness,--joint-stiffness") != std::string::npos);
  CHECK(r.out.find("former name, kept for one release") != std::string::npos);
  CHECK(r.out.find("--motor-inertia") != std::string::npos);
}

TEST_CASE("achain flex-link: the space arm's link 2 (slug/ft/lb) and Euler-Bernoulli", "[cli][flex]") {
  // Table 3.1-2 link 2: m = 9.536 slug, L = 20.92 ft, Ixx = 2.38 slug*ft^2; EI/L^3 = 1125 lb/ft (K11 = 4.5e3), GJ = 1.1e6*L.
  const double L = 20.92, EI = 1125 * L * L * L, GJ = 1.1e6 * L;
  const auto r = runCli("flex-link --length 20.92 --mass 9.536 --ei " + std::to_string(EI) + " --gj " + std::to_string(GJ) +
                        " --torsional-inertia 2.38");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["I_mq"][1][0].get<double>() == Approx(3.18).margin(0.005));
  CHECK(j["I_mq"][1][1].get<double>() == Approx(0.318).margin(0.0005));
  CHECK(j["I_Lq"][2][0].get<double>() == Approx(49.8).margin(0.1));
  CHECK(j["I_Lq"][1][3].get<double>() == Approx(-1.99).margin(0.005));
  CHECK(j["I_Lq"][0][4].get<double>() == Approx(1.19).margin(0.0005));
  CHECK(j["I_qq"][1][1].get<double>() == Approx(0.05449).margin(0.000005));
  CHECK(j["I_qq"][4][4].get<double>() == Approx(0.793).margin(0.0005));
  CHECK(j["I_qq"][0][0].get<double>() == Approx(9.536 / 5).epsilon(1e-12));  // the formula, not the printed 2.38 (erratum)
  CHECK(j["K"][1][1].get<double>() == Approx(7740).epsilon(1e-6));
  CHECK(j["modes"].size() == 5);
  CHECK(j["modes"][4]["direction"] == "torsion");
  // Clamped-root frequencies: the bending pair 0.475 % above Euler-Bernoulli 1.87510^2*sqrt(EI/(m L^3)) (two-mode Ritz),
  // torsion sqrt(K55/I_qq55) = sqrt(3*GJ/(L*J)) (the digest's ~187 Hz).
  const double eb = 1.875104069 * 1.875104069 * std::sqrt(1125 / 9.536) / (2 * M_PI);
  CHECK(j["clamped_modes"][0]["frequency_hz"].get<double>() == Approx(eb * 1.00475432).epsilon(1e-6));
  CHECK(j["clamped_modes"][1]["frequency_hz"].get<double>() == Approx(eb * 1.00475432).epsilon(1e-6));
  CHECK(j["clamped_modes"][4]["frequency_hz"].get<double>() == Approx(std::sqrt(3 * 1.1e6 / 2.38) / (2 * M_PI)).epsilon(1e-9));
  // More assumed modes converge to Euler-Bernoulli.
  const auto m4 = runCli("flex-link --length 20.92 --mass 9.536 --ei " + std::to_string(EI) + " --modes monomial:4").json();
  CHECK(m4["modes"].size() == 8);
  CHECK(m4["clamped_modes"][0]["frequency_hz"].get<double>() == Approx(eb).epsilon(1e-5));
}

TEST_CASE("achain flex-link: bad input is named", "[cli][flex]") {
  auto r = runCli("flex-link --length 1 --mass 0 --ei 1 --gj 1 --torsional-inertia 1");
  CHECK(r.status == 1);
  CHECK(r.err.find("body.mass must be positive") != std::string::npos);
  r = runCli("flex-link --length 1 --mass 1 --ei 1");
  CHECK(r.status == 1);
  CHECK(r.err.find("gj must be positive") != std::string::npos);
  r = runCli("flex-link --length 1 --mass 1 --ei -1 --modes monomial:2");
  CHECK(r.status == 1);
  CHECK(r.err.find("ei_y must be positive") != std::string::npos);
  r = runCli("flex-link --length 1 --mass 1 --ei 1 --modes monomial:0");
  CHECK(r.status == 1);
  CHECK(r.err.find("monomial:N needs a whole N") != std::string::npos);
  r = runCli("flex-link --length 1 --mass 1 --ei 1 --modes quartic");
  CHECK(r.status == 1);
  CHECK(r.err.find("expected cubic or monomial:N") != std::string::npos);
  r = runCli("flex-link --help");
  CHECK(r.out.find("--torsional-inertia") != std::string::npos);
}

TEST_CASE("achain modes: frequency map along one coordinate", "[cli][flex]") {
  const auto j = runCli("modes --robot prototype-4a --q 0,0,0,0 --deg --joint-stiffness 500 --sweep-coordinate 1 --sweep-to 90 --steps 4").json();
  const auto& s = j["sweep"];
  REQUIRE(s["q"].size() == 5);
  CHECK(s["coordinate"] == j["coordinates"][1]);
  CHECK(s["q"][4].get<double>() == Approx(M_PI / 2).epsilon(1e-15));
  // The first sample is the --q analysis, the last one the analysis at the end configuration.
  for (int k = 0; k < 4; ++k) CHECK(s["frequency_hz"][0][k].get<double>() == Approx(j["modes"][k]["frequency_hz"].get<double>()).epsilon(1e-12));
  const auto end = runCli("modes --robot prototype-4a --q 0,90,0,0 --deg --joint-stiffness 500").json();
  for (int k = 0; k < 4; ++k) CHECK(s["frequency_hz"][4][k].get<double>() == Approx(end["modes"][k]["frequency_hz"].get<double>()).epsilon(1e-9));
  CHECK(std::abs(s["frequency_hz"][2][1].get<double>() - s["frequency_hz"][0][1].get<double>()) > 0.1);  // the map moves
  CHECK(runCli("modes --robot planar-2r --q 0,0 --joint-stiffness 100").json()["sweep"].is_null());
  auto r = runCli("modes --robot planar-2r --q 0,0 --joint-stiffness 100 --sweep-coordinate 2 --sweep-to 1");
  CHECK(r.status == 1);
  CHECK(r.err.find("--sweep-coordinate: 2 is out of range") != std::string::npos);
  r = runCli("modes --robot planar-2r --q 0,0 --joint-stiffness 100 --sweep-to 1");
  CHECK(r.status == 2);
}

TEST_CASE("achain drive-modes: the robot file's drive blocks by default, modes and --joint-stiffness are its former names", "[cli][flex]") {
  const std::string variant = achain::test::sourceDir() + "/core/robots/variants/prototype-4a-drive.json";
  const std::string q = " --q 100,200,150,250 --deg";
  const auto file = runCli("drive-modes --robot " + variant + q);
  REQUIRE(file.status == 0);
  const auto jf = file.json();
  REQUIRE(jf["joint_stiffness"].size() == 4);
  std::string k;
  for (const auto& v : jf["joint_stiffness"]) k += (k.empty() ? "" : ",") + std::to_string(v.get<double>());
  CHECK(jf["joint_stiffness"][0].get<double>() > 0);
  // the same stiffness given on the command line, under the old subcommand and option names
  const auto old = runCli("modes --robot prototype-4a" + q + " --joint-stiffness " + k);
  REQUIRE(old.status == 0);
  const auto jo = old.json();
  REQUIRE(jo["modes"].size() == jf["modes"].size());
  for (size_t i = 0; i < jf["modes"].size(); ++i)
    CHECK(jo["modes"][i]["omega"].get<double>() == Approx(jf["modes"][i]["omega"].get<double>()).epsilon(1e-6));
  // and drive-check reads the same option names (its former --stiffness kept)
  const auto dc = runCli("drive-check --robot planar-2r --from 0,0 --to 0.5,0.5 --drive-stiffness 100 --drive-damping 0.5 --shaper none");
  const auto fc = runCli("flex-check --robot planar-2r --from 0,0 --to 0.5,0.5 --stiffness 100 --damping 0.5 --shaper none");
  REQUIRE(dc.status == 0);
  REQUIRE(fc.status == 0);
  CHECK(dc.json()["results"] == fc.json()["results"]);
}
