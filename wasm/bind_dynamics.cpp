// Embind surface of the dynamics area (mirrors core/dynamics/*). Hot paths follow the WasmModel
// convention: inputs in h.in, results in h.out, the function returns h.outAddress().
// Options travel as (legs code, flags) plus, after the per-call vectors, gravity (3) and wrench (6):
//   legs: 0 massless, 1 lumped, 2 full, 3 potential
//   flags: 1 motors, 2 friction, 4 override gravity, 8 wrench, 16 wrench in the tool frame
// See wasm/js/dynamics.mjs and wasm/types/dynamics.d.ts.
#include <memory>
#include <unordered_map>

#include "dynamics/control.hpp"
#include "dynamics/coriolis.hpp"
#include "dynamics/crba.hpp"
#include "dynamics/forward.hpp"
#include "dynamics/freeman.hpp"
#include "dynamics/integrate.hpp"
#include "dynamics/lee.hpp"
#include "dynamics/rnea.hpp"
#include "fk.hpp"
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {
namespace {

/// One dynamics workspace per model handle, made on first use. WasmModel has no slot for it, so it
/// lives in a side table keyed by the handle, re-made whenever the handle's model differs from the
/// one the workspace was built for (a freed handle's address can be reused).
struct DynEntry {
  std::unique_ptr<DynamicsWorkspace> ws;
  Model model;  // copy of the description it was built for
  MatX M, C;
  VecX a, b;
  TorqueBreakdown bd;
  LeeTerms lee;
  FreemanWorkspace fw;
  FreemanModel fm;
};
std::unordered_map<const WasmModel*, DynEntry>& table() {
  static std::unordered_map<const WasmModel*, DynEntry> t;
  return t;
}
/// The fields the dynamics depends on (names, limits and notes are not compared: cheaper per call).
bool sameDynamics(const Model& a, const Model& b) {
  if (a.nv != b.nv || a.njoints() != b.njoints() || a.convention != b.convention || a.gravity != b.gravity ||
      a.base != b.base || a.tool != b.tool || a.tool_link != b.tool_link)
    return false;
  for (int i = 0; i < a.njoints(); ++i) {
    const Joint &x = a.joints[i], &y = b.joints[i];
    if (x.kind != y.kind || x.parent != y.parent || x.a != y.a || x.alpha != y.alpha || x.d != y.d ||
        x.theta_f != y.theta_f || x.sign != y.sign || x.pitch != y.pitch || x.rho != y.rho || x.leg_mass != y.leg_mass ||
        !(x.motor == y.motor) || !(x.link == y.link))
      return false;
  }
  return true;
}

DynEntry& entry(WasmModel& h) {
  DynEntry& e = table()[&h];
  if (!e.ws || !sameDynamics(e.model, h.model)) {
    e.model = h.model;
    e.ws = std::make_unique<DynamicsWorkspace>(h.model);
    const int n = h.model.nv;
    e.M.setZero(n, n);
    e.C.setZero(n, n);
    e.a.setZero(n);
    e.b.setZero(n);
    e.bd.resize(n);
  }
  return e;
}

DynamicsOptions options(const WasmModel& h, int legs, int flags, int offset) {
  if (legs < 0 || legs > 3) throw Error("legs: must be massless, lumped, full or potential");
  DynamicsOptions o;
  o.legs = static_cast<LegModel>(legs);
  o.motors = flags & 1;
  o.friction = flags & 2;
  if (flags & 4) {
    o.override_gravity = true;
    o.gravity = Vec3(h.in[offset], h.in[offset + 1], h.in[offset + 2]);
    if (!o.gravity.allFinite()) throw Error("gravity: must be finite numbers");
  }
  if (flags & 8) {
    o.use_wrench = true;
    for (int i = 0; i < 6; ++i) o.wrench[i] = h.in[offset + 3 + i];
    if (!o.wrench.allFinite()) throw Error("wrench: must be finite numbers");
    o.wrench_frame = (flags & 16) ? WrenchFrame::Tool : WrenchFrame::Base;
  }
  return o;
}

/// Reads in[offset, offset+nv) into v, checking finiteness with the argument's name.
void readVec(const WasmModel& h, int offset, VecX& v, const char* what) {
  const int n = h.model.nv;
  for (int i = 0; i < n; ++i) {
    const double x = h.in[offset + i];
    if (!std::isfinite(x)) throw Error(std::string(what) + "[" + std::to_string(i) + "]: must be a finite number");
    v[i] = x;
  }
}

void putMatrix(double* o, const MatX& M) {
  for (int r = 0; r < M.rows(); ++r)
    for (int c = 0; c < M.cols(); ++c) *o++ = M(r, c);
}

/// in: q, qd, qdd, [gravity, wrench] → τ (nv)
uintptr_t dynInverse(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 3 * n);
    const VecX& q = h.readQ(0);
    readVec(h, n, e.a, "qd");
    readVec(h, 2 * n, e.b, "qdd");
    double* out = h.output(n);
    inverseDynamics(h.model, *e.ws, q, e.a, e.b, o, Eigen::Map<VecX>(out, n));
    return h.outAddress();
  });
}

/// in: q, qd, qdd, [gravity, wrench] → 9 blocks of nv: total, inertial, velocity, gravity, friction,
/// wrench, rotor, translational, rotational
uintptr_t dynBreakdown(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 3 * n);
    const VecX& q = h.readQ(0);
    readVec(h, n, e.a, "qd");
    readVec(h, 2 * n, e.b, "qdd");
    torqueBreakdown(h.model, *e.ws, q, e.a, e.b, o, e.bd);
    double* out = h.output(9 * n);
    int k = 0;
    for (const VecX* v : {&e.bd.total, &e.bd.inertial, &e.bd.velocity, &e.bd.gravity, &e.bd.friction, &e.bd.wrench,
                          &e.bd.rotor, &e.bd.translational, &e.bd.rotational})
      for (int i = 0; i < n; ++i) out[k++] = (*v)[i];
    return h.outAddress();
  });
}

/// in: q, [gravity, wrench] → M (nv², row-major)
uintptr_t dynMass(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, n);
    massMatrix(h.model, *e.ws, h.readQ(0), o, e.M);
    putMatrix(h.output(n * n), e.M);
    return h.outAddress();
  });
}

/// in: q, [gravity, wrench] → g(q) (nv)
uintptr_t dynGravity(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, n);
    const VecX& q = h.readQ(0);
    double* out = h.output(n);
    gravityTorques(h.model, *e.ws, q, o, Eigen::Map<VecX>(out, n));
    return h.outAddress();
  });
}

/// in: q, qd, [gravity, wrench] → C (nv², row-major)
uintptr_t dynCoriolis(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 2 * n);
    const VecX& q = h.readQ(0);
    readVec(h, n, e.a, "qd");
    coriolisMatrix(h.model, *e.ws, q, e.a, o, e.C);
    putMatrix(h.output(n * n), e.C);
    return h.outAddress();
  });
}

/// in: q, qd, tau, [gravity, wrench] → q̈ (nv)
uintptr_t dynForward(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 3 * n);
    const VecX& q = h.readQ(0);
    readVec(h, n, e.a, "qd");
    readVec(h, 2 * n, e.b, "tau");
    double* out = h.output(n);
    forwardDynamics(h.model, *e.ws, q, e.a, e.b, o, Eigen::Map<VecX>(out, n));
    return h.outAddress();
  });
}

/// in: q, qd, [gravity, wrench] → (kinetic, potential)
uintptr_t dynEnergy(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 2 * n);
    const VecX& q = h.readQ(0);
    readVec(h, n, e.a, "qd");
    double* out = h.output(2);
    out[0] = kineticEnergy(h.model, *e.ws, q, e.a, o);
    out[1] = potentialEnergy(h.model, *e.ws, q, o);
    return h.outAddress();
  });
}

/// in: count samples of (q, qd, qdd), then [gravity, wrench] → count·nv torques (sample-major)
uintptr_t dynInverseSeries(WasmModel& h, int legs, int flags, int count) {
  return guard([&] {
    const int n = h.model.nv;
    if (count < 0) throw Error("count: must be ≥ 0");
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 3 * n * count);
    double* out = h.output(static_cast<size_t>(n) * std::max(count, 1));
    VecX q(n);
    for (int k = 0; k < count; ++k) {
      readVec(h, 3 * n * k, q, "q");
      readVec(h, 3 * n * k + n, e.a, "qd");
      readVec(h, 3 * n * k + 2 * n, e.b, "qdd");
      inverseDynamics(h.model, *e.ws, q, e.a, e.b, o, Eigen::Map<VecX>(out + static_cast<size_t>(n) * k, n));
    }
    return h.outAddress();
  });
}

/// in: q, qd, [gravity, wrench] → D_tran, D_rot, D (3·nv²), h_tran, h_rot, c, other (4·nv)
uintptr_t dynLee(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 2 * n);
    const VecX& q = h.readQ(0);
    readVec(h, n, e.a, "qd");
    leeTerms(h.model, *e.ws, q, e.a, o, e.lee);
    double* out = h.output(3 * n * n + 4 * n);
    putMatrix(out, e.lee.D_tran);
    putMatrix(out + n * n, e.lee.D_rot);
    putMatrix(out + 2 * n * n, e.lee.D);
    double* v = out + 3 * n * n;
    for (const VecX* x : {&e.lee.h_tran, &e.lee.h_rot, &e.lee.c, &e.lee.other})
      for (int i = 0; i < n; ++i) *v++ = (*x)[i];
    return h.outAddress();
  });
}

/// in: q, qd, [gravity, wrench] → I* (nv², row-major), P* (nv³: P[(k·nv + m)·nv + n]), T^L (nv)
uintptr_t dynFreeman(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 2 * n);
    const VecX& q = h.readQ(0);
    readVec(h, n, e.a, "qd");
    freemanModel(h.model, *e.ws, e.fw, q, e.a, o, e.fm);
    double* out = h.output(n * n + n * n * n + n);
    putMatrix(out, e.fm.Istar);
    double* p = out + n * n;
    for (int k = 0; k < n; ++k)
      for (int m = 0; m < n; ++m)
        for (int c = 0; c < n; ++c) *p++ = e.fm.Pstar(k, m, c);
    for (int i = 0; i < n; ++i) *p++ = e.fm.TL[i];
    return h.outAddress();
  });
}

/// Simulation from in: q0, qd0, tau (constant), [gravity, wrench]. Returns a Float64Array view of
/// rows (t, q…, qd…, kinetic + potential energy), copied by the JS wrapper; calls onProgress(f)
/// about every 1 % when a function is given.
val dynSimulate(WasmModel& h, int legs, int flags, double dt, int steps, int every, int integrator, val onProgress) {
  return guard([&] {
    const int n = h.model.nv;
    DynEntry& e = entry(h);
    const DynamicsOptions o = options(h, legs, flags, 3 * n);
    VecX q(n), qd(n), tau(n);
    readVec(h, 0, q, "q");
    readVec(h, n, qd, "qd");
    readVec(h, 2 * n, tau, "tau");
    if (steps < 0 || steps > 100000000) throw Error("steps: must be in [0, 1e8]");
    static std::vector<double> rows;
    rows.clear();
    DynamicsWorkspace energy_ws(h.model);
    SimulationSample io;
    io.every = std::max(1, every);
    io.sample = [&](int, double t, const VecX& a, const VecX& b, const VecX&) {
      rows.push_back(t);
      for (int i = 0; i < n; ++i) rows.push_back(a[i]);
      for (int i = 0; i < n; ++i) rows.push_back(b[i]);
      rows.push_back(kineticEnergy(h.model, energy_ws, a, b, o) + potentialEnergy(h.model, energy_ws, a, o));
    };
    const bool progress = onProgress.typeOf().as<std::string>() == "function";
    if (progress) io.progress = [&](double f) { onProgress(f); };
    simulate(h.model, *e.ws, q, qd, dt, steps,
             [&](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> out) { out = tau; },
             o, integrator == 1 ? Integrator::SemiImplicitEuler : Integrator::RK4, io);
    return view(rows.data(), rows.size());
  });
}

/// Computed-torque tracking. in: count samples of (t, q, q̇, q̈) [count·(1 + 3nv)], kp, kv, q0, q̇0 (nv each),
/// [with dc: R, L, Kt, Ke (nv each)], then gravity (3), wrench (6). ctrlLegs = the controller's leg
/// model (−1: same as the plant). Returns a Float64Array view: rows (t, q, q_des, e, τ [, i, v]) then
/// max|e| and rms(e) (nv each).
val dynControl(WasmModel& h, int legs, int flags, int ctrlLegs, double dt, double duration, int every, int integrator,
               int count, int dc, val onProgress) {
  return guard([&] {
    const int n = h.model.nv;
    if (count < 1) throw Error("trajectory: needs at least one sample");
    const int off = count * (1 + 3 * n);
    const int opt = off + (dc ? 8 : 4) * n;  // gravity/wrench after kp, kv, q0, qd0 [, R, L, Kt, Ke]
    const DynamicsOptions plant = options(h, legs, flags, opt);
    std::vector<double> t(count);
    std::vector<VecX> q(count, VecX(n)), qd(count, VecX(n)), qdd(count, VecX(n));
    for (int k = 0; k < count; ++k) {
      const int b = k * (1 + 3 * n);
      t[k] = h.in[b];
      if (!std::isfinite(t[k])) throw Error("t[" + std::to_string(k) + "]: must be a finite number");
      readVec(h, b + 1, q[k], "q");
      readVec(h, b + 1 + n, qd[k], "qd");
      readVec(h, b + 1 + 2 * n, qdd[k], "qdd");
    }
    ComputedTorqueOptions co;
    co.plant = plant;
    co.controller = plant;
    if (ctrlLegs >= 0) co.controller = options(h, ctrlLegs, flags, opt);
    if (dc) {
      co.dc_motor = true;
      int k = off + 4 * n;
      for (VecX* v : {&co.R, &co.L, &co.Kt, &co.Ke}) {
        v->resize(n);
        readVec(h, k, *v, "motor");
        k += n;
      }
    }
    co.kp.resize(n);
    co.kv.resize(n);
    readVec(h, off, co.kp, "kp");
    readVec(h, off + n, co.kv, "kv");
    VecX q0(n), qd0(n);
    readVec(h, off + 2 * n, q0, "q0");
    readVec(h, off + 3 * n, qd0, "qd0");
    co.dt = dt;
    co.every = every;
    co.integrator = integrator == 1 ? Integrator::SemiImplicitEuler : Integrator::RK4;
    const bool progress = onProgress.typeOf().as<std::string>() == "function";
    const ControlRun r = simulateComputedTorque(h.model, sampledMotion(t, q, qd, qdd), q0, qd0, duration, co,
                                                progress ? std::function<void(double)>([&](double f) { onProgress(f); })
                                                         : std::function<void(double)>());
    static std::vector<double> rows;
    rows.clear();
    for (size_t k = 0; k < r.t.size(); ++k) {
      rows.push_back(r.t[k]);
      for (const VecX* v : {&r.q[k], &r.q_des[k], &r.error[k], &r.tau[k]})
        for (int i = 0; i < n; ++i) rows.push_back((*v)[i]);
      if (dc)
        for (const VecX* v : {&r.current[k], &r.voltage[k]})
          for (int i = 0; i < n; ++i) rows.push_back((*v)[i]);
    }
    for (int i = 0; i < n; ++i) rows.push_back(r.max_abs_error[i]);
    for (int i = 0; i < n; ++i) rows.push_back(r.rms_error[i]);
    return view(rows.data(), rows.size());
  });
}

}  // namespace
}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_dynamics) {
  using namespace achain::wasm;
  function("dynInverse", &dynInverse);
  function("dynBreakdown", &dynBreakdown);
  function("dynMass", &dynMass);
  function("dynGravity", &dynGravity);
  function("dynCoriolis", &dynCoriolis);
  function("dynForward", &dynForward);
  function("dynEnergy", &dynEnergy);
  function("dynInverseSeries", &dynInverseSeries);
  function("dynLee", &dynLee);
  function("dynFreeman", &dynFreeman);
  function("dynSimulate", &dynSimulate);
  function("dynControl", &dynControl);
}
