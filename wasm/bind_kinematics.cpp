// Embind surface of the kinematics area (mirrors core/jacobian, core/influence, core/singularity,
// core/statics). Hot paths follow the WasmModel convention: inputs in h.in, results in h.out,
// the function returns h.outAddress(). See wasm/js/kinematics.mjs and wasm/types/kinematics.d.ts.
#include <achain/dynamics/batch.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/io/kinematics_json.hpp>
#include <achain/kinematics/singularity.hpp>
#include <achain/kinematics/statics.hpp>
#include <nlohmann/json.hpp>

#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {

/// The kinematics scratch of one model handle (WasmModel::kin_scratch): created on first use, freed with it.
struct KinScratch {
  MatX J, Jd;
  Influence inf;
  VecX v, a, j, out6;
};
void destroy(KinScratch* p) { delete p; }

namespace {

KinScratch& scratch(WasmModel& h, int n) {
  if (!h.kin_scratch) h.kin_scratch.reset(new KinScratch);
  KinScratch& s = *h.kin_scratch;
  if (s.J.cols() != n) {
    s.J.resize(6, n);
    s.Jd.resize(6, n);
    s.v.resize(n);
    s.a.resize(n);
    s.j.resize(n);
    s.out6.resize(6);
  }
  return s;
}

int checkLinkArg(const Model& m, int link) {
  if (link < -1 || link >= m.njoints())
    throw Error("link: must be in [0, " + std::to_string(m.njoints() - 1) + "] or -1 for the tool (got " + std::to_string(link) + ")");
  return link;
}

/// Resolves the (link, point) pair: link −1 = the tool; usePoint false = the tool origin (for the
/// tool's link) or the link frame origin. The point is read from h.in[offset, offset+3).
void resolvePoint(WasmModel& h, int link, bool usePoint, int offset, int& lk, Vec3& p) {
  const Model& m = h.model;
  checkLinkArg(m, link);
  lk = link < 0 ? m.toolLink() : link;
  if (usePoint) {
    for (int i = 0; i < 3; ++i) {
      p[i] = h.in[offset + i];
      if (!std::isfinite(p[i])) throw Error("point[" + std::to_string(i) + "]: must be a finite number");
    }
  } else if (link < 0 || link == m.toolLink()) {
    p = h.data.oMi[lk].inverse().act(h.data.oMtool.p);
  } else {
    p = Vec3::Zero();
  }
}

void readVec(WasmModel& h, int offset, VecX& v, const char* what) {
  for (int i = 0; i < v.size(); ++i) {
    const double x = h.in[offset + i];
    if (!std::isfinite(x)) throw Error(std::string(what) + "[" + std::to_string(i) + "]: must be a finite number");
    v[i] = x;
  }
}

void putRowMajor(double* o, const MatX& M) {
  for (int r = 0; r < M.rows(); ++r)
    for (int c = 0; c < M.cols(); ++c) *o++ = M(r, c);
}

/// The common start of the point-based entry points: FK of q = in[0, n), the named rate vectors that
/// follow q (read into s.v, s.a, s.j in that order), then the (link, point) pair after them.
struct PointCall {
  KinScratch& s;
  int link;
  Vec3 p;
};
PointCall beginPoint(WasmModel& h, int link, bool usePoint, std::initializer_list<const char*> rates = {}) {
  const int n = h.model.nv;
  forwardKinematics(h.model, h.data, h.readQ());
  KinScratch& s = scratch(h, n);
  VecX* const dst[] = {&s.v, &s.a, &s.j};
  int k = 0;
  for (const char* what : rates) {
    readVec(h, (k + 1) * n, *dst[k], what);
    ++k;
  }
  PointCall c{s, 0, Vec3::Zero()};
  resolvePoint(h, link, usePoint, (k + 1) * n, c.link, c.p);
  return c;
}

int checkFrame(int frame) {
  if (frame != 0 && frame != 1) throw Error("frame: must be 'base' or 'tool'");
  return frame;
}

/// in = [q (n) | point (3)]; out = J row-major 6×n. frame: 0 base, 1 tool.
uintptr_t jacobianJS(WasmModel& h, int link, bool usePoint, int frame) {
  return guard([&] {
    const PointCall c = beginPoint(h, link, usePoint);
    checkFrame(frame);
    pointJacobian(h.model, h.data, c.link, c.p, c.s.J);
    if (frame == 1) rotateJacobian(h.data.oMtool.R, c.s.J);
    putRowMajor(h.output(6 * h.model.nv), c.s.J);
    return h.outAddress();
  });
}

/// Batch Jacobians inside one call (no per-sample JS or Embind cost; the core's pointJacobianSeries, vectorised
/// across samples, equal to pointJacobian to rounding): in = [count samples of q (n each) |
/// point (3)]; out = count Jacobians, row-major 6×n each. frame: 0 base, 1 tool.
uintptr_t jacobianSeries(WasmModel& h, int link, bool usePoint, int frame, int count) {
  return guard([&] {
    const int n = h.model.nv;
    if (count < 0) throw Error("count: must be ≥ 0");
    h.requireInput(static_cast<size_t>(n) * count + 3);
    checkLinkArg(h.model, link);
    checkFrame(frame);
    for (int k = count - 1; k >= 0; --k) h.readQ(n * k);  // checks every sample; sample 0's FK resolves the point
    int lk = link < 0 ? h.model.toolLink() : link;
    Vec3 p = Vec3::Zero();
    if (count > 0) {
      forwardKinematics(h.model, h.data, h.q);
      resolvePoint(h, link, usePoint, n * count, lk, p);
    }
    // The core's batch call (dynamics/batch.hpp) writes column-major Jacobians behind the row-major results;
    // result k is written before Jacobian k's storage.
    const size_t each = static_cast<size_t>(6 * n);
    double* out = h.output(2 * each * std::max(count, 1));
    double* colmajor = out + each * count;
    pointJacobianSeries(h.model, h.data, count, h.in.data(), lk, p, frame == 1, colmajor);
    for (int k = 0; k < count; ++k) {
      const Eigen::Map<const MatX> J(colmajor + each * k, 6, n);
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < n; ++c) out[each * k + static_cast<size_t>(r) * n + c] = J(r, c);
    }
    return h.outAddress();
  });
}

/// in = [q | qd | point]; out = [J̇ row-major 6×n | J̇·q̇ (6)] (base frame).
uintptr_t jacobianDotJS(WasmModel& h, int link, bool usePoint) {
  return guard([&] {
    const int n = h.model.nv;
    const PointCall c = beginPoint(h, link, usePoint, {"qd"});
    pointJacobianDerivative(h.model, h.data, c.link, c.p, c.s.v, c.s.Jd);
    double* o = h.output(6 * n + 6);
    putRowMajor(o, c.s.Jd);
    c.s.out6.noalias() = c.s.Jd * c.s.v;
    for (int r = 0; r < 6; ++r) o[6 * n + r] = c.s.out6[r];
    return h.outAddress();
  });
}

/// in = [q]; out = [Ja row-major 6×n | roll, pitch, yaw].
uintptr_t analyticalJacobianJS(WasmModel& h) {
  return guard([&] {
    const int n = h.model.nv;
    forwardKinematics(h.model, h.data, h.readQ());
    KinScratch& s = scratch(h, n);
    analyticalJacobian(h.model, h.data, s.J);
    double* o = h.output(6 * n + 3);
    putRowMajor(o, s.J);
    const Vec3 rpy = matrixToRpy(h.data.oMtool.R);
    for (int i = 0; i < 3; ++i) o[6 * n + i] = rpy[i];
    return h.outAddress();
  });
}

/// in = [q | point]; out = [G row-major 6×n | H (order ≥ 2): 6 planes of n×n row-major, H[p][m][k] |
/// D (order 3): [p][l][m][k]].
uintptr_t influenceJS(WasmModel& h, int link, bool usePoint, int order) {
  return guard([&] {
    const int n = h.model.nv;
    const PointCall c = beginPoint(h, link, usePoint);
    Influence& inf = c.s.inf;
    influence(h.model, h.data, c.link, c.p, inf, order);
    const size_t size = 6 * n + (order >= 2 ? 6 * n * n : 0) + (order >= 3 ? 6 * n * n * n : 0);
    double* o = h.output(size);
    putRowMajor(o, inf.G);
    o += 6 * n;
    if (order >= 2)
      for (int q = 0; q < 6; ++q)
        for (int a = 0; a < n; ++a)
          for (int b = 0; b < n; ++b) *o++ = inf.H(q, a, b);
    if (order >= 3)
      for (int q = 0; q < 6; ++q)
        for (int l = 0; l < n; ++l)
          for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) *o++ = inf.D(q, l, a, b);
    return h.outAddress();
  });
}

/// in = [q | qd | qdd | point]; out = acceleration (6) of the point (v; ω rows): G·q̈ + q̇ᵀHq̇.
uintptr_t influenceAccelerationJS(WasmModel& h, int link, bool usePoint) {
  return guard([&] {
    const PointCall c = beginPoint(h, link, usePoint, {"qd", "qdd"});
    KinScratch& s = c.s;
    influence(h.model, h.data, c.link, c.p, s.inf, 2);
    double* o = h.output(6);
    Eigen::Map<VecX> acc(o, 6);
    influenceAcceleration(s.inf.G, s.inf.H, s.v, s.a, acc);
    return h.outAddress();
  });
}

/// in = [q | qd | qdd | qddd | point]; out = jerk (6) of the point (v; ω rows).
uintptr_t influenceJerkJS(WasmModel& h, int link, bool usePoint) {
  return guard([&] {
    const PointCall c = beginPoint(h, link, usePoint, {"qd", "qdd", "qddd"});
    KinScratch& s = c.s;
    influence(h.model, h.data, c.link, c.p, s.inf, 3);
    double* o = h.output(6);
    Eigen::Map<VecX> jerk(o, 6);
    influenceJerk(s.inf.G, s.inf.H, s.inf.D, s.v, s.a, s.j, jerk);
    return h.outAddress();
  });
}

/// Roll, pitch, yaw (R = Rz(yaw)·Ry(pitch)·Rx(roll)) of the rotation block of a row-major 4×4 (or 3×3) matrix.
val matrixToRpyJS(const val& T) {
  return guard([&] {
    if (T.isUndefined() || T.isNull()) throw Error("T: missing");
    const int n = T["length"].as<int>();
    if (n != 16 && n != 9) throw Error("T: expected 16 (4×4) or 9 (3×3) numbers, got " + std::to_string(n));
    double a[16];
    readVector(T, a, n, "T");
    const int w = n == 16 ? 4 : 3;
    Mat3 R;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) R(r, c) = a[w * r + c];
    const Vec3 rpy = matrixToRpy(R);
    val out = val::array();
    for (int i = 0; i < 3; ++i) out.call<void>("push", rpy[i]);
    return out;
  });
}

/// in = [q]; out = [σ (min(6,n), descending) | σ_min | σ_max | condition (+inf) | inverse condition |
/// Yoshikawa | rank] of the tool Jacobian (base frame). rows: 0 all, 1 linear, 2 angular.
uintptr_t manipulabilityMeasuresJS(WasmModel& h, int rows) {
  return guard([&] {
    const int n = h.model.nv;
    forwardKinematics(h.model, h.data, h.readQ());
    KinScratch& s = scratch(h, n);
    toolJacobian(h.model, h.data, s.J);
    if (rows < 0 || rows > 2) throw Error("rows: must be 'all', 'linear' or 'angular'");
    const MatX Jr = rows == 0 ? MatX(s.J) : rows == 1 ? MatX(s.J.topRows<3>()) : MatX(s.J.bottomRows<3>());
    const Manipulability m = manipulability(Jr);
    const int k = static_cast<int>(m.singular_values.size());
    double* o = h.output(k + 6);
    for (int i = 0; i < k; ++i) o[i] = m.singular_values[i];
    o[k] = m.sigma_min;
    o[k + 1] = m.sigma_max;
    o[k + 2] = m.condition;
    o[k + 3] = m.inverse_condition;
    o[k + 4] = m.yoshikawa;
    o[k + 5] = m.rank;
    return h.outAddress();
  });
}

/// The C++ report's snake_case keys (shared with the CLI) as the camelCase keys of the JS API, recursively.
nlohmann::json camelKeys(const nlohmann::json& j) {
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& x : j) out.push_back(camelKeys(x));
    return out;
  }
  if (!j.is_object()) return j;
  nlohmann::json out = nlohmann::json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string k;
    bool up = false;
    for (char ch : it.key()) {
      if (ch == '_') { up = true; continue; }
      k += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
      up = false;
    }
    out[k] = camelKeys(it.value());
  }
  return out;
}

/// Cold path: the full report (same JSON as `achain manipulability`), q from in.
std::string manipulabilityReportJS(WasmModel& h, double tol) {
  return guard([&] {
    forwardKinematics(h.model, h.data, h.readQ());
    return camelKeys(manipulabilityReport(h.model, h.data, tol)).dump();
  });
}

std::string singularitiesJS(WasmModel& h, double tol) {
  return guard([&] {
    forwardKinematics(h.model, h.data, h.readQ());
    return camelKeys(singularitiesJson(h.model, h.data, tol)).dump();
  });
}

/// in = [q | wrench (6)]; out = τ (n). frame: 0 base, 1 tool.
uintptr_t staticTorquesJS(WasmModel& h, int frame) {
  return guard([&] {
    const int n = h.model.nv;
    forwardKinematics(h.model, h.data, h.readQ());
    checkFrame(frame);
    Vec6 F;
    for (int i = 0; i < 6; ++i) {
      F[i] = h.in[n + i];
      if (!std::isfinite(F[i])) throw Error("wrench[" + std::to_string(i) + "]: must be a finite number");
    }
    KinScratch& s = scratch(h, n);
    toolJacobian(h.model, h.data, s.J, frame == 1 ? Frame::Tool : Frame::Base);
    double* o = h.output(n);
    Eigen::Map<VecX> tau(o, n);
    staticTorques(s.J, F, tau);
    return h.outAddress();
  });
}

}  // namespace
}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_kinematics) {
  using namespace achain::wasm;
  function("pointJacobian", &jacobianJS);
  function("pointJacobianSeries", &jacobianSeries);
  function("pointJacobianDerivative", &jacobianDotJS);
  function("analyticalJacobian", &analyticalJacobianJS);
  function("influence", &influenceJS);
  function("influenceAcceleration", &influenceAccelerationJS);
  function("influenceJerk", &influenceJerkJS);
  function("manipulability", &manipulabilityMeasuresJS);
  function("manipulabilityReport", &manipulabilityReportJS);
  function("detectSingularities", &singularitiesJS);
  function("matrixToRpy", &matrixToRpyJS);
  function("staticTorques", &staticTorquesJS);
}
