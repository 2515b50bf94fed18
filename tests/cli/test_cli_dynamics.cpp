// CLI of the dynamics area: id (single state, breakdown, trajectory file), mass, fd, sim, errors.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include <Eigen/Dense>

#include "cli_runner.hpp"

using achain::test::runCli;
using achain::test::tempPath;

TEST_CASE("achain id: puma560 gravity load at qn (Corke) and the breakdown sums", "[cli][dynamics]") {
  const auto r = runCli("id --robot puma560 --q 0,45,180,0,45,0 --deg");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  const double ref[] = {0, 31.6399, 6.0351, 0, 0.0283, 0};
  for (int i = 0; i < 6; ++i) CHECK(j["tau"][i].get<double>() == Approx(ref[i]).margin(6e-5));
  for (int i = 0; i < 6; ++i) CHECK(j["breakdown"]["gravity"][i].get<double>() == Approx(j["tau"][i].get<double>()).margin(1e-12));
  CHECK(j["options"]["legs"] == "full");
  CHECK(j["options"]["gravity"][2].get<double>() == -9.81);
}

TEST_CASE("achain id: prototype-4a leg models and options change the torque as they should", "[cli][dynamics]") {
  const std::string base = "id --robot prototype-4a --q 100,200,150,250 --deg --qd 30,-20,10,40 --qdd 100,50,-80,30";
  const auto full = runCli(base).json(), massless = runCli(base + " --legs massless").json(),
             pe = runCli(base + " --legs potential").json(), zero_g = runCli(base + " --gravity 0,0,0").json();
  for (int i = 0; i < 4; ++i) {
    const auto& b = full["breakdown"];
    const double sum = b["inertial"][i].get<double>() + b["velocity"][i].get<double>() + b["gravity"][i].get<double>() +
                       b["friction"][i].get<double>() + b["wrench"][i].get<double>();
    CHECK(sum == Approx(full["tau"][i].get<double>()).epsilon(1e-12).margin(1e-12));
    const double split = b["translational"][i].get<double>() + b["rotational"][i].get<double>() + b["rotor"][i].get<double>();
    CHECK(split == Approx(full["tau"][i].get<double>()).epsilon(1e-12).margin(1e-12));
    CHECK(zero_g["breakdown"]["gravity"][i].get<double>() == 0);
    // PE-only legs: same gravity part as full legs, same inertia as massless.
    CHECK(pe["breakdown"]["gravity"][i].get<double>() == Approx(b["gravity"][i].get<double>()).epsilon(1e-12));
    CHECK(pe["breakdown"]["inertial"][i].get<double>() == Approx(massless["breakdown"]["inertial"][i].get<double>()).epsilon(1e-12));
  }
  CHECK(std::abs(full["tau"][0].get<double>() - massless["tau"][0].get<double>()) > 1e-3);
}

TEST_CASE("achain mass / fd: armature diagonal and forward∘inverse", "[cli][dynamics]") {
  const auto m = runCli("mass --robot puma560 --q 0,45,180,0,45,0 --deg --motors --qd 0.1,0.2,0.3,0.4,0.5,0.6").json();
  CHECK(m["M"][0][0].get<double>() == Approx(3.6594).margin(6e-5));
  CHECK(m["M"][1][1].get<double>() == Approx(4.4137).margin(6e-5));
  CHECK(m["C"].size() == 6);
  const auto alias = runCli("mass-matrix --robot puma560 --q 0,45,180,0,45,0 --deg --motors").json();
  CHECK(alias["M"][0][0] == m["M"][0][0]);
  const auto id = runCli("id --robot prototype-4a --q 1.5,3.5,2.5,4 --qd 0.3,-0.2,0.1,0.4 --qdd 1,0.5,-0.8,0.3").json();
  std::string tau;
  for (int i = 0; i < 4; ++i) {
    char b[64];
    std::snprintf(b, sizeof b, "%s%.17g", i ? "," : "", id["tau"][i].get<double>());
    tau += b;
  }
  const auto fd = runCli("fd --robot prototype-4a --q 1.5,3.5,2.5,4 --qd 0.3,-0.2,0.1,0.4 --tau " + tau).json();
  const double qdd[] = {1, 0.5, -0.8, 0.3};
  for (int i = 0; i < 4; ++i) CHECK(fd["qdd"][i].get<double>() == Approx(qdd[i]).margin(1e-9));
}

TEST_CASE("achain id --traj: torque series and per-joint peaks against the effort limits", "[cli][dynamics]") {
  const std::string path = tempPath(".json");
  {
    std::ofstream f(path);
    f << R"({"schema":"achain-trajectory","version":1,"robot":"prototype-4a","joints":["waist","shoulder","elbow","wrist"],)"
      << R"("t":[0,0.1,0.2],"q":[[1.1,1.2,1.3,1.4],[1.2,1.3,1.4,1.5],[1.3,1.4,1.5,1.6]],)"
      << R"("qd":[[0,0,0,0],[1,1,1,1],[1,1,1,1]],"qdd":[[10,10,10,10],[0,0,0,0],[-10,-10,-10,-10]]})";
  }
  const auto r = runCli("id --traj " + path);
  std::remove(path.c_str());
  REQUIRE(r.status == 0);
  const auto j = r.json();
  REQUIRE(j["tau"].size() == 3);
  REQUIRE(j["peaks"].size() == 4);
  // The trajectory mode runs the batch call (inverseDynamicsSeries); every sample equals the single-state
  // mode (inverseDynamics) to rounding.
  const char* samples[] = {"--q 1.1,1.2,1.3,1.4 --qdd 10,10,10,10", "--q 1.2,1.3,1.4,1.5 --qd 1,1,1,1",
                           "--q 1.3,1.4,1.5,1.6 --qd 1,1,1,1 --qdd -10,-10,-10,-10"};
  for (int k = 0; k < 3; ++k) {
    const auto one = runCli(std::string("id --robot prototype-4a ") + samples[k]).json();
    for (int i = 0; i < 4; ++i)
      CHECK(j["tau"][k][i].get<double>() == Approx(one["tau"][i].get<double>()).epsilon(1e-14).margin(1e-14));
  }
  double peak0 = 0;
  for (int k = 0; k < 3; ++k) peak0 = std::max(peak0, std::abs(j["tau"][k][0].get<double>()));
  CHECK(j["peaks"][0]["peak"].get<double>() == peak0);
  CHECK(j["peaks"][0]["effort_limit"].get<double>() == Approx(350 * 0.1129848290276167).epsilon(1e-9));
}

TEST_CASE("achain sim: free motion conserves energy (RK4)", "[cli][dynamics]") {
  const auto j = runCli("sim --robot planar-2r --q 0.3,-0.5 --qd 0.5,0 --duration 0.5 --dt 0.001 --every 50").json();
  REQUIRE(j["t"].size() == 11);
  const double E0 = j["energy"][0].get<double>();
  for (const auto& e : j["energy"]) CHECK(std::abs(e.get<double>() - E0) < 1e-7 * std::max(1.0, std::abs(E0)));
  const auto csv = runCli("sim --robot planar-2r --q 0.3,-0.5 --duration 0.01 --csv");
  CHECK(csv.out.rfind("t,q_", 0) == 0);
}

TEST_CASE("dynamics CLI errors name the bad option", "[cli][dynamics]") {
  auto r = runCli("id --robot puma560 --q 0,0,0,0,0,0 --legs heavy");
  CHECK(r.status == 1);
  CHECK(r.err.find("achain id: error: legs: expected massless, lumped, full or potential") != std::string::npos);
  r = runCli("id --robot puma560 --q 0,0,0,0,0,0 --gravity 1,2");
  CHECK(r.err.find("--gravity: expected 3 values") != std::string::npos);
  r = runCli("id --robot puma560 --q 0,0,0,0,0,0 --qd 1,2");
  CHECK(r.err.find("--qd: robot 'puma560' has 6 joints, got 2 values") != std::string::npos);
  r = runCli("id --traj /nonexistent/traj.json --robot puma560");
  CHECK(r.err.find("/nonexistent/traj.json: cannot open file") != std::string::npos);
  {  // a trajectory naming its robot by a number (was nlohmann's type_error without the field)
    const std::string bad = tempPath(".json");
    std::ofstream(bad) << R"({"schema":"achain-trajectory","version":1,"robot":5,"t":[0],"q":[[0,0]]})";
    r = runCli("id --traj " + bad);
    CHECK(r.status == 1);
    CHECK(r.err.find(bad + ": robot: must be a string") != std::string::npos);
    std::remove(bad.c_str());
  }
  r = runCli("fd --robot stanford --q 0,0,0.3,0,0,0");
  CHECK(r.status == 1);
  CHECK(r.err.find("mass matrix is not positive definite") != std::string::npos);
  r = runCli("sim --robot planar-2r --q 0,0 --integrator verlet");
  CHECK(r.err.find("integrator: expected rk4 or euler") != std::string::npos);
}

TEST_CASE("achain sim --traj: computed-torque tracking (a perfect model tracks, a leg-less controller lags)", "[cli][dynamics]") {
  const std::string path = tempPath(".json");
  {
    // q_d(t) = 2 + 0.3 sin(2t) on every joint of prototype-4a, sampled at 100 Hz for 1 s.
    std::ofstream f(path);
    nlohmann::json j = {{"schema", "achain-trajectory"}, {"version", 1}, {"robot", "prototype-4a"}};
    nlohmann::json t = nlohmann::json::array(), q = t, qd = t, qdd = t;
    for (int k = 0; k <= 100; ++k) {
      const double s = 0.01 * k;
      t.push_back(s);
      q.push_back(std::vector<double>(4, 2 + 0.3 * std::sin(2 * s)));
      qd.push_back(std::vector<double>(4, 0.6 * std::cos(2 * s)));
      qdd.push_back(std::vector<double>(4, -1.2 * std::sin(2 * s)));
    }
    j["t"] = t;
    j["q"] = q;
    j["qd"] = qd;
    j["qdd"] = qdd;
    f << j.dump();
  }
  const auto good = runCli("sim --traj " + path + " --dt 0.001 --every 100");
  const auto bad = runCli("sim --traj " + path + " --dt 0.001 --every 100 --controller-legs massless");
  std::remove(path.c_str());
  REQUIRE(good.status == 0);
  const auto g = good.json(), b = bad.json();
  CHECK(g["mode"] == "computed-torque");
  CHECK(g["t"].size() == 11);
  double eg = 0, eb = 0;
  for (int i = 0; i < 4; ++i) {
    eg = std::max(eg, g["max_abs_error"][i].get<double>());
    eb = std::max(eb, b["max_abs_error"][i].get<double>());
  }
  CHECK(eg < 1e-4);   // Hermite/linear interpolation of the samples and the zero-order hold only
  CHECK(eb > 3 * eg);  // the unmodelled legs show up as tracking error
}

TEST_CASE("achain sim --traj with DC motors reports currents and voltages and refuses incomplete motor data", "[cli][dynamics]") {
  const std::string path = tempPath(".json");
  {
    std::ofstream f(path);
    f << R"({"schema":"achain-trajectory","version":1,"robot":"planar-2r","t":[0,0.5],"q":[[0.1,0.2],[0.3,0.1]],)"
      << R"("qd":[[0,0],[0,0]],"qdd":[[0,0],[0,0]]})";
  }
  const auto r = runCli("sim --traj " + path + " --dt 0.0005 --every 100 --motor-r 1 --motor-l 0.0005 --motor-kt 0.2 --motor-ke 0.2");
  const auto bad = runCli("sim --traj " + path + " --motor-r 1");
  std::remove(path.c_str());
  REQUIRE(r.status == 0);
  const auto j = r.json();
  REQUIRE(j["current"].size() == j["t"].size());
  REQUIRE(j["voltage"].size() == j["t"].size());
  CHECK(bad.status == 1);
  CHECK(bad.err.find("give all four") != std::string::npos);
}

TEST_CASE("achain cartesian-inertia and dynamic-manipulability: planar 2R in closed form, PUMA rank, errors", "[cli][dynamics]") {
  // planar-2r (core/robots/planar-2r.json) at q = (0.3, 1.1): Λ on the plane is J⁻ᵀ M J⁻¹, w_d = |det J| / det M.
  const double l1 = 1.0, l2 = 0.8, q1 = 0.3, q2 = 1.1;
  const double I1 = 2.0 / 12, I2 = 0.64 / 12;
  const double M11 = I1 + 2 * 0.25 + I2 + (l1 * l1 + 0.16 + 2 * l1 * 0.4 * std::cos(q2));
  const double M12 = I2 + 0.16 + l1 * 0.4 * std::cos(q2), M22 = I2 + 0.16;
  const double detM = M11 * M22 - M12 * M12, detJ = l1 * l2 * std::sin(q2);
  const auto r = runCli("dynamic-manipulability --robot planar-2r --q 0.3,1.1 --rows linear");
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["yoshikawa"].get<double>() == Approx(std::abs(detJ) / detM).epsilon(1e-12));
  CHECK(j["rank"] == 2);
  CHECK(j["asada"].get<double>() == 0);
  CHECK(j["rows"] == "linear");
  // Λ_xx from the closed form: J⁻¹ = (1/det J)[J22 −J12; −J21 J11].
  const double J21 = l1 * std::cos(q1) + l2 * std::cos(q1 + q2), J22 = l2 * std::cos(q1 + q2);
  const double a = J22 / detJ, c = -J21 / detJ;  // first column of J⁻¹
  const double Lxx = a * (M11 * a + M12 * c) + c * (M12 * a + M22 * c);
  const auto ci = runCli("cartesian-inertia --robot planar-2r --q 0.3,1.1 --rows linear").json();
  CHECK(ci["Lambda"][0][0].get<double>() == Approx(Lxx).epsilon(1e-11));
  CHECK(ci["Lambda"][2][2].get<double>() == Approx(0).margin(1e-12));
  CHECK(ci["rank"] == 2);
  // PUMA at the wrist singularity: rank 5, finite numbers (the truncated pseudo-inverse), no NaN/null.
  const auto p = runCli("cartesian-inertia --robot puma560 --q 10,40,-60,20,0,30 --deg");
  REQUIRE(p.status == 0);
  CHECK(p.json()["rank"] == 5);
  const nlohmann::json pj = p.json();  // alive for the loop (ASan: a range-for over p.json()[...] is a use-after-free)
  for (const auto& row : pj["Lambda"])
    for (const auto& x : row) CHECK(x.is_number());
  const auto bad = runCli("cartesian-inertia --robot puma560 --q 0,0,0,0,0,0 --rows xyz");
  CHECK(bad.status != 0);
  CHECK(bad.err.find("rows: 'xyz' is not one of all, linear, angular") != std::string::npos);
  CHECK(runCli("dynamic-manipulability --robot puma560 --q 0,0,0,0,0,0 --rank-tol -1").err.find("--rank-tol") != std::string::npos);
}

TEST_CASE("achain linearize: PUMA 560 with --motors prints A, B, C, D and poles, A equals differences of `achain fd`",
          "[cli][dynamics][linearize]") {
  const std::string q = "0.1,0.7,-1.2,0.3,0.5,-0.4", qd = "0.2,-0.3,0.4,0.1,-0.2,0.3";
  const auto j = runCli("linearize --robot puma560 --q " + q + " --qd " + qd + " --motors --jointdynamics").json();
  REQUIRE(j["A"].size() == 12);
  REQUIRE(j["B"].size() == 12);
  REQUIRE(j["C"].size() == 6);
  REQUIRE(j["D"].size() == 6);
  REQUIRE(j["poles"].size() == 12);
  CHECK(j["states"][6] == "qd1");
  CHECK(j["inputs"][0] == "tau1");
  // q̈ = fd(q, q̇, τ) with τ the torque of the operating point (q̈ = 0): the rows 6..11 of A are ∂q̈/∂(q, q̇),
  // by central differences of the CLI's own fd (h = 1e-5; fd prints full precision)
  const auto tau = runCli("id --robot puma560 --q " + q + " --qd " + qd + " --qdd 0,0,0,0,0,0 --motors").json()["tau"];
  auto csv = [](std::vector<double> v) {
    std::string s;
    for (double x : v) {
      char b[40];
      std::snprintf(b, sizeof b, "%.17g", x);
      s += (s.empty() ? "" : ",") + std::string(b);
    }
    return s;
  };
  std::vector<double> x0, v0, t0;
  for (const char* p = q.c_str(); *p;) x0.push_back(std::strtod(p, const_cast<char**>(&p))), p += *p == ',';
  for (const char* p = qd.c_str(); *p;) v0.push_back(std::strtod(p, const_cast<char**>(&p))), p += *p == ',';
  for (const auto& t : tau) t0.push_back(t.get<double>());
  const double h = 1e-5;
  double worst = 0, scale = 1;
  for (int k = 0; k < 12; ++k) {
    auto x = x0, v = v0;
    (k < 6 ? x[k] : v[k - 6]) += h;
    const auto ap = runCli("fd --robot puma560 --q " + csv(x) + " --qd " + csv(v) + " --tau " + csv(t0) + " --motors").json()["qdd"];
    (k < 6 ? x[k] : v[k - 6]) -= 2 * h;
    const auto am = runCli("fd --robot puma560 --q " + csv(x) + " --qd " + csv(v) + " --tau " + csv(t0) + " --motors").json()["qdd"];
    for (int r = 0; r < 6; ++r) {
      const double fdv = (ap[r].get<double>() - am[r].get<double>()) / (2 * h), a = j["A"][6 + r][k].get<double>();
      worst = std::max(worst, std::abs(a - fdv));
      scale = std::max(scale, std::abs(fdv));
    }
  }
  CHECK(worst / scale < 1e-6);
  // jointdynamics: J = J_m + M_jj/G² (M without the rotor), B = B_m: joint 1 of the PUMA (J_m = 200e-6, G = −62.6111)
  const auto M = runCli("mass --robot puma560 --q " + q).json()["M"];
  const double G = -62.6111;
  CHECK(j["jointdynamics"][0]["J"].get<double>() == Approx(200e-6 + M[0][0].get<double>() / (G * G)).epsilon(1e-12));
  CHECK(j["jointdynamics"][0]["den"][2].get<double>() == 0);
}

TEST_CASE("achain linearize --bode: the frequency response of one input to one output, on a log grid around the poles",
          "[cli][dynamics][linearize]") {
  // PUMA 560 at qn at rest, no friction: A = [0 I; −M⁻¹K 0], so G(jω) = (K − ω²M)⁻¹ with K = dT_dq, M = Istar
  const auto j = runCli("linearize --robot puma560 --q 0,45,180,0,45,0 --deg --bode 2,2 --bode-points 60").json();
  const auto& b = j["bode"];
  CHECK(b["input"] == "tau2");
  CHECK(b["output"] == "q2");
  REQUIRE(b["omega"].size() == 60);
  REQUIRE(b["phase_deg"].size() == 60);
  // the grid: 0.1× the smallest to 10× the largest nonzero |pole| (0.2709 and 2.664 s⁻¹ at qn, docs/dynamics.md)
  const auto& pf = b["pole_frequencies"];
  REQUIRE(pf.size() >= 2);
  CHECK(b["omega"][0].get<double>() == Approx(0.1 * pf[0].get<double>()).epsilon(1e-12));
  CHECK(b["omega"][59].get<double>() == Approx(10 * pf[pf.size() - 1].get<double>()).epsilon(1e-12));
  const int n = 6;
  Eigen::MatrixXd K(n, n), M(n, n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) K(r, c) = j["dT_dq"][r][c].get<double>(), M(r, c) = j["Istar"][r][c].get<double>();
  double worst = 0;
  for (int k = 0; k < 60; ++k) {
    const double w = b["omega"][k].get<double>();
    const Eigen::MatrixXd G = (K - w * w * M).inverse();
    worst = std::max(worst, std::abs(b["magnitude"][k].get<double>() - std::abs(G(1, 1))) / std::abs(G(1, 1)));
    CHECK(b["magnitude_db"][k].get<double>() == Approx(20 * std::log10(b["magnitude"][k].get<double>())).epsilon(1e-12));
    CHECK(b["hz"][k].get<double>() == Approx(w / (2 * 3.14159265358979323846)).epsilon(1e-15));
    if (k > 0) CHECK(std::abs(b["phase_deg"][k].get<double>() - b["phase_deg"][k - 1].get<double>()) <= 180);
  }
  CHECK(worst < 1e-9);
  // a range, the tool outputs, and the refusals
  const auto t = runCli("linearize --robot puma560 --q 0,45,180,0,45,0 --deg --output tool --bode 1,3 --bode-range 1,100 --bode-points 3").json();
  CHECK(t["bode"]["output"] == "vz");
  CHECK(t["bode"]["omega"][1].get<double>() == Approx(10).epsilon(1e-14));
  CHECK(runCli("linearize --robot puma560 --q 0,0,0,0,0,0 --bode 7,1").err.find("--bode: input 7 is not one of 1..6") != std::string::npos);
  CHECK(runCli("linearize --robot puma560 --q 0,0,0,0,0,0 --bode 1").err.find("--bode: expected IN,OUT") != std::string::npos);
  CHECK(runCli("linearize --robot puma560 --q 0,0,0,0,0,0 --bode 1,1 --bode-range 5,1").err.find("0 < lo < hi") != std::string::npos);
  CHECK(runCli("linearize --robot puma560 --q 0,0,0,0,0,0 --bode-points 10").err.find("need --bode") != std::string::npos);
  CHECK(runCli("linearize --help").out.find("--bode-range") != std::string::npos);
}

TEST_CASE("achain linearize --coordinates tool: the state model in the tool's coordinates (Freeman 3-47..3-53)",
          "[cli][dynamics][linearize]") {
  // planar 2R at rest: T = [J 0; 0 J] with J the x, y rows of `achain jacobian`, and A_tool = T A_joints T⁻¹
  const std::string q = "--robot planar-2r --q 0.3,1.1";
  const auto t = runCli("linearize " + q + " --coordinates tool --tool-rows x,y").json();
  const auto j = runCli("linearize " + q).json();
  const auto jac = runCli("jacobian " + q).json()["J"];
  CHECK(t["coordinates"] == "tool");
  CHECK(t["states"] == nlohmann::json({"x", "y", "x_rate", "y_rate"}));
  Eigen::MatrixXd T(4, 4), At(4, 4), Aj(4, 4), J(2, 2);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      T(r, c) = t["T"][r][c].get<double>(), At(r, c) = t["A"][r][c].get<double>(), Aj(r, c) = j["A"][r][c].get<double>();
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) J(r, c) = jac[r][c].get<double>();
  CHECK((T.topLeftCorner(2, 2) - J).norm() < 1e-14);
  CHECK((T.bottomRightCorner(2, 2) - J).norm() < 1e-14);
  CHECK(T.bottomLeftCorner(2, 2).norm() == 0);  // J̇ = 0 at rest
  CHECK((At - T * Aj * T.inverse()).norm() < 1e-9 * At.norm());
  CHECK(!j.contains("T"));
  // all six rows by default (a six-coordinate chain), then their rates
  const auto p6 = runCli("linearize --robot puma560 --q 0.1,0.7,-1.2,0.3,0.5,-0.4 --coordinates tool").json();
  CHECK(p6["states"] == nlohmann::json({"x", "y", "z", "wx", "wy", "wz", "x_rate", "y_rate", "z_rate", "wx_rate", "wy_rate", "wz_rate"}));
  CHECK(p6["T"].size() == 12);
  // the refusals name the option or the rows
  CHECK(runCli("linearize " + q + " --coordinates tool --tool-rows x,q").err.find("--tool-rows: q is not an influence row") != std::string::npos);
  CHECK(runCli("linearize " + q + " --coordinates tool").err.find("choose 2 of x, y, z") != std::string::npos);
  CHECK(runCli("linearize --robot planar-2r --q 0.3,0 --coordinates tool --tool-rows x,y").err.find("rank 1 of 2") != std::string::npos);
  CHECK(runCli("linearize --help").out.find("--tool-rows") != std::string::npos);
}

TEST_CASE("achain sim --progress: progress lines on stderr, and SIGTERM stops the run saying where, exit 143, nothing on stdout", "[cli][dynamics][progress]") {
  const std::string err = achain::test::tempPath(".err");
  // 1e8 steps (the cap) run for minutes; SIGTERM once the first progress line is out (polled: load only waits longer)
  auto r = runCli("sim --robot puma560 --q 0.1,0.2,0.3,0,0.5,0 --dt 1e-5 --duration 1000 --every 100000 --progress 2>" + err +
                  " & p=$!; for i in $(seq 1200); do [ -s " + err + " ] && break; sleep 0.05; done; kill -TERM $p; wait $p; exit $?");
  std::ifstream ef(err);
  const std::string text((std::istreambuf_iterator<char>(ef)), std::istreambuf_iterator<char>());
  std::remove(err.c_str());
  INFO(text);
  CHECK(r.status == 143);
  CHECK(r.out.empty());
  CHECK(text.rfind("achain sim: [", 0) == 0);  // the progress line (a pipe: whole lines, no carriage return)
  CHECK(text.find('\r') == std::string::npos);
  const std::string stop = "achain sim: stopped by SIGTERM: simulate: cancelled at step ";
  const size_t at = text.find(stop);
  REQUIRE(at != std::string::npos);
  const long step = std::stol(text.substr(at + stop.size()));
  CHECK(step % 1000 == 0);  // polled every 1000 steps
  CHECK(text.find(" of 100000000 (t = ", at) != std::string::npos);
}
