// achain → MJCF (modelToMjcf) → MuJoCo → numbers. R/P chains and a URDF tree: the exported file, loaded with
// mj_loadXML, gives the tool site pose, mj_inverse's τ and mj_fullM's M of achain's FK, RNEA and CRBA to 1e-9
// on random states (qpos = achain's q). The prototype 4A: the A-pairs' ρ·sin(u/2) is MuJoCo's quartic joint
// equality; the tool site over the range (the slides set to the polycoef MuJoCo parsed) is compared with
// achain's FK and the error bound documented in docs/robot-format.md is asserted. Mimic joints (gripper fixture):
// MuJoCo's joint equalities are satisfied at achain's joint values and the tool site agrees. The 4A's dynamics:
// MuJoCo's τ and M projected on the hinges along the coupled path equal achain's (massless legs) to 1e-9 with the
// exact law in the slides, and to the documented bound with the fitted quartic.
#include <catch2/catch.hpp>

#ifdef ACHAIN_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/mjcf.hpp>
#include <achain/io/urdf.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>
#include <achain/model/robots.hpp>
#include "helpers.hpp"
#include "mjcf_load.hpp"
#include "test_paths.hpp"
#include "urdf_test_support.hpp"

using namespace achain;

namespace {

/// A URDF fixture (tests/fixtures/urdf) with the tool on `tool_link`.
Model urdfFixture(const std::string& name, const std::string& tool_link) { return test::loadUrdfFixture(name, tool_link); }

double relErr(const MatX& a, const MatX& b) { return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff()); }

/// Exports m, loads it in MuJoCo and compares tool pose, inverse dynamics and M on `states` random states.
void compareExport(const Model& m, int seed, int states = 40) {
  std::vector<std::string> warnings;
  mjModel* mm = loadMjcf(modelToMjcf(m, &warnings));
  mjData* md = mj_makeData(mm);
  const int n = m.nv;
  REQUIRE(mm->nv == n);
  REQUIRE(mm->nq == n);
  std::vector<int> dof(n);
  for (int i = 0; i < m.njoints(); ++i) {
    if (!m.jmodels[i].independent) continue;
    const int jid = mj_name2id(mm, mjOBJ_JOINT, m.joints[i].name.c_str());
    REQUIRE(jid >= 0);
    dof[m.idx_q[i]] = mm->jnt_dofadr[jid];
    CHECK(mm->jnt_qposadr[jid] == mm->jnt_dofadr[jid]);  // hinge/slide: one qpos per dof
  }
  const int site = mj_name2id(mm, mjOBJ_SITE, "tool");
  REQUIRE(site >= 0);
  Data data(m);
  DynamicsOptions o;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-2, 2);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> full(n, n);
  MatX M(n, n), Mmj(n, n);
  VecX tau(n), tmj(n);
  double worst_tau = 0, worst_M = 0, worst_p = 0;
  for (int k = 0; k < states; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    VecX qd(n), qdd(n);
    for (int i = 0; i < n; ++i) qd[i] = uni(rng), qdd[i] = 1.5 * uni(rng);
    for (int i = 0; i < n; ++i) md->qpos[dof[i]] = q[i], md->qvel[dof[i]] = qd[i], md->qacc[dof[i]] = qdd[i];
    mj_inverse(mm, md);
    CHECK(md->nefc == 0);  // inside the ranges: no limit is active, nothing but rigid-body forces
    forwardKinematics(m, data, q);
    for (int r = 0; r < 3; ++r) {
      worst_p = std::max(worst_p, std::abs(md->site_xpos[3 * site + r] - data.oMtool.p[r]));
      for (int c = 0; c < 3; ++c) CHECK(std::abs(md->site_xmat[9 * site + 3 * r + c] - data.oMtool.R(r, c)) < 1e-12);
    }
    mj_fullM(mm, full.data(), md->qM);
    for (int a = 0; a < n; ++a) {
      tmj[a] = md->qfrc_inverse[dof[a]];
      for (int b = 0; b < n; ++b) Mmj(a, b) = full(dof[a], dof[b]);
    }
    massMatrix(m, data, q, o, M);
    inverseDynamics(m, data, q, qd, qdd, o, tau);
    worst_M = std::max(worst_M, relErr(M, Mmj));
    worst_tau = std::max(worst_tau, relErr(tau, tmj));
  }
  std::cout << "MJCF export " << m.name << ": " << states << " states, max |Δp_tool| " << worst_p << " m, max rel ΔM "
            << worst_M << ", max rel Δτ " << worst_tau << "\n";
  CHECK(worst_p < 1e-12);
  CHECK(worst_M < 1e-9);
  CHECK(worst_tau < 1e-9);
  mj_deleteData(md);
  mj_deleteModel(mm);
}

}  // namespace

TEST_CASE("MJCF export: planar-2r, prototype-4r and stanford give MuJoCo's tool pose, RNEA and M to 1e-9", "[peers][mujoco][mjcf]") {
  compareExport(builtinModel("planar-2r"), 11);
  compareExport(builtinModel("prototype-4r"), 12);
  // The Stanford arm's description has kinematics only (MuJoCo refuses massless moving bodies): both sides get
  // the same physical mass properties (principal moments (b+c, a+c, a+b), turned axes, off-axis CoM).
  Model st = builtinModel("stanford");
  for (int i = 0; i < st.njoints(); ++i) {
    Inertial& in = st.joints[i].link;
    in.mass = 1.0 + 0.5 * i;
    in.com = Vec3(0.01 * i, -0.02, 0.05);
    const double a = 0.01, b = 0.02 + 0.001 * i, c = 0.015;
    const Mat3 R = rpyToMatrix(0.3 * i, -0.2, 0.1 * i);
    in.inertia = R * Vec3(b + c, a + c, a + b).asDiagonal() * R.transpose();
  }
  st.finalize();
  compareExport(st, 13);
}

TEST_CASE("MJCF export: PUMA 560 (MuJoCo-loadable inertias) gives MuJoCo's RNEA and M to 1e-9", "[peers][mujoco][mjcf]") {
  // As in test_peers_dynamics: MuJoCo refuses link 1's mass 0 / singular inertia (the export warns) and
  // Corke's link-3 tensor (and link 1's) breaking the triangle inequality (the export sets balanceinertia and warns).
  const Model corke = builtinModel("puma560");
  std::vector<std::string> w;
  modelToMjcf(corke, &w);
  int singular = 0, triangle = 0;
  for (const std::string& s : w) {
    singular += s.find("zero mass or a singular inertia") != std::string::npos;
    triangle += s.find("triangle inequality") != std::string::npos;
  }
  CHECK(singular == 1);
  CHECK(triangle == 2);  // link 1 (0, 0.35, 0) and link 3
  Model m = corke;
  m.joints[0].link.inertia = 0.35 * Mat3::Identity();
  m.joints[0].link.mass = 1.0;
  m.joints[2].link.inertia(1, 1) = 0.066 + 0.0125;
  m.finalize();
  compareExport(m, 14);
}

TEST_CASE("MJCF export: a URDF tree (origin/axis joints, R and P) gives MuJoCo's RNEA and M to 1e-9", "[peers][mujoco][mjcf]") {
  Model m = urdfFixture("tree_two_tools.urdf", "right_tool");
  m.name = "tree_two_tools";
  compareExport(m, 15);
}

TEST_CASE("MJCF export: the prototype 4A's quartic A-pair coupling moves the tool site within the documented bound", "[peers][mujoco][mjcf]") {
  const Model m = builtinModel("prototype-4a");
  std::vector<std::string> warnings;
  const std::string xml = modelToMjcf(m, &warnings);
  mjModel* mm = loadMjcf(xml);
  mjData* md = mj_makeData(mm);
  REQUIRE(mm->nq == 8);
  REQUIRE(mm->neq == 4);
  const int site = mj_name2id(mm, mjOBJ_SITE, "tool");
  REQUIRE(site >= 0);
  std::vector<int> hinge(4), slide(4);
  std::vector<const double*> coef(4);
  for (int i = 0; i < 4; ++i) {
    hinge[i] = mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, m.joints[i].name.c_str())];
    slide[i] = mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, (m.joints[i].name + "_slide").c_str())];
    const int e = mj_name2id(mm, mjOBJ_EQUALITY, (m.joints[i].name + "_coupling").c_str());
    REQUIRE(e >= 0);
    CHECK(mm->eq_type[e] == mjEQ_JOINT);
    coef[i] = mm->eq_data + mjNEQDATA * e;  // polycoef as MuJoCo parsed it
  }
  Data data(m);
  std::mt19937 rng(16);
  double worst_slide = 0, worst_tool = 0, worst_exact = 0;
  for (int k = 0; k < 2000; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    for (int i = 0; i < 4; ++i) {
      const double u = q[i], *c = coef[i];
      md->qpos[hinge[i]] = u;
      md->qpos[slide[i]] = (((c[4] * u + c[3]) * u + c[2]) * u + c[1]) * u + c[0];
      worst_slide = std::max(worst_slide, std::abs(md->qpos[slide[i]] - m.joints[i].rho * std::sin(u / 2)));
    }
    mj_kinematics(mm, md);
    forwardKinematics(m, data, q);
    worst_tool = std::max(worst_tool, (Eigen::Map<const Vec3>(md->site_xpos + 3 * site) - data.oMtool.p).norm());
    // with the exact law in the slides MuJoCo's site is achain's tool: the body placement is exact
    for (int i = 0; i < 4; ++i) md->qpos[slide[i]] = m.joints[i].rho * std::sin(q[i] / 2);
    mj_kinematics(mm, md);
    worst_exact = std::max(worst_exact, (Eigen::Map<const Vec3>(md->site_xpos + 3 * site) - data.oMtool.p).norm());
  }
  std::cout << "MJCF export prototype-4a: rho " << m.joints[0].rho << " m, max slide error " << worst_slide
            << " m, max tool-site position error " << worst_tool << " m (2000 states; exact law: " << worst_exact << " m)\n";
  int fits = 0;
  for (const std::string& w : warnings) fits += w.find("quartic polycoef fitted over") != std::string::npos;
  CHECK(fits == 4);
  CHECK(worst_exact < 1e-12);
  CHECK(worst_slide > 1e-6);           // a quartic is not ρ·sin(u/2): the fit error is real
  CHECK(worst_slide < 1.0e-5);         // documented: 10 µm per A-pair (docs/robot-format.md; fit: 7.95 µm)
  CHECK(worst_tool < 3.0e-5);          // documented: 30 µm at the tool (measured 21.9 µm)
  mj_deleteData(md);
  mj_deleteModel(mm);
}

TEST_CASE("MJCF export: mimic joints as joint equalities that MuJoCo finds satisfied at achain's joint values", "[peers][mujoco][mjcf]") {
  const Model m = urdfFixture("gripper_mimic.urdf", "tip_link");
  REQUIRE(m.nq == 2);
  mjModel* mm = loadMjcf(modelToMjcf(m));
  mjData* md = mj_makeData(mm);
  REQUIRE(mm->nq == m.njoints());  // every joint has its own qpos in MuJoCo
  REQUIRE(mm->neq == 2);           // finger_right and follower tied to their leaders
  const int site = mj_name2id(mm, mjOBJ_SITE, "tool");
  Data data(m);
  std::mt19937 rng(17);
  double worst_eq = 0, worst_p = 0;
  for (int k = 0; k < 50; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    for (int i = 0; i < m.njoints(); ++i) {
      JointState js;
      m.jmodels[i].evaluate(q[m.idx_q[i]], js);
      md->qpos[mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, m.joints[i].name.c_str())]] = js.u;
    }
    mj_forward(mm, md);
    for (int r = 0; r < md->nefc; ++r)
      if (md->efc_type[r] == mjCNSTR_EQUALITY) worst_eq = std::max(worst_eq, std::abs(md->efc_pos[r]));
    forwardKinematics(m, data, q);
    worst_p = std::max(worst_p, (Eigen::Map<const Vec3>(md->site_xpos + 3 * site) - data.oMtool.p).norm());
  }
  CHECK(worst_eq < 1e-15);
  CHECK(worst_p < 1e-12);
  // and a state that breaks the coupling is seen as a violation
  md->qpos[mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, "follower")]] += 0.003;
  mj_forward(mm, md);
  double viol = 0;
  for (int r = 0; r < md->nefc; ++r)
    if (md->efc_type[r] == mjCNSTR_EQUALITY) viol = std::max(viol, std::abs(md->efc_pos[r]));
  CHECK(viol == Approx(0.003).margin(1e-12));
  mj_deleteData(md);
  mj_deleteModel(mm);
}

TEST_CASE("MJCF export: H joints and a mirror-image A-pair place the tool site as achain does (couplings set per polycoef)", "[peers][mujoco][mjcf]") {
  Model m = builtinModel("prototype-4a");
  m.joints[1].sign = -1;  // mirror-image A-pair: rotation −u, translation +ρ·sin(u/2)
  for (int i : {2, 3}) {
    m.joints[i].kind = JointKind::H;
    m.joints[i].rho = m.joints[i].leg_mass = m.joints[i].leg_radius = 0;
  }
  m.joints[2].pitch = 0.02;
  m.joints[3].pitch = 0.01;
  m.joints[3].sign = -1;
  m.finalize();
  mjModel* mm = loadMjcf(modelToMjcf(m));
  mjData* md = mj_makeData(mm);
  REQUIRE(mm->neq == 4);
  const int site = mj_name2id(mm, mjOBJ_SITE, "tool");
  Data data(m);
  std::mt19937 rng(18);
  double worst = 0;
  for (int k = 0; k < 200; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    for (int i = 0; i < 4; ++i) {
      md->qpos[mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, m.joints[i].name.c_str())]] = q[i];
      JointState js;
      m.jmodels[i].evaluate(q[i], js);  // the exact translation (H: the polycoef is exact)
      md->qpos[mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, (m.joints[i].name + "_slide").c_str())]] = js.dz - m.joints[i].d;
    }
    mj_forward(mm, md);
    if (k == 0)  // the H couplings (eq 2, 3) hold exactly; the A-pairs' to the fit error
      for (int r = 0; r < md->nefc; ++r) CHECK(std::abs(md->efc_pos[r]) < (r >= 2 ? 1e-15 : 1e-5));
    forwardKinematics(m, data, q);
    worst = std::max(worst, (Eigen::Map<const Vec3>(md->site_xpos + 3 * site) - data.oMtool.p).norm());
  }
  CHECK(worst < 1e-12);
  mj_deleteData(md);
  mj_deleteModel(mm);
}

TEST_CASE("MJCF export: the prototype 4A's inverse dynamics and M in MuJoCo, projected on the hinges, match achain's (massless legs) to the fit's accuracy", "[peers][mujoco][mjcf]") {
  // On the coupled motion (slide = p(u), ṡ = p'u̇, s̈ = p''u̇² + p'ü) the hinge torque is the virtual-work projection
  // τ = f_hinge + p'·f_slide.
  // The only difference left to achain's RNEA and M (legs massless: MuJoCo has no legs) is p against ρ·sin(u/2).
  const Model m = builtinModel("prototype-4a");
  mjModel* mm = loadMjcf(modelToMjcf(m));
  // The state is put on the coupled path by hand, so the equality's (soft) constraint force is left out: it
  // would cancel in the projection for the fitted law only, its Jacobian being (−p', 1) of the fit.
  mm->opt.disableflags |= mjDSBL_EQUALITY;
  mjData* md = mj_makeData(mm);
  std::vector<int> h(4), sl(4);
  std::vector<const double*> c(4);
  for (int i = 0; i < 4; ++i) {
    h[i] = mm->jnt_dofadr[mj_name2id(mm, mjOBJ_JOINT, m.joints[i].name.c_str())];
    sl[i] = mm->jnt_dofadr[mj_name2id(mm, mjOBJ_JOINT, (m.joints[i].name + "_slide").c_str())];
    c[i] = mm->eq_data + mjNEQDATA * mj_name2id(mm, mjOBJ_EQUALITY, (m.joints[i].name + "_coupling").c_str());
  }
  Data data(m);
  DynamicsOptions o;
  o.legs = LegModel::Massless;
  std::mt19937 rng(19);
  std::uniform_real_distribution<double> uni(-2, 2);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> full(8, 8);
  double worst_tau = 0, worst_M = 0, exact_tau = 0, exact_M = 0;
  for (int k = 0; k < 80; ++k) {
    const bool exact = k % 2 == 1;  // odd states: the exact law in the slides (isolates the fit's share)
    rng.seed(19 + k / 2);  // the same state both ways
    const VecX q = test::randomConfiguration(m, rng);
    VecX qd(4), qdd(4), tau(4), tmj(4);
    MatX T = MatX::Zero(8, 4), M(4, 4);
    for (int i = 0; i < 4; ++i) {
      qd[i] = uni(rng), qdd[i] = 1.5 * uni(rng);
      const double u = q[i], *a = c[i];
      const double r = m.joints[i].rho;
      const double p = exact ? r * std::sin(u / 2) : (((a[4] * u + a[3]) * u + a[2]) * u + a[1]) * u + a[0];
      const double p1 = exact ? 0.5 * r * std::cos(u / 2) : ((4 * a[4] * u + 3 * a[3]) * u + 2 * a[2]) * u + a[1];
      const double p2 = exact ? -0.25 * r * std::sin(u / 2) : (12 * a[4] * u + 6 * a[3]) * u + 2 * a[2];
      md->qpos[mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, m.joints[i].name.c_str())]] = u;
      md->qpos[mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, (m.joints[i].name + "_slide").c_str())]] = p;
      md->qvel[h[i]] = qd[i], md->qvel[sl[i]] = p1 * qd[i];
      md->qacc[h[i]] = qdd[i], md->qacc[sl[i]] = p2 * qd[i] * qd[i] + p1 * qdd[i];
      T(h[i], i) = 1, T(sl[i], i) = p1;
    }
    mj_inverse(mm, md);
    mj_fullM(mm, full.data(), md->qM);
    const VecX f = Eigen::Map<const VecX>(md->qfrc_inverse, 8);
    tmj = T.transpose() * f;
    const MatX Mmj = T.transpose() * MatX(full) * T;
    inverseDynamics(m, data, q, qd, qdd, o, tau);
    massMatrix(m, data, q, o, M);
    double& wt = exact ? exact_tau : worst_tau;
    double& wm = exact ? exact_M : worst_M;
    wt = std::max(wt, relErr(tau, tmj));
    wm = std::max(wm, relErr(M, Mmj));
  }
  std::cout << "MJCF export prototype-4a dynamics (hinge projection, massless legs): max rel Δτ " << worst_tau << ", max rel ΔM "
            << worst_M << " (40 states); with the exact law in the slides: " << exact_tau << ", " << exact_M << "\n";
  CHECK(exact_tau < 1e-9);  // the export itself (bodies, inertials, axes) is exact
  CHECK(exact_M < 1e-9);
  CHECK(worst_tau < 1e-3);  // documented bounds: the quartic's slope and curvature errors (measured 6.2e-4)
  CHECK(worst_M < 1e-4);    // (measured 6.3e-5)
  mj_deleteData(md);
  mj_deleteModel(mm);
}

TEST_CASE("MuJoCo loads the export of a URDF with degenerate limits (no lower/upper, lower = upper)", "[peers][mjcf]") {
  const Model m = urdfFixture("degenerate_limits.urdf", "");
  std::vector<std::string> warnings;
  const std::string xml = modelToMjcf(m, &warnings);
  CHECK(xml.find("range=\"0 0\"") == std::string::npos);
  bool warned = false;
  for (const std::string& w : warnings) warned = warned || w.find("joint 2 (j2): its position range [0, 0] is a single value") != std::string::npos;
  CHECK(warned);
  mjModel* mm = loadMjcf(xml);  // REQUIREs that MuJoCo accepts it
  CHECK(mm->njnt == 2);
  mj_deleteModel(mm);
}

TEST_CASE("MuJoCo loads the MJCF export of every built-in robot and every loadable URDF fixture", "[peers][mjcf]") {
  // Every export must load in MuJoCo: one the exporter refuses fails the case, named with the exporter's reason
  // (a model MuJoCo refuses stops it in loadMjcf, named by INFO). What loaded is printed for the record.
  std::vector<std::pair<std::string, Model>> models;
  for (Model& m : test::everyExportableModel()) models.emplace_back(m.name, std::move(m));
  REQUIRE(models.size() >= 25);
  int loaded = 0;
  std::string refused, names;
  for (const auto& [name, m] : models) {
    INFO(name);
    std::string xml;
    try {
      xml = modelToMjcf(m);
    } catch (const Error& e) {
      refused += "\n  " + name + ": " + e.what();
      continue;
    }
    mjModel* mm = loadMjcf(xml);  // REQUIREs that MuJoCo accepts it
    mj_deleteModel(mm);
    ++loaded;
    names += (names.empty() ? "" : ", ") + name;
  }
  std::cout << "MJCF exports MuJoCo loaded: " << loaded << " of " << models.size() << " (" << names << "); refused by the exporter:" << refused << std::endl;
  INFO("refused by the exporter:" << refused);
  CHECK(loaded == static_cast<int>(models.size()));
}

#endif
