// Tesar & Graves (1988) §3.1, the only dynamic results the report prints (issue 35, item 4): the space arm's
// translational modes "around 3 Hz" at configuration #1, and "a much lower frequency on the order of 0.1 Hz, which
// modulates the amplitudes of the higher frequencies" at configuration #2 (digest shared/reference/tesar-flexible.md
// §3.6). No figure survives, so the frequencies are the only oracle. This file tries every reading of Tables 3.1-1
// and 3.1-2 that the text allows, each built from core/robots/space-arm.json edited in code, and keeps each
// reading's lowest coupled frequencies (docs/flexible.md, "The 3 Hz and 0.1 Hz of Tesar & Graves: every reading
// tried"; docs/seed-numbers.md).
//
// The modes are those of det(K − ω²·M) = 0 over the modal coordinates, with I* and K* from flexibleMassMatrix and
// the chain's K. Coordinates without stiffness that move freely (a translating or free-floating base, joints free
// with zero torque as in the report's Model.c) are condensed out: for ω ≠ 0 their rows give x_r = −M_rr⁻¹·M_rf·x_f,
// so M = M_ff − M_fr·M_rr⁻¹·M_rf. With the joints locked and the base fixed or translating this is exactly
// flexibleChainModes (`achain flex-modes`), which the first case checks.
//
// Set ACHAIN_TESAR_TABLE=1 to print every reading's frequencies.
#include <catch2/catch.hpp>
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <achain/flexibility/flexible_chain.hpp>
#include <achain/io/flexible_json.hpp>
#include <achain/io/model_json.hpp>
#include <achain/model/robots.hpp>

namespace tesar_readings {

using namespace achain;
using nlohmann::json;

constexpr double kSlug = 14.593902937206;  // kg
constexpr double kSpacecraftMass = 6.39e3;  // slug, Table 3.1-2 link 0
const double kSpacecraftInertia[3][3] = {{8.9e5, 1.6e4, -2.9e5}, {1.6e4, 6.9e6, 3.5e3}, {-2.9e5, 3.5e3, 7.3e6}};

json spaceArm() {
  for (const auto& r : builtinRobots())
    if (r.name == "space-arm") return json::parse(r.json);
  throw Error("space-arm missing");
}

/// Every mass, inertia and stiffness times s: the same frequencies (ω² = k/m), and the spacecraft's 7.3e6 slug·ft²
/// (9.9e6 kg·m²) within the loader's 1e6 kg·m² range at s = 0.1.
void scaleMassAndStiffness(json& j, double s) {
  for (auto& joint : j["joints"]) {
    auto& link = joint["link"];
    link["mass"] = link["mass"].get<double>() * s;
    for (auto& row : link["inertia"])
      for (auto& v : row) v = v.get<double>() * s;
    if (joint.contains("flexible"))
      for (const char* key : {"ei", "gj", "torsional_inertia"}) joint["flexible"][key] = joint["flexible"][key].get<double>() * s;
  }
}

/// The spacecraft (link 0) as a free body: three prismatic joints along the base frame's axes, then (rotating)
/// three revolute joints about them through its CoM (the frame 0 origin, Table 3.1-2), the last one carrying its
/// mass and inertia; the arm's first joint placed by the file's base transform (L_0, α_0). At zero angles the
/// six coordinates are the spacecraft's translation and rotation vector, which is what a linearisation needs.
json withSpacecraftJoints(json j, bool rotating) {
  const double s = 0.1;
  scaleMassAndStiffness(j, s);
  json joints = json::array();
  const int n = rotating ? 6 : 3;
  for (int k = 0; k < n; ++k) {
    json axis = {0, 0, 0};
    axis[k % 3] = 1;
    json link = {{"mass", 0.0}, {"com", {0, 0, 0}}, {"inertia", {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}}};
    if (k == n - 1) {
      link["mass"] = kSpacecraftMass * s;
      if (rotating)
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) link["inertia"][a][b] = kSpacecraftInertia[a][b] * s;
    }
    joints.push_back({{"name", "spacecraft_" + std::to_string(k)},
                      {"kind", k < 3 ? "P" : "R"},
                      {"origin", {{"xyz", {0, 0, 0}}}},
                      {"axis", axis},
                      {"link", link}});
  }
  json arm = j["joints"];
  arm[0]["origin"] = j["base"];
  for (auto& a : arm) joints.push_back(a);
  j["joints"] = joints;
  j["base"] = {{"xyz", {0, 0, 0}}};
  return j;
}

enum class Base { Fixed, Translating, Free };  // Free: 6-DOF, emulated by withSpacecraftJoints

/// One reading: the robot file as edited, and an optional edit of the chain's modal matrices (what the file
/// cannot say: the printed generalised masses and stiffness).
struct Reading {
  std::string name;
  json robot;
  std::function<void(FlexibleChain&)> edit;
};

/// The coupled frequencies (Hz, ascending, no rigid-body zeros) at the arm's joint angles q: base fixed,
/// translating with the spacecraft's 6.39e3 slug, or free (6 DOF); joints locked except those in free_joints
/// (bit i: the arm's joint i + 1), which move freely with zero torque.
std::vector<double> frequencies(const Reading& r, const VecX& q, Base base, unsigned free_joints = 0) {
  json j = r.robot;
  int nb = 0;
  if (base == Base::Free) {
    j = withSpacecraftJoints(j, true);
    nb = 6;
  }
  const Model model = modelFromJson(j);
  const FlexibleChainOptions options =
      base == Base::Translating ? FlexibleChainOptions{true, kSpacecraftMass * kSlug} : FlexibleChainOptions{};
  FlexibleChain chain = makeFlexibleChain(model, flexibleLinksFromJson(j, model).links, options);
  if (r.edit) r.edit(chain);
  FlexibleChainData data(chain);
  VecX phi = VecX::Zero(chain.dof);
  phi.segment(nb, q.size()) = q;
  flexibleMassMatrix(chain, data, phi);
  std::vector<int> rigid, modal;
  for (int i = 0; i < chain.nv; ++i)
    if (i < nb || ((free_joints >> (i - nb)) & 1u)) rigid.push_back(i);
  for (int i = chain.nv; i < chain.nv + chain.nf; ++i) modal.push_back(i);
  for (int i = chain.nv + chain.nf; i < chain.dof; ++i) rigid.push_back(i);
  const auto block = [](const MatX& A, const std::vector<int>& rows, const std::vector<int>& cols) {
    MatX B(rows.size(), cols.size());
    for (size_t a = 0; a < rows.size(); ++a)
      for (size_t b = 0; b < cols.size(); ++b) B(a, b) = A(rows[a], cols[b]);
    return B;
  };
  MatX M = block(data.I, modal, modal);
  if (!rigid.empty()) M -= block(data.I, modal, rigid) * block(data.I, rigid, rigid).ldlt().solve(block(data.I, rigid, modal));
  M = 0.5 * (M + M.transpose());
  const NaturalModes nm = naturalModes(block(chain.K, modal, modal), M, "Tesar readings");
  std::vector<double> f;
  for (Eigen::Index k = 0; k < nm.omega.size(); ++k) f.push_back(nm.omega[k] / (2 * kPi));
  return f;
}

/// The first frequency more than 1 % above the lowest (the next distinct one: a pair split by less is one pair).
double secondDistinct(const std::vector<double>& f) {
  for (double v : f)
    if (v > 1.01 * f[0]) return v;
  return 0;
}

/// The printed mode-1 generalised masses (3.1-27…30): 2.38 (link 2) and 1.45 (link 3) instead of m/5 for the
/// shape u², on both bending directions (modes 1 and 3 of each link).
void printedModeOneMass(FlexibleChain& c) {
  REQUIRE(c.matrices.size() == 2);
  const double ratio[2] = {2.38 / (9.536 / 5), 1.45 / (5.982 / 5)};
  for (int k = 0; k < 2; ++k) {
    c.matrices[k].I_qq(0, 0) *= ratio[k];
    c.matrices[k].I_qq(2, 2) *= ratio[k];
  }
}

/// The printed stiffness (3.1-31, -32) to its two figures: K12 −3.5e3 / −1.7e3 and K22 7.7e3 / 3.8e3 lb/ft
/// instead of −3.2 and 6.88 × EI/L³ (K11 = 4·EI/L³ is the printed 4.5e3 / 2.2e3 by construction of EI).
void printedStiffness(FlexibleChain& c) {
  REQUIRE(c.matrices.size() == 2);
  const double k12[2] = {3.5e3 / 3.6e3, 1.7e3 / 1.76e3}, k22[2] = {7.7e3 / 7.74e3, 3.8e3 / 3.784e3};
  for (int k = 0; k < 2; ++k) {
    MatX& K = c.matrices[k].K;
    for (int d : {0, 2}) {
      K(d, d + 1) *= k12[k];
      K(d + 1, d) *= k12[k];
      K(d + 1, d + 1) *= k22[k];
    }
    c.K.block(c.offset[k], c.offset[k], K.rows(), K.cols()) = K;
  }
}

json inertiaAbout(json j, std::initializer_list<int> joints, const char* about) {
  for (int i : joints) j["joints"][i]["link"]["inertia_about"] = about;
  return j;
}

/// The readings of Tables 3.1-1 and 3.1-2 that load (docs/flexible.md lists them with the same names).
std::vector<Reading> readings() {
  const json arm = spaceArm();
  std::vector<Reading> r;
  r.push_back({"built-in", arm, {}});
  r.push_back({"inertia: all six about the CoM", inertiaAbout(arm, {0, 1, 3, 4}, "com"), {}});
  r.push_back({"inertia: link 2 about the CoM", inertiaAbout(arm, {1}, "com"), {}});
  r.push_back({"inertia: links 1, 4, 5 about the CoM", inertiaAbout(arm, {0, 3, 4}, "com"), {}});
  {
    json j = arm;
    const auto flip = [&j](int joint, int a, int b) {
      auto& I = j["joints"][joint]["link"]["inertia"];
      I[a][b] = -I[a][b].get<double>();
      I[b][a] = -I[b][a].get<double>();
    };
    flip(0, 0, 2), flip(0, 1, 2), flip(1, 1, 2), flip(2, 0, 2), flip(2, 1, 2), flip(5, 0, 2);
    r.push_back({"signs: the quoted entries positive", j, {}});
  }
  {
    json j = arm;
    j["joints"][5]["link"]["inertia"][0][2] = j["joints"][5]["link"]["inertia"][2][0] = -0.721;
    r.push_back({"signs: link 6 I_xz = -0.721", j, {}});
  }
  r.push_back({"mode-1 mass: printed 2.38 / 1.45", arm, printedModeOneMass});
  r.push_back({"stiffness: printed K12, K22", arm, printedStiffness});
  r.push_back({"mode-1 mass and stiffness printed", arm, [](FlexibleChain& c) { printedModeOneMass(c), printedStiffness(c); }});
  {
    json j = arm;
    j["joints"][2].erase("flexible");
    r.push_back({"flexible: link 2 only", j, {}});
  }
  {
    json j = arm;
    j["joints"][1].erase("flexible");
    r.push_back({"flexible: link 3 only", j, {}});
  }
  for (double z : {0.0, 8.0}) {
    json j = arm;
    j["base"]["xyz"][2] = z;
    r.push_back({z == 0 ? "link 0's L_z = 0.0" : "link 0's L_z = 8.0", j, {}});
  }
  {
    json j = arm;
    for (auto& joint : j["joints"]) joint["theta_f"] = 0.0;
    r.push_back({"theta offsets not added", j, {}});
  }
  {
    json j = arm;
    for (int i : {1, 2}) {
      j["joints"][i]["flexible"]["modes"]["c1"] = 0.37;
      j["joints"][i]["flexible"]["modes"]["c2"] = -2.5;
    }
    r.push_back({"shapes: c1 = 0.37, c2 = -2.5", j, {}});
  }
  return r;
}

VecX configuration(int n) {
  VecX q = VecX::Zero(6);
  if (n == 2) q[2] = kPi / 2;  // #2: joint 3 (the elbow) at pi/2
  return q;
}

void printTable() {
  static bool printed = false;
  const char* env = std::getenv("ACHAIN_TESAR_TABLE");
  if (printed || env == nullptr || std::string(env) != "1") return;
  printed = true;
  std::cout << "reading | config | fixed locked | translating locked | free locked | translating, joints free\n";
  for (const Reading& r : readings())
    for (int n : {1, 2}) {
      std::cout << r.name << " | #" << n;
      for (auto [base, joints] : {std::pair{Base::Fixed, 0u}, {Base::Translating, 0u}, {Base::Free, 0u}, {Base::Translating, 63u}}) {
        const std::vector<double> f = frequencies(r, configuration(n), base, joints);
        std::cout << std::fixed << std::setprecision(5) << " | " << f[0] << " / " << secondDistinct(f);
      }
      std::cout << "\n";
    }
}

}  // namespace tesar_readings

using namespace tesar_readings;

TEST_CASE("Tesar-Graves 3 Hz: every reading of the space arm's data at configuration #1", "[flex][tesar]") {
  printTable();
  const VecX q1 = configuration(1);
  const std::vector<Reading> all = readings();
  const auto reading = [&all](const std::string& name) -> const Reading& {
    for (const Reading& r : all)
      if (r.name == name) return r;
    throw Error("no reading " + name);
  };

  SECTION("the condensation is flex-modes' analysis; the spacecraft as three prismatic joints is the translating base") {
    const json arm = spaceArm();
    const Model m = modelFromJson(arm);
    const FlexibleChain fixed = makeFlexibleChain(m, flexibleLinksFromJson(arm, m).links);
    FlexibleChainData d(fixed);
    const NaturalModes locked = flexibleChainModes(fixed, d, q1);
    const std::vector<double> ours = frequencies(all[0], q1, Base::Fixed);
    for (int k = 0; k < 10; ++k) CHECK(ours[k] == Approx(locked.omega[k] / (2 * kPi)).epsilon(1e-12));
    const FlexibleChain moving = makeFlexibleChain(m, flexibleLinksFromJson(arm, m).links, {true, kSpacecraftMass * kSlug});
    FlexibleChainData dm(moving);
    const NaturalModes translating = flexibleChainModes(moving, dm, q1);  // three zeros first
    const std::vector<double> condensed = frequencies(all[0], q1, Base::Translating);
    for (int k = 0; k < 10; ++k) CHECK(condensed[k] == Approx(translating.omega[k + 3] / (2 * kPi)).epsilon(1e-9));
    // the emulation used for the free-floating spacecraft, without its rotations, against the translating base
    const Reading joints{"spacecraft as prismatic joints", withSpacecraftJoints(arm, false), {}};
    const Model mj = modelFromJson(joints.robot);
    const FlexibleChain cj = makeFlexibleChain(mj, flexibleLinksFromJson(joints.robot, mj).links);
    FlexibleChainData dj(cj);
    flexibleMassMatrix(cj, dj, VecX::Zero(cj.dof));
    const MatX& I = dj.I;
    const int nf = cj.nf;
    const MatX Mff = I.bottomRightCorner(nf, nf) -
                     I.bottomLeftCorner(nf, 3) * I.topLeftCorner(3, 3).ldlt().solve(I.topRightCorner(3, nf).eval());
    const NaturalModes e = naturalModes(cj.K.bottomRightCorner(nf, nf), Mff);
    for (int k = 0; k < 10; ++k) CHECK(e.omega[k] / (2 * kPi) == Approx(condensed[k]).epsilon(1e-9));
  }

  SECTION("each reading's lowest two distinct frequencies (Hz): base fixed, translating, free (6 DOF), joints locked; translating, joints free") {
    struct Row {
      const char* reading;
      double f[4][2];  // fixed locked, translating locked, free locked, translating with the joints free
    };
    const Row rows[] = {
        {"built-in", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73035, 5.36173}, {5.92768, 6.64709}}},
        {"inertia: all six about the CoM", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73035, 5.36172}, {5.60803, 5.68987}}},
        {"inertia: link 2 about the CoM", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73035, 5.36172}, {5.73791, 6.44336}}},
        {"inertia: links 1, 4, 5 about the CoM", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73035, 5.36173}, {5.77534, 6.52617}}},
        {"signs: the quoted entries positive", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73035, 5.36173}, {5.92768, 6.64709}}},
        {"signs: link 6 I_xz = -0.721", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73035, 5.36173}, {5.92768, 6.64713}}},
        {"mode-1 mass: printed 2.38 / 1.45", {{1.70132, 4.90293}, {1.70324, 4.90402}, {1.71283, 4.90571}, {5.30887, 5.79797}}},
        {"stiffness: printed K12, K22", {{1.74454, 5.43264}, {1.74655, 5.43405}, {1.75659, 5.43622}, {6.02169, 6.75873}}},
        {"mode-1 mass and stiffness printed", {{1.72722, 4.97421}, {1.72917, 4.97530}, {1.73892, 4.97700}, {5.39756, 5.90085}}},
        {"flexible: link 2 only", {{2.38301, 37.28078}, {2.38633, 37.28640}, {2.40093, 37.28970}, {7.79615, 10.12415}}},
        {"flexible: link 3 only", {{2.25314, 33.17607}, {2.25490, 33.17918}, {2.26499, 33.18892}, {6.24689, 6.80690}}},
        {"link 0's L_z = 0.0", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73034, 5.36172}, {5.92768, 6.64709}}},
        {"link 0's L_z = 8.0", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73062, 5.36178}, {5.92768, 6.64709}}},
        {"theta offsets not added", {{1.71355, 5.32682}, {1.71552, 5.32822}, {1.71619, 5.33016}, {5.08055, 7.39150}}},
        {"shapes: c1 = 0.37, c2 = -2.5", {{1.71849, 5.35816}, {1.72046, 5.35956}, {1.73035, 5.36173}, {5.92768, 6.64709}}},
    };
    const std::pair<Base, unsigned> columns[4] = {{Base::Fixed, 0u}, {Base::Translating, 0u}, {Base::Free, 0u}, {Base::Translating, 63u}};
    for (const Row& row : rows)
      for (int c = 0; c < 4; ++c) {
        const std::vector<double> f = frequencies(reading(row.reading), q1, columns[c].first, columns[c].second);
        INFO(row.reading << ", column " << c << ": " << f[0] << ", " << secondDistinct(f));
        CHECK(f[0] == Approx(row.f[c][0]).epsilon(1e-3));
        CHECK(secondDistinct(f) == Approx(row.f[c][1]).epsilon(1e-3));
      }
  }

  SECTION("the stiffness as printed, and the digest's uncoupled checks") {
    // links alone, root clamped (flexibleLinkMatrices of the file): 6.107 and 5.391 Hz; with the printed K (the
    // digest's 6.20 and 5.50 Hz) and with the printed mode-1 mass too (the digest's 5.55 Hz for link 2)
    const json arm = spaceArm();
    const Model m = modelFromJson(arm);
    for (auto [edit, link2, link3] : {std::tuple{std::function<void(FlexibleChain&)>{}, 6.10694, 5.39124},
                                      {printedStiffness, 6.19739, 5.50468},
                                      {[](FlexibleChain& c) { printedStiffness(c), printedModeOneMass(c); }, 5.55107, 5.00272}}) {
      FlexibleChain c = makeFlexibleChain(m, flexibleLinksFromJson(arm, m).links);
      if (edit) edit(c);
      CHECK(clampedLinkModes(c.matrices[0]).omega[0] / (2 * kPi) == Approx(link2).epsilon(1e-5));
      CHECK(clampedLinkModes(c.matrices[1]).omega[0] / (2 * kPi) == Approx(link3).epsilon(1e-5));
    }
    const std::vector<double> k = frequencies(reading("stiffness: printed K12, K22"), q1, Base::Translating);
    CHECK(k[0] == Approx(1.74655).epsilon(1e-3));
    const std::vector<double> mk = frequencies(reading("mode-1 mass and stiffness printed"), q1, Base::Translating);
    CHECK(mk[0] == Approx(1.72917).epsilon(1e-3));
  }

  SECTION("frequencies do not depend on the shapes' scale, nor, joints locked, on the inertia's reference point") {
    for (Base b : {Base::Fixed, Base::Translating})
      for (unsigned joints : {0u, 63u}) {
        const std::vector<double> a = frequencies(all[0], q1, b, joints), c = frequencies(reading("shapes: c1 = 0.37, c2 = -2.5"), q1, b, joints);
        for (size_t k = 0; k < a.size(); ++k) CHECK(c[k] == Approx(a[k]).epsilon(1e-9));
      }
    // joints locked, bending carries no rotation: the bending modes see the distal links' masses only
    const std::vector<double> a = frequencies(all[0], q1, Base::Fixed), c = frequencies(reading("inertia: all six about the CoM"), q1, Base::Fixed);
    for (int k = 0; k < 4; ++k) CHECK(c[k] == Approx(a[k]).epsilon(1e-9));
  }

  SECTION("readings the loader refuses") {
    const json arm = spaceArm();
    const auto load = [](const json& j) {
      const Model m = modelFromJson(j);
      return makeFlexibleChain(m, flexibleLinksFromJson(j, m).links).dof;
    };
    // link 3 about its origin: 850 < m·L²/3 = 1071 of its own beam
    CHECK_THROWS_WITH(load(inertiaAbout(arm, {2}, "origin")), Catch::Contains("joints[2].link: the local inertia matrix is not positive definite"));
    // link 6 about its origin: I_yy 0.301 < m·c_z² = 3.61
    CHECK_THROWS_WITH(load(inertiaAbout(arm, {5}, "origin")), Catch::Contains("joints[5].link.inertia: must be positive semi-definite"));
    // link 3's CoM as printed, (11.58, 0, 2.17): about the CoM or the origin
    json j = arm;
    j["joints"][2]["link"]["com"] = {11.58, 0, 2.17};
    CHECK_THROWS_WITH(load(j), Catch::Contains("joints[2].link: the local inertia matrix is not positive definite"));
    CHECK_THROWS_WITH(load(inertiaAbout(j, {2}, "origin")), Catch::Contains("joints[2].link.inertia: must be positive semi-definite"));
  }

  SECTION("which joints are free: the 64 subsets give 1.718 to 5.927 Hz, none between 2.54 and 3.57 Hz") {
    std::vector<double> first(64);
    for (unsigned s = 0; s < 64; ++s) {
      first[s] = frequencies(all[0], q1, Base::Fixed, s)[0];
      INFO("free joints (bit i: joint i + 1) " << s << ": " << first[s] << " Hz");
      CHECK((first[s] < 2.538 || first[s] > 3.576));
    }
    CHECK(*std::min_element(first.begin(), first.end()) == Approx(first[0]).epsilon(1e-12));
    CHECK(*std::max_element(first.begin(), first.end()) == Approx(first[63]).epsilon(1e-12));
    CHECK(first[0] == Approx(1.71849).epsilon(1e-5));   // all locked
    CHECK(first[63] == Approx(5.92697).epsilon(1e-5));  // all free (the report's Model.c: zero joint torques)
    // a joint frees only the pair in its plane: the elbow alone lifts the in-plane one to 3.58 Hz, the out-of-plane
    // pair stays at 1.72 until the shoulder yaw (joint 1) is free too
    const std::vector<double> elbow = frequencies(all[0], q1, Base::Fixed, 0b000100);
    CHECK(elbow[0] == Approx(1.71849).epsilon(1e-5));
    CHECK(secondDistinct(elbow) == Approx(3.57648).epsilon(1e-5));
    CHECK(first[0b000101] == Approx(3.57648).epsilon(1e-5));  // joints 1 and 3: the nearest above 3 Hz
    CHECK(first[0b001001] == Approx(2.53701).epsilon(1e-5));  // joints 1 and 4: the nearest below
  }
}

TEST_CASE("Tesar-Graves 0.1 Hz: configuration #2's close pair and its beat", "[flex][tesar]") {
  const Reading arm{"built-in", spaceArm(), {}};
  const VecX q2 = configuration(2);
  // joints locked: the bent elbow splits #1's degenerate pairs; 2.2531 and 2.3830 Hz are link 3 bending in the
  // arm's plane (link 2 still) and link 2 bending along link 3's axis (link 3 carried rigidly): the two links' clamped
  // frequencies with the distal masses (the "flexible: link 3 only" and "link 2 only" readings at #1)
  const std::vector<double> fixed = frequencies(arm, q2, Base::Fixed), moving = frequencies(arm, q2, Base::Translating);
  CHECK(fixed[0] == Approx(1.34377).epsilon(1e-4));
  CHECK(fixed[1] == Approx(2.25314).epsilon(1e-4));
  CHECK(fixed[2] == Approx(2.38301).epsilon(1e-4));
  CHECK(fixed[3] == Approx(4.71467).epsilon(1e-4));
  CHECK(fixed[2] - fixed[1] == Approx(0.12987).epsilon(1e-3));   // the beat, Hz (period 7.7 s)
  CHECK(moving[2] - moving[1] == Approx(0.13143).epsilon(1e-3));  // the spacecraft translating
  const std::vector<double> free6 = frequencies(arm, q2, Base::Free);
  CHECK(free6[2] - free6[1] == Approx(0.14155).epsilon(1e-3));
  // the printed generalised masses keep it
  const std::vector<double> printed = frequencies({"", arm.robot, printedModeOneMass}, q2, Base::Translating);
  CHECK(printed[2] - printed[1] == Approx(0.12827).epsilon(1e-3));
  // at #1 the same modes are a degenerate pair: no beat
  const std::vector<double> one = frequencies(arm, configuration(1), Base::Translating);
  CHECK(std::abs(one[1] - one[0]) < 1e-9 * one[0]);
  // joints free at #2: the lowest mode is 3.15 Hz, and no pair closer than 0.3 Hz below 10 Hz
  const std::vector<double> free_joints = frequencies(arm, q2, Base::Translating, 63);
  CHECK(free_joints[0] == Approx(3.14568).epsilon(1e-3));
  for (size_t k = 0; k + 1 < free_joints.size() && free_joints[k + 1] < 10; ++k) CHECK(free_joints[k + 1] - free_joints[k] > 0.3);

  // the pair's shapes: the 2.2531 Hz mode does not move link 2, the 2.3830 Hz mode does not bend link 3, so each
  // modal coordinate (and each world axis of the tool) holds one of them; only a signal mixing both directions beats
  const json j = spaceArm();
  const Model m = modelFromJson(j);
  const FlexibleChain c = makeFlexibleChain(m, flexibleLinksFromJson(j, m).links);
  FlexibleChainData d(c);
  const NaturalModes modes = flexibleChainModes(c, d, q2);
  const VecX link3 = modes.shapes.col(1), link2 = modes.shapes.col(2);
  CHECK(link3.head(5).cwiseAbs().maxCoeff() < 1e-9 * link3.cwiseAbs().maxCoeff());
  CHECK(link2.segment(5, 4).cwiseAbs().maxCoeff() < 1e-9 * link2.cwiseAbs().maxCoeff());
}
