// CLI `achain flex-link --robot`, `flex-modes`, `flex-deflection`: the space arm's flexible links from the built-in
// robot file (Tesar & Graves §3.1), the closed-form modal integrals, coupled modes and static deflection.
#include <Eigen/Dense>
#include <cmath>
#include <iterator>
#include <fstream>
#include <cstdio>
#include <string>

#include "cli_runner.hpp"
#include "test_scale.hpp"

using achain::test::runCli;

namespace {
constexpr double kSlug = 14.593902937206, kFt = 0.3048, kLbf = 4.4482216152605;
}

TEST_CASE("achain flex-link --robot space-arm: the printed matrices in the file's units", "[cli][flex]") {
  // Table 3.1-2 with c1 = c2 = 1: link 2 m = 9.536 slug, L = 20.92 ft, J = 2.38; link 3 m = 5.982, L = 23.18, J = 1.17.
  struct Link { int joint; double m, L, J, k11, k55; double printed_mq, printed_mq2, printed_lq, printed_lq2, printed_qq2, printed_qq5; };
  for (const Link& k : {Link{1, 9.536, 20.92, 2.38, 4.5e3, 1.1e6, 3.18, .318, 49.8, 1.99, .05449, .793},
                        Link{2, 5.982, 23.18, 1.17, 2.2e3, 8.3e5, 1.99, .199, 34.6, 1.39, .03419, .39}}) {
    const auto r = runCli("flex-link --robot space-arm --link " + std::to_string(k.joint) + " --units file");
    REQUIRE(r.status == 0);
    const auto j = r.json();
    CHECK(j["units"] == "file");
    CHECK(j["name"] == (k.joint == 1 ? "shoulder_pitch" : "elbow_pitch"));
    const auto& mq = j["I_mq"];
    const auto& lq = j["I_Lq"];
    const auto& qq = j["I_qq"];
    const auto& K = j["K"];
    // printed figures (3.1-19/20, 3.1-25/26, 3.1-29/30, 3.1-31/32), to their last printed place (49.8, 34.6 are
    // truncations of mL/4 = 49.87, 34.67)
    CHECK(mq[1][0].get<double>() == Approx(k.printed_mq).margin(0.005));
    CHECK(mq[2][3].get<double>() == Approx(k.printed_mq2).margin(0.0005));
    CHECK(lq[2][0].get<double>() == Approx(k.printed_lq).margin(0.1));
    CHECK(lq[1][2].get<double>() == Approx(-k.printed_lq).margin(0.1));
    CHECK(lq[2][1].get<double>() == Approx(k.printed_lq2).margin(0.005));
    CHECK(lq[0][4].get<double>() == Approx(k.J / 2).margin(1e-12));
    CHECK(qq[1][1].get<double>() == Approx(k.printed_qq2).margin(0.00001));
    CHECK(qq[4][4].get<double>() == Approx(k.printed_qq5).margin(0.005));
    CHECK(K[0][0].get<double>() == Approx(k.k11).epsilon(1e-9));
    CHECK(K[4][4].get<double>() == Approx(k.k55).epsilon(1e-9));
    // closed forms m/3, m/30, mL/4, mL/100, m/5 (not the printed 2.38 / 1.45: erratum), m/175, J/2, J/3
    CHECK(mq[1][0].get<double>() == Approx(k.m / 3).epsilon(1e-12));
    CHECK(mq[1][1].get<double>() == Approx(k.m / 30).epsilon(1e-12));
    CHECK(lq[2][0].get<double>() == Approx(k.m * k.L / 4).epsilon(1e-12));
    CHECK(lq[2][1].get<double>() == Approx(k.m * k.L / 100).epsilon(1e-12));
    CHECK(qq[0][0].get<double>() == Approx(k.m / 5).epsilon(1e-12));
    CHECK(qq[1][1].get<double>() == Approx(k.m / 175).epsilon(1e-12));
    CHECK(qq[4][4].get<double>() == Approx(k.J / 3).epsilon(1e-12));
    CHECK(std::abs(qq[0][1].get<double>()) < 1e-12);  // orthogonal pair (r2 = -1.2)
    // stiffness ratios 4 : -3.2 : 6.88 (x EI/L^3)
    const double s = K[0][0].get<double>() / 4;
    CHECK(K[0][1].get<double>() == Approx(-3.2 * s).epsilon(1e-12));
    CHECK(K[1][1].get<double>() == Approx(6.88 * s).epsilon(1e-12));
    CHECK(K[2][3].get<double>() == Approx(-3.2 * s).epsilon(1e-12));
    // SI: the same numbers through the units
    const auto si = runCli("flex-link --robot space-arm --link " + std::to_string(k.joint)).json();
    CHECK(si["units"] == "si");
    CHECK(si["I_qq"][0][0].get<double>() == Approx(k.m * kSlug / 5).epsilon(1e-12));
    CHECK(si["K"][0][0].get<double>() == Approx(k.k11 * kLbf / kFt).epsilon(1e-9));
    CHECK(si["K"][4][4].get<double>() == Approx(k.k55 * kLbf * kFt).epsilon(1e-9));
    CHECK(si["I_Lq"][0][4].get<double>() == Approx(k.J / 2 * kSlug * kFt * kFt).epsilon(1e-12));
    // frequencies do not depend on the units
    CHECK(si["clamped_modes"][0]["frequency_hz"].get<double>() == Approx(j["clamped_modes"][0]["frequency_hz"].get<double>()).epsilon(1e-12));
  }
}

TEST_CASE("achain flex-link --robot: errors", "[cli][flex]") {
  auto r = runCli("flex-link --robot space-arm --link 3");
  CHECK(r.status == 1);
  CHECK(r.err.find("--link: joint 3 ('wrist_pitch') of space-arm has no flexible block (flexible: 1, 2)") != std::string::npos);
  r = runCli("flex-link --robot space-arm --link 1 --mass 3");
  CHECK(r.status == 1);
  CHECK(r.err.find("--robot: the link comes from the robot file's flexible block") != std::string::npos);
  r = runCli("flex-link --robot space-arm --link 1 --units imperial");
  CHECK(r.status == 1);
  CHECK(r.err.find("--units: expected si or file") != std::string::npos);
  r = runCli("flex-link --length 1");
  CHECK(r.status == 1);
  CHECK(r.err.find("--length and --mass: required (or --robot and --link)") != std::string::npos);
  r = runCli("flex-link --help");
  CHECK(r.out.find("--robot") != std::string::npos);
  CHECK(r.out.find("--units") != std::string::npos);
}

TEST_CASE("achain flex-modes: the space arm at configurations #1 and #2", "[cli][flex]") {
  const auto a = runCli("flex-modes --robot space-arm --q 0,0,0,0,0,0");
  REQUIRE(a.status == 0);
  const auto j1 = a.json();
  const auto j2 = runCli("flex-modes --robot space-arm --q 0,0,90,0,0,0 --deg").json();
  REQUIRE(j1["modes"].size() == 10);
  CHECK(j1["coordinates"][0] == "shoulder_pitch q1 (y bending)");
  CHECK(j1["coordinates"][9] == "elbow_pitch q5 (torsion)");
  const double link2 = j1["clamped_links"][0]["frequency_hz"][0].get<double>();
  for (const auto* j : {&j1, &j2}) {
    const double f0 = (*j)["modes"][0]["frequency_hz"].get<double>();
    CHECK(f0 > 0);
    CHECK(f0 < link2);  // Rayleigh: links 3-6 riding on link 2 lower its first frequency
    for (int k = 1; k < 10; ++k) CHECK((*j)["modes"][k]["frequency_hz"].get<double>() >= (*j)["modes"][k - 1]["frequency_hz"].get<double>());
  }
  CHECK(j1["modes"][0]["frequency_hz"].get<double>() != Approx(j2["modes"][0]["frequency_hz"].get<double>()).epsilon(1e-3));
  // the paper's translating spacecraft (6.39e3 slug): three rigid translations, then the fixed base's modes within 1 %
  const auto jb = runCli("flex-modes --robot space-arm --q 0,0,0,0,0,0 --base-mass 6.39e3 --units file").json();
  REQUIRE(jb["modes"].size() == 13);
  CHECK(jb["coordinates"][12] == "base z");
  for (int k = 0; k < 3; ++k) CHECK(jb["modes"][k]["frequency_hz"].get<double>() < 1e-4);
  for (int k = 0; k < 10; ++k)
    CHECK(jb["modes"][k + 3]["frequency_hz"].get<double>() == Approx(j1["modes"][k]["frequency_hz"].get<double>()).epsilon(1e-2));
  auto r = runCli("flex-modes --robot space-arm --q 0,0,0,0,0,0 --base-mass -1");
  CHECK(r.status == 1);
  CHECK(r.err.find("--base-mass: must be positive (a translating base) or 0 (fixed)") != std::string::npos);
  r = runCli("flex-modes --robot puma560 --q 0,0,0,0,0,0");
  CHECK(r.status == 1);
  CHECK(r.err.find("--robot: puma560 declares no flexible link") != std::string::npos);
  r = runCli("flex-modes --help");
  CHECK(r.out.find("joints locked") != std::string::npos);
}

TEST_CASE("achain flex-deflection: the space arm under a tip load", "[cli][flex]") {
  // 100 lbf along world z at configuration #1 (the arm straight): linear in the load; the file's units and SI agree.
  const auto r = runCli("flex-deflection --robot space-arm --q 0,0,0,0,0,0 --force 0,0,100 --units file");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  const auto si = runCli("flex-deflection --robot space-arm --q 0,0,0,0,0,0 --force 0,0," + std::to_string(100 * kLbf)).json();
  // (the SI force passes through std::to_string's six decimals: 1e-9 relative)
  CHECK(j["tool_position_error"].get<double>() == Approx(si["tool_position_error"].get<double>() / kFt).epsilon(1e-8));
  CHECK(j["modal"][0].get<double>() == Approx(si["modal"][0].get<double>() / kFt).epsilon(1e-8));
  const auto twice = runCli("flex-deflection --robot space-arm --q 0,0,0,0,0,0 --force 0,0,200 --units file").json();
  for (int k = 0; k < 10; ++k)
    CHECK(twice["modal"][k].get<double>() == Approx(2 * j["modal"][k].get<double>()).margin(1e-12));
  // Bending modes carry no rotation (the paper's modelling limitation), so the tip of link 2 passes its deflection to
  // the tool but not its slope: the tool moves by the two cantilever deflections F·L³/(3EI), EI/L³ = 1125 and 550 lbf/ft.
  CHECK(j["tool_displacement"][2].get<double>() == Approx(100.0 / (3 * 1125) + 100.0 / (3 * 550)).epsilon(1e-9));
  // and the modal coordinates are the exact cubic F·L³/(6EI)·(3u² − u³) = a·u² + b·(u² − 1.2u³): b = FL³/(7.2 EI),
  // a = FL³/EI·(1/2 − 1/7.2) (the sign is that of world z in link 2's frame)
  CHECK(std::abs(j["modal"][0].get<double>()) == Approx(100.0 / 1125 * (0.5 - 1 / 7.2)).epsilon(1e-9));
  CHECK(std::abs(j["modal"][1].get<double>()) == Approx(100.0 / 1125 / 7.2).epsilon(1e-9));
  CHECK(j["max_link_rotation_deg"].get<double>() >= 0);
  auto e = runCli("flex-deflection --robot space-arm --q 0,0,0,0,0,0 --force 1,2");
  CHECK(e.status == 1);
  CHECK(e.err.find("--force: expected 3 values, got 2") != std::string::npos);
  e = runCli("flex-deflection --help");
  CHECK(e.out.find("--moment") != std::string::npos);
}

TEST_CASE("achain flex-simulate --progress: progress on stderr, SIGTERM stops the run saying where, exit 143", "[cli][flex][progress]") {
  const std::string err = achain::test::tempPath(".err");
  // 2000 s at the automatic step (2.4e-4 s): 8.3e6 steps, minutes; SIGTERM once the first progress line is out
  auto r = runCli("flex-simulate --robot space-arm --q 0,0,0,0,0,0 --force 0,2,1 --duration 2000 --progress 2>" + err +
                  " & p=$!; for i in $(seq 1200); do [ -s " + err + " ] && break; sleep 0.05; done; kill -TERM $p; wait $p; exit $?");
  std::ifstream ef(err);
  const std::string text((std::istreambuf_iterator<char>(ef)), std::istreambuf_iterator<char>());
  std::remove(err.c_str());
  INFO(text);
  CHECK(r.status == 143);
  CHECK(r.out.empty());
  CHECK(text.rfind("achain flex-simulate: [", 0) == 0);
  const std::string stop = "achain flex-simulate: stopped by SIGTERM: flexibleSimulate: cancelled at step ";
  const size_t at = text.find(stop);
  REQUIRE(at != std::string::npos);
  CHECK(std::stol(text.substr(at + stop.size())) % 1000 == 0);  // asked every 1000 steps
  CHECK(runCli("flex-simulate --help").out.find("--progress") != std::string::npos);
}

TEST_CASE("achain flex-simulate: a step load on the locked space arm is the modal superposition", "[cli][flex]") {
  // Undamped, from rest, joints locked, small load (linear): φ_f(t) = Σ_k a_k·s_k·(1 − cos ω_k t) with the modes
  // s_k, ω_k of flex-modes and Σ a_k·s_k = the static deflection of flex-deflection (all SI).
  const std::string q = " --robot space-arm --q 0,0,0,0,0,0";
  // 0.6 s (ACHAIN_TEST_SCALE=reduced, the sanitizer build: 0.15 s, the same check on fewer steps)
  const std::string duration = achain::test::reducedSizes() ? "0.15" : "0.6";
  const auto sim = runCli("flex-simulate" + q + " --force 0,2,1 --moment 0.5,0,0 --duration " + duration + " --samples 7");
  REQUIRE(sim.status == 0);
  const auto js = sim.json();
  const auto modes = runCli("flex-modes" + q).json();
  const auto st = runCli("flex-deflection" + q + " --force 0,2,1 --moment 0.5,0,0").json();
  const int n = 10;
  Eigen::MatrixXd S(n, n);
  Eigen::VectorXd w(n), xs(n);
  for (int k = 0; k < n; ++k) {
    w[k] = modes["modes"][k]["omega"].get<double>();
    xs[k] = st["modal"][k].get<double>();
    for (int i = 0; i < n; ++i) S(i, k) = modes["modes"][k]["shape"][i].get<double>();
  }
  const Eigen::VectorXd a = S.fullPivLu().solve(xs);
  REQUIRE(js["t"].size() == 7);
  double worst = 0;
  for (size_t s = 0; s < js["t"].size(); ++s) {
    const double t = js["t"][s].get<double>();
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    for (int k = 0; k < n; ++k) x += a[k] * S.col(k) * (1 - std::cos(w[k] * t));
    for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(js["modal"][s][i].get<double>() - x[i]));
  }
  INFO("max |simulated - modal superposition| = " << worst << " (static max " << xs.cwiseAbs().maxCoeff() << ")");
  CHECK(worst < 1e-3 * xs.cwiseAbs().maxCoeff());
  CHECK(js["peak_tool_deflection"].get<double>() > st["tool_position_error"].get<double>());  // the step overshoots
  auto e = runCli("flex-simulate" + q + " --load sine");
  CHECK(e.status == 1);
  CHECK(e.err.find("--frequency: a sine load needs a positive frequency") != std::string::npos);
  e = runCli("flex-simulate" + q + " --joints loose");
  CHECK(e.status == 1);
  CHECK(e.err.find("--joints: expected locked or free") != std::string::npos);
  e = runCli("flex-simulate --help");
  CHECK(e.out.find("--load") != std::string::npos);
}
