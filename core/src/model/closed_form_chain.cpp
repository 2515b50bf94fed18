#include <achain/model/closed_form_chain.hpp>

#include <cmath>

#include <achain/model/dh_extract.hpp>

namespace achain {

const Model& standardDH(const Model& m, Model& storage) {
  if (m.convention == DHConvention::Standard) return m;
  storage = convertConvention(m, DHConvention::Standard);
  return storage;
}

std::string serialChainProblem(const Model& m, int n, int turns) {
  for (int i = 0; i < m.njoints(); ++i)
    if (m.joints[i].has_origin)
      return "joints[" + std::to_string(i) + "].origin: placed by origin/axis (URDF), not by DH constants; the closed forms need a DH chain";
  if (m.njoints() != n || m.nq != n) return "needs exactly " + std::to_string(n) + " joints";
  for (int i = 0; i < n; ++i) {
    if (m.joints[i].parent != i - 1) return "joints[" + std::to_string(i) + "].parent: not a serial chain";
    const JointModel& jm = m.jmodels[i];
    const bool turning = jm.independent && jm.scale == 1 && jm.offset == 0 && std::abs(jm.rot) == 1;
    const bool two_turns = std::abs(jm.period - 2 * kPi) < 1e-9 || std::abs(jm.period - 4 * kPi) < 1e-9;
    if (!(turning && (jm.law.isZero() || (turns == 2 && two_turns))))
      return "joints[" + std::to_string(i) + "].kind: " +
             (turns == 2 ? "only R and A joints (or a law repeating within two turns)" : "only R joints");
  }
  if (m.toolLink() != n - 1) return "tool_link: the tool must sit on the last link";
  return "";
}

namespace {

bool nearMultipleOfPi(double a) { return std::abs(std::sin(a)) < 1e-9; }

/// The prototype class's conditions on the standard-DH chain S ("" when they hold).
std::string prototypeProblem(const Model& S) {
  if (const std::string p = serialChainProblem(S, 4, 2); !p.empty()) return p;
  const auto& J = S.joints;
  if (!nearMultipleOfPi(J[1].alpha)) return "joints[1].alpha: axes 2 and 3 must be parallel (alpha = 0 or 180 deg)";
  if (std::abs(std::sin(J[0].alpha)) < 1e-6) return "joints[0].alpha: axis 2 must not be parallel to axis 1";
  if (std::abs(std::sin(J[1].alpha + J[2].alpha)) < 1e-6) return "joints[2].alpha: axis 4 must not be parallel to axis 3";
  if (std::abs(J[1].a) < 1e-9) return "joints[1].a: must be non-zero";
  return "";
}

/// The wrist-partitioned 6R conditions on the standard-DH chain S ("" when they hold).
std::string wrist6rProblem(const Model& S) {
  if (const std::string p = serialChainProblem(S, 6, 1); !p.empty()) return p;
  const auto& J = S.joints;
  if (std::abs(std::sin(J[0].alpha)) < 1e-6) return "joints[0].alpha: axis 2 must not be parallel to axis 1";
  if (std::abs(std::sin(J[1].alpha)) > 1e-9) return "joints[1].alpha: axes 2 and 3 must be parallel";
  if (std::abs(J[1].a) < 1e-9) return "joints[1].a: must be non-zero";
  if (std::abs(J[3].a) > 1e-12 || std::abs(J[4].a) > 1e-12 || std::abs(J[4].d) > 1e-12 || std::abs(J[5].a) > 1e-12)
    return "joints[3..5]: wrist axes 4, 5, 6 must meet in a point (a4 = a5 = d5 = a6 = 0)";
  if (std::abs(std::sin(J[3].alpha)) < 1e-6 || std::abs(std::sin(J[4].alpha)) < 1e-6)
    return "joints[3..4].alpha: wrist axes must not be parallel";
  return "";
}

/// The standard-DH chain the closed forms read (S): a DH serial chain itself or in the standard convention, a DH
/// tree as it is (the class checks refuse it), or the DH description extracted from a chain placed by origin/axis
/// (URDF; model/dh_extract.hpp). Returns "" or the reason there is none (S = nullptr).
std::string standardForm(const Model& m, Model& storage, const Model*& S) {
  S = nullptr;
  if (m.has_dh) {
    bool serial = true;
    for (int i = 0; i < m.njoints(); ++i) serial = serial && m.joints[i].parent == i - 1;
    S = serial ? &standardDH(m, storage) : &m;
    return "";
  }
  DHExtraction x = extractDH(m);
  if (!x.ok) return "placed by origin/axis (URDF) with no DH description: " + x.reason;
  storage = std::move(x.model);
  S = &storage;
  return "";
}

/// The class's problem ("" when it holds) for model m, through its standard-DH chain.
std::string classProblem(const Model& m, std::string (*problem)(const Model&)) {
  Model storage;
  const Model* S = nullptr;
  const std::string why = standardForm(m, storage, S);
  return S ? problem(*S) : why;
}

/// Moving joints on the path from the tool's link to the base (both closed forms need 4 or 6).
int pathCoordinates(const Model& m) {
  int n = 0;
  for (int i = m.njoints() > 0 ? m.toolLink() : -1; i >= 0; i = m.joints[i].parent) n += m.idx_q[i] >= 0;
  return n;
}

}  // namespace

std::string prototypeClassProblem(const Model& m) { return classProblem(m, prototypeProblem); }

std::string wrist6RClassProblem(const Model& m) { return classProblem(m, wrist6rProblem); }

ClosedFormChain deriveClosedFormChain(const Model& m) {
  using Chain = ClosedFormChain;
  Chain c;
  const int path = pathCoordinates(m);
  if (path != 4 && path != 6) return c;  // neither class: skip the DH extraction of a URDF chain
  Model storage;
  const Model* Sp = nullptr;
  standardForm(m, storage, Sp);
  if (!Sp) return c;
  const Model& S = *Sp;
  if (prototypeProblem(S).empty()) {
    c.cls = Chain::kPrototype;
  } else if (wrist6rProblem(S).empty()) {
    c.cls = Chain::kWrist6R;
  } else {
    return c;
  }
  const auto& J = S.joints;
  const int n = c.nq = S.nq;
  for (int i = 0; i < n; ++i) {
    const JointModel& jm = S.jmodels[i];
    c.jm[i] = jm;
    c.limits[i] = J[i].limits;
    c.a[i] = J[i].a;
    c.ca[i] = std::cos(J[i].alpha);
    c.sa[i] = std::sin(J[i].alpha);
    c.d[i] = jm.d0;
    c.theta0[i] = jm.theta0;
    c.rot[i] = jm.rot;
    c.period[i] = jm.period;
  }
  c.base_inv = S.base.inverse();
  c.tool = S.tool;
  c.tool_inv = S.tool.inverse();
  c.tool_identity = S.tool == SE3::Identity();
  c.rx_last_t = rotX(J[n - 1].alpha).R.transpose();
  c.c_a2 = std::cos(J[1].alpha) > 0 ? 1.0 : -1.0;
  if (c.cls == Chain::kPrototype) {
    c.alpha_e = J[0].alpha;
    c.beta_e = J[1].alpha + J[2].alpha;
    c.atan_a1 = std::atan2(0.0, J[1].a);
    c.sgn_a1 = J[1].a > 0 ? 1.0 : -1.0;
  } else {
    c.alpha_e = J[3].alpha;
    c.beta_e = J[4].alpha;
    const Vec3 v3(J[2].a, -std::sin(J[2].alpha) * J[3].d, J[2].d + std::cos(J[2].alpha) * J[3].d);
    c.h = J[1].d + c.c_a2 * v3.z();
    const double bx = v3.x(), by = c.c_a2 * v3.y();
    c.L3 = std::hypot(bx, by);
    c.beta = std::atan2(by, bx);
    c.cbeta = bx / c.L3;
    c.sbeta = by / c.L3;
  }
  c.ca_e = std::cos(c.alpha_e);
  c.sa_e = std::sin(c.alpha_e);
  c.cb_e = std::cos(c.beta_e);
  c.sb_e = std::sin(c.beta_e);
  return c;
}

}  // namespace achain
