// Embind surface of the dynamics area (mirrors core/dynamics/*). Hot paths follow the WasmModel
// convention: inputs in h.in, results in h.out, the function returns h.outAddress().
// Options travel as (legs code, flags) plus, after the per-call vectors, gravity (3) and wrench (6):
//   legs: 0 massless, 1 lumped, 2 full, 3 potential
//   flags: 1 motors, 2 friction, 4 override gravity, 8 wrench, 16 wrench in the tool frame,
//          32 joint-limit stops (forward dynamics and simulate; the core's default 20 Hz, ζ = 1)
// See wasm/js/dynamics.mjs and wasm/types/dynamics.d.ts.
#include <memory>

#include <achain/dynamics/batch.hpp>
#include <achain/dynamics/control.hpp>
#include <achain/dynamics/coriolis.hpp>
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/freeman.hpp>
#include <achain/dynamics/integrate.hpp>
#include <achain/dynamics/lee.hpp>
#include <achain/dynamics/linearize.hpp>
#include <achain/dynamics/operational.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/kinematics/fk.hpp>
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {

/// The dynamics scratch of one model handle, kept in WasmModel::dynamics_state: created on first
/// use and freed with the handle (the handle's model never changes, so it never needs rebuilding).
struct DynState {
  explicit DynState(const Model& m)
      : data(m), M(MatX::Zero(m.nv, m.nv)), C(MatX::Zero(m.nv, m.nv)), a(VecX::Zero(m.nv)), b(VecX::Zero(m.nv)), q(VecX::Zero(m.nv)) {
    bd.resize(m.nv);
  }
  Data data;
  MatX M, C;
  VecX a, b, q;  ///< per-call vectors (q: batch samples)
  TorqueBreakdown bd;
  LeeTerms lee;
  FreemanModel fm;
  DynamicManipulability dm;  ///< also holds the Cartesian inertia (dm.inertia)
  std::vector<double> rows;  ///< simulate / computedTorque results (a view of it goes to JS, copied at once)
  std::vector<double> series;  ///< dynSeries: the samples split into q, q̇, q̈/τ blocks (state-major each)
};
void destroy(DynState* p) { delete p; }

namespace {


DynState& state(WasmModel& h) {
  if (!h.dynamics_state) h.dynamics_state.reset(new DynState(h.model));
  return *h.dynamics_state;
}

DynamicsOptions options(const WasmModel& h, int legs, int flags, int offset) {
  if (legs < 0 || legs > 3) throw Error("legs: must be massless, lumped, full or potential");
  DynamicsOptions o;
  o.legs = static_cast<LegModel>(legs);
  o.motors = flags & 1;
  o.friction = flags & 2;
  o.limit_stops = flags & 32;
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

/// The common start of the single-state entry points. in = [q | v1 | v2 | gravity (3), wrench (6)]:
/// v1 and v2 (named for error messages; nullptr = absent) are read into s.a and s.b, and the options
/// follow the last vector.
struct Call {
  DynState& s;
  DynamicsOptions o;
  const VecX& q;
};
Call begin(WasmModel& h, int legs, int flags, const char* v1 = nullptr, const char* v2 = nullptr) {
  const int n = h.model.nv;
  DynState& s = state(h);
  const DynamicsOptions o = options(h, legs, flags, (1 + (v1 != nullptr) + (v2 != nullptr)) * n);
  const VecX& q = h.readQ(0);
  if (v1) readVec(h, n, s.a, v1);
  if (v2) readVec(h, 2 * n, s.b, v2);
  return {s, o, q};
}

/// in: q, qd, qdd, [gravity, wrench] → τ (nv)
uintptr_t dynInverse(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags, "qd", "qdd");
    inverseDynamics(h.model, c.s.data, c.q, c.s.a, c.s.b, c.o, Eigen::Map<VecX>(h.output(n), n));
    return h.finiteOut(n, "tau");
  });
}

/// in: q, qd, qdd, [gravity, wrench] → 9 blocks of nv: total, inertial, velocity, gravity, friction,
/// wrench, rotor, translational, rotational
uintptr_t dynBreakdown(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags, "qd", "qdd");
    TorqueBreakdown& bd = c.s.bd;
    torqueBreakdown(h.model, c.s.data, c.q, c.s.a, c.s.b, c.o, bd);
    double* out = h.output(9 * n);
    for (const VecX* v : {&bd.total, &bd.inertial, &bd.velocity, &bd.gravity, &bd.friction, &bd.wrench, &bd.rotor,
                          &bd.translational, &bd.rotational})
      for (int i = 0; i < n; ++i) *out++ = (*v)[i];
    return h.finiteOut(9 * n, "tau");
  });
}

/// in: q, [gravity, wrench] → M (nv², row-major)
uintptr_t dynMass(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags);
    massMatrix(h.model, c.s.data, c.q, c.o, c.s.M);
    putMatrix(h.output(n * n), c.s.M);
    return h.finiteOut(n * n, "M");
  });
}

/// in: q, [gravity, wrench] → g(q) (nv)
uintptr_t dynGravity(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags);
    gravityTorques(h.model, c.s.data, c.q, c.o, Eigen::Map<VecX>(h.output(n), n));
    return h.finiteOut(n, "g");
  });
}

/// in: q, qd, [gravity, wrench] → C (nv², row-major)
uintptr_t dynCoriolis(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags, "qd");
    coriolisMatrix(h.model, c.s.data, c.q, c.s.a, c.o, c.s.C);
    putMatrix(h.output(n * n), c.s.C);
    return h.finiteOut(n * n, "C");
  });
}

/// in: q, qd, tau, [gravity, wrench] → q̈ (nv)
uintptr_t dynForward(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags, "qd", "tau");
    forwardDynamics(h.model, c.s.data, c.q, c.s.a, c.s.b, c.o, Eigen::Map<VecX>(h.output(n), n));
    return h.finiteOut(n, "qdd");
  });
}

/// in: q, qd, [gravity, wrench] → kinetic energy (J)
double dynKinetic(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const Call c = begin(h, legs, flags, "qd");
    const double e = kineticEnergy(h.model, c.s.data, c.q, c.s.a, c.o);
    if (!std::isfinite(e)) WasmModel::throwNotFinite("kineticEnergy", 0);
    return e;
  });
}

/// in: q, [gravity, wrench] → potential energy (J)
double dynPotential(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const Call c = begin(h, legs, flags);
    const double e = potentialEnergy(h.model, c.s.data, c.q, c.o);
    if (!std::isfinite(e)) WasmModel::throwNotFinite("potentialEnergy", 0);
    return e;
  });
}

/// Batch evaluation inside one call (no per-sample JS or Embind cost), by the core's batch calls
/// (dynamics/batch.hpp, vectorised across samples). op: 0 inverse dynamics (samples of q, qd, qdd → τ),
/// 1 mass matrix (samples of q → M row-major), 2 forward dynamics (samples of q, qd, τ → q̈), 3 inverse
/// dynamics by one single call per sample (op 0's reference in the benchmarks). in: count samples, then
/// [gravity, wrench]; out: count results.
uintptr_t dynSeries(WasmModel& h, int op, int legs, int flags, int count) {
  return guard([&] {
    const int n = h.model.nv;
    if (op < 0 || op > 3) throw Error("op: must be 0 (inverse), 1 (mass), 2 (forward) or 3 (inverse, single calls)");
    if (count < 0) throw Error("count: must be ≥ 0");
    const int stride = op == 1 ? n : 3 * n;   // doubles per input sample
    const int result = op == 1 ? n * n : n;   // doubles per result
    h.requireInput(static_cast<size_t>(stride) * count + ((flags & 12) ? 9 : 0));
    DynState& s = state(h);
    const DynamicsOptions o = options(h, legs, flags, stride * count);
    double* out = h.output(static_cast<size_t>(result) * std::max(count, 1));
    // Check every sample and split [q | q̇ | q̈ or τ] per sample into three state-major blocks for the
    // core's batch calls (dynamics/batch.hpp).
    const size_t block = static_cast<size_t>(n) * count;
    if (s.series.size() < 3 * block) s.series.resize(3 * block);
    double* bq = s.series.data();
    double* bv = bq + block;
    double* ba = bv + block;
    for (int k = 0; k < count; ++k) {
      const int at = stride * k;
      readVec(h, at, s.q, "q");
      std::copy(s.q.data(), s.q.data() + n, bq + static_cast<size_t>(n) * k);
      if (op == 1) continue;
      readVec(h, at + n, s.a, "qd");
      readVec(h, at + 2 * n, s.b, op == 2 ? "tau" : "qdd");
      std::copy(s.a.data(), s.a.data() + n, bv + static_cast<size_t>(n) * k);
      std::copy(s.b.data(), s.b.data() + n, ba + static_cast<size_t>(n) * k);
    }
    if (op == 0) {
      inverseDynamicsSeries(h.model, s.data, count, bq, bv, ba, o, out);
    } else if (op == 3) {  // the single call per sample: the benchmarks' "compiled code alone" reference
      for (int k = 0; k < count; ++k) {
        const size_t at = static_cast<size_t>(n) * k;
        inverseDynamics(h.model, s.data, Eigen::Map<const VecX>(bq + at, n), Eigen::Map<const VecX>(bv + at, n),
                        Eigen::Map<const VecX>(ba + at, n), o, Eigen::Map<VecX>(out + at, n));
      }
    } else if (op == 2) {
      forwardDynamicsSeries(h.model, s.data, count, bq, bv, ba, o, out);
    } else {
      massMatrixSeries(h.model, s.data, count, bq, o, out);
      for (int k = 0; k < count; ++k)  // column-major → row-major (M is symmetric up to rounding)
        Eigen::Map<MatX>(out + static_cast<size_t>(n) * n * k, n, n).transposeInPlace();
    }
    return h.finiteOut(static_cast<size_t>(result) * count, op == 1 ? "M" : op == 2 ? "qdd" : "tau");
  });
}

/// in: count samples of (q, qd, qdd), then [gravity, wrench] → count·nv torques (sample-major)
uintptr_t dynInverseSeries(WasmModel& h, int legs, int flags, int count) { return dynSeries(h, 0, legs, flags, count); }

/// in: q, qd, [gravity, wrench] → D_tran, D_rot, D (3·nv²), h_tran, h_rot, c, other (4·nv)
uintptr_t dynLee(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags, "qd");
    LeeTerms& lee = c.s.lee;
    leeTerms(h.model, c.s.data, c.q, c.s.a, c.o, lee);
    double* out = h.output(3 * n * n + 4 * n);
    putMatrix(out, lee.D_tran);
    putMatrix(out + n * n, lee.D_rot);
    putMatrix(out + 2 * n * n, lee.D);
    double* v = out + 3 * n * n;
    for (const VecX* x : {&lee.h_tran, &lee.h_rot, &lee.c, &lee.other})
      for (int i = 0; i < n; ++i) *v++ = (*x)[i];
    return h.finiteOut(3 * n * n + 4 * n, "lee");
  });
}

/// The linearisation's options from a call's arguments: tool or joint outputs, and `motors` DC motors (0, 1 for every
/// coordinate, or one per coordinate) read from the input buffer after q, qd, qdd and the 9 option numbers.
/// coords: −1 joint coordinates; 0 tool coordinates in all six rows; k > 0 tool coordinates in the k rows (0…5) that
/// follow the motor data in the input.
LinearizeOptions linearizeOptionsOf(const WasmModel& h, int tool, int motors, int coords) {
  const int n = h.model.nv;
  LinearizeOptions lo;
  lo.output = tool ? "tool" : "joints";
  if (motors < 0 || (motors != 0 && motors != 1 && motors != n))
    throw Error("dcMotors: give one motor for every coordinate or one for all (" + std::to_string(n) + " coordinates)");
  const size_t at = static_cast<size_t>(3 * n + 9);
  if (coords < -1 || coords > 6) throw Error("toolRows: at most six rows");
  if (h.in.size() < at + 4 * static_cast<size_t>(motors) + std::max(coords, 0)) throw Error("dcMotors or toolRows: the data is missing");
  for (int k = 0; k < motors; ++k) {
    const double* x = h.in.data() + at + 4 * k;
    lo.dc_motors.push_back(DcMotor{x[0], x[1], x[2], x[3]});
  }
  if (coords >= 0) lo.coordinates = "tool";
  for (int k = 0; k < coords; ++k) lo.tool_rows.push_back(static_cast<int>(h.in[at + 4 * motors + k]));
  return lo;
}

/// in: q, qd, qdd, [gravity, wrench], then motors × (K_t, K_e, R, L), then the tool rows (coords > 0) → A (S²,
/// row-major; S = 2nv, or 3nv with DC motors), B (S·nv), C (r·S; r = nv, or 6 with tool outputs), D (r·nv), poles
/// (S × re, im), ∂T/∂q, ∂T/∂q̇, I* (nv² each), the state transform T (S²)
uintptr_t dynLinearize(WasmModel& h, int legs, int flags, int tool, int motors, int coords) {
  return guard([&] {
    const Call c = begin(h, legs, flags, "qd", "qdd");
    Linearization lin;
    linearizeDynamics(h.model, c.s.data, c.q, c.s.a, c.s.b, c.o, linearizeOptionsOf(h, tool, motors, coords), lin);
    return outputLinearization(h, lin);
  });
}

/// in: q, qd, qdd, [gravity, wrench], then motors × (K_t, K_e, R, L) and tool rows (as dynLinearize) → the frequency response of
/// input → output (0-based) on frequencyGrid(poles, points, lo, hi) (lo = hi = 0: around the poles): the count P of
/// pole frequencies, then omega, |G|, dB, phase (degrees, unwrapped) (points each), then poleFrequencies (S values,
/// the first P used, the rest 0)
uintptr_t dynFrequencyResponse(WasmModel& h, int legs, int flags, int tool, int motors, int coords, int input, int output,
                               int points, double lo, double hi) {
  return guard([&] {
    const Call c = begin(h, legs, flags, "qd", "qdd");
    Linearization lin;
    linearizeDynamics(h.model, c.s.data, c.q, c.s.a, c.s.b, c.o, linearizeOptionsOf(h, tool, motors, coords), lin);
    FrequencyResponse fr;
    frequencyResponse(lin, frequencyGrid(lin.poles, points, lo, hi), input, output, fr);
    const std::vector<double> pf = poleFrequencies(lin.poles);
    const int S = static_cast<int>(lin.A.rows());
    const size_t total = 1 + 4 * static_cast<size_t>(points) + S;
    double* out = h.output(total);
    *out++ = static_cast<double>(pf.size());
    for (const VecX* v : {&fr.omega, &fr.magnitude, &fr.magnitude_db, &fr.phase_deg})
      for (int k = 0; k < points; ++k) *out++ = (*v)[k];
    for (int k = 0; k < S; ++k) *out++ = k < static_cast<int>(pf.size()) ? pf[k] : 0.0;
    return h.finiteOut(total, "frequencyResponse");
  });
}

/// in: q, qd, [gravity, wrench] → per coordinate (J, B) of 1/(J s² + B s) (the toolbox's jointdynamics)
uintptr_t dynJointTransfer(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags, "qd");
    const auto tf = jointTransferFunctions(h.model, c.s.data, c.q, c.s.a, c.o);
    double* out = h.output(2 * n);
    for (int k = 0; k < n; ++k) out[2 * k] = tf[k].J, out[2 * k + 1] = tf[k].B;
    return h.finiteOut(2 * n, "jointTransferFunctions");
  });
}

/// in: q, qd, [gravity, wrench] → I* (nv², row-major), P* (nv³: P[(k·nv + m)·nv + n]), T^L (nv)
uintptr_t dynFreeman(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const int n = h.model.nv;
    const Call c = begin(h, legs, flags, "qd");
    FreemanModel& fm = c.s.fm;
    freemanModel(h.model, c.s.data, c.q, c.s.a, c.o, fm);
    double* out = h.output(n * n + n * n * n + n);
    putMatrix(out, fm.Istar);
    double* p = out + n * n;
    for (int k = 0; k < n; ++k)
      for (int m = 0; m < n; ++m)
        for (int j = 0; j < n; ++j) *p++ = fm.Pstar(k, m, j);
    for (int i = 0; i < n; ++i) *p++ = fm.TL[i];
    return h.finiteOut(n * n + n * n * n + n, "freeman");
  });
}

TaskRows taskRows(int code) {
  if (code < 0 || code > 2) throw Error("rows: must be 'all', 'linear' or 'angular'");
  return static_cast<TaskRows>(code);
}

/// Writes [rank, rankTolerance, m, Λ (m²), Λ⁻¹ (m²), eigenvalues (m), axes (m², row-major)] at o; returns the end.
double* putInertia(double* o, const CartesianInertia& c) {
  const int m = static_cast<int>(c.Lambda.rows());
  *o++ = c.rank;
  *o++ = c.rank_tolerance;
  *o++ = m;
  putMatrix(o, c.Lambda);
  putMatrix(o + m * m, c.Lambda_inv);
  o += 2 * m * m;
  for (int i = 0; i < m; ++i) *o++ = c.eigenvalues[i];
  putMatrix(o, c.axes);
  return o + m * m;
}

/// in: q → the Cartesian inertia block (putInertia). rows: 0 all, 1 linear, 2 angular; rankTol < 0: the default.
uintptr_t dynCartesianInertia(WasmModel& h, int legs, int flags, int rows, double rankTol) {
  return guard([&] {
    const Call c = begin(h, legs, flags);
    CartesianInertia& ci = c.s.dm.inertia;
    cartesianInertia(h.model, c.s.data, c.q, c.o, ci, taskRows(rows), rankTol);
    putInertia(h.output(3 + 4 * 36), ci);
    return h.outAddress();
  });
}

/// in: q → [yoshikawa, asada, rank, m, radii (m), axes (m²)] then the Cartesian inertia block.
uintptr_t dynDynamicManipulability(WasmModel& h, int legs, int flags, int rows, double rankTol) {
  return guard([&] {
    const Call c = begin(h, legs, flags);
    DynamicManipulability& dm = c.s.dm;
    dynamicManipulability(h.model, c.s.data, c.q, c.o, dm, taskRows(rows), rankTol);
    const int m = static_cast<int>(dm.radii.size());
    double* o = h.output(4 + 7 * 6 + 3 + 4 * 36);
    o[0] = dm.yoshikawa;
    o[1] = dm.asada;
    o[2] = dm.rank;
    o[3] = m;
    for (int i = 0; i < m; ++i) o[4 + i] = dm.radii[i];
    putMatrix(o + 4 + m, dm.axes);
    putInertia(o + 4 + m + m * m, dm.inertia);
    return h.outAddress();
  });
}

/// Simulation from in: q0, qd0, tau (constant), [gravity, wrench]. Returns a Float64Array view of
/// rows (t, q…, qd…, kinetic + potential energy), copied by the JS wrapper; calls onProgress(f)
/// about every 1 % when a function is given, and stops (Cancelled) when it returns false.
val dynSimulate(WasmModel& h, int legs, int flags, double dt, int steps, int every, int integrator, val onProgress) {
  return guard([&] {
    const int n = h.model.nv;
    DynState& s = state(h);
    const DynamicsOptions o = options(h, legs, flags, 3 * n);
    VecX q(n), qd(n), tau(n);
    readVec(h, 0, q, "q");
    readVec(h, n, qd, "qd");
    readVec(h, 2 * n, tau, "tau");
    if (steps < 0 || steps > 100000000) throw Error("steps: must be in [0, 1e8]");
    std::vector<double>& rows = s.rows;
    rows.clear();
    Data energy_ws(h.model);
    SimulationSample io;
    io.every = std::max(1, every);
    io.sample = [&](int, double t, const VecX& a, const VecX& b, const VecX&) {
      rows.push_back(t);
      for (int i = 0; i < n; ++i) rows.push_back(a[i]);
      for (int i = 0; i < n; ++i) rows.push_back(b[i]);
      rows.push_back(kineticEnergy(h.model, energy_ws, a, b, o) + potentialEnergy(h.model, energy_ws, a, o));
    };
    io.progress = jsProgress(onProgress);
    simulate(h.model, s.data, q, qd, dt, steps,
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
    const ControlRun r = simulateComputedTorque(h.model, sampledMotion(t, q, qd, qdd), q0, qd0, duration, co,
                                                jsProgress(onProgress));
    std::vector<double>& rows = state(h).rows;
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

uintptr_t outputLinearization(WasmModel& h, const Linearization& lin) {
  const size_t S = lin.A.rows(), u = lin.B.cols(), r = lin.C.rows(), n = lin.Istar.rows();
  const size_t total = 2 * S * S + S * u + r * S + r * u + 2 * S + 3 * n * n;
  double* out = h.output(total);
  for (const MatX* M : {&lin.A, &lin.B, &lin.C, &lin.D}) {
    putMatrix(out, *M);
    out += M->size();
  }
  for (size_t k = 0; k < S; ++k) *out++ = lin.poles[k].real(), *out++ = lin.poles[k].imag();
  for (const MatX* M : {&lin.dT_dq, &lin.dT_dqd, &lin.Istar, &lin.T}) {
    putMatrix(out, *M);
    out += M->size();
  }
  return h.finiteOut(total, "linearize");
}

}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_dynamics) {
  using namespace achain::wasm;
  function("inverseDynamics", &dynInverse);
  function("torqueBreakdown", &dynBreakdown);
  function("massMatrix", &dynMass);
  function("gravityTorques", &dynGravity);
  function("coriolisMatrix", &dynCoriolis);
  function("forwardDynamics", &dynForward);
  function("kineticEnergy", &dynKinetic);
  function("potentialEnergy", &dynPotential);
  function("inverseDynamicsSeries", &dynInverseSeries);
  function("dynamicsSeries", &dynSeries);
  function("leeTerms", &dynLee);
  function("freemanModel", &dynFreeman);
  function("linearizeDynamics", &dynLinearize);
  function("jointTransferFunctions", &dynJointTransfer);
  function("frequencyResponse", &dynFrequencyResponse);
  function("cartesianInertia", &dynCartesianInertia);
  function("dynamicManipulability", &dynDynamicManipulability);
  function("simulate", &dynSimulate);
  function("simulateComputedTorque", &dynControl);
}
