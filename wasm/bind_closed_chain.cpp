// Model methods of closed chains (closed_chains/loop_closure.hpp): the loop of the model's robot file
// (its "loop" section, model.info.loop) closed by Newton, the closed chain's coordinates, its model by
// Freeman's transfer, the actuator and constraint loads, forward dynamics and one simulation step.
// JS: wasm/js/closed_chain.mjs. Types: wasm/types/closed_chain.d.ts. Docs: docs/dynamics.md#closed-chains.
//
// Hot path (dragging): closeLoop and closedChainLoads read their inputs from the model's input buffer and
// write to its output buffer, as the kinematics calls do. The closed chain's scratch (ClosedChainModel and
// vectors) lives with the model, created on first use.
#include <nlohmann/json.hpp>

#include <achain/closed_chains/loop_closure.hpp>
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {

/// The closed chain's scratch of one model handle (WasmModel::loop_state).
struct LoopState {
  explicit LoopState(const Model& m) : data(m) {}
  Data data;
  ClosedChainModel cm;
  VecX q, f, yd, ydd, Ty, Tc, qd, qdd, y;
};
void destroy(LoopState* p) { delete p; }

namespace {

const LoopClosure& requireLoop(const WasmModel& h, const char* what) {
  if (!h.loop)
    throw Error(std::string(what) + ": '" + h.model.name +
                "' is not a closed chain (its robot file has no loop section; docs/robot-format.md#loops)");
  return *h.loop;
}

LoopState& loopState(WasmModel& h) {
  if (!h.loop_state) h.loop_state.reset(new LoopState(h.model));
  return *h.loop_state;
}

/// The closed chain's coordinate count: y = (α; f), M − R numbers.
int coordinateCount(const WasmModel& h) {
  const LoopClosure& L = *h.loop;
  return static_cast<int>(L.alpha.size()) + closureSpaceSize(L.kind) - closureConstraintCount(L.kind);
}

/// Reads n numbers at in[offset…) into v ("what[i]: must be a finite number").
void readInput(const WasmModel& h, int offset, int n, VecX& v, const char* what) {
  v.resize(n);
  for (int i = 0; i < n; ++i) {
    const double x = h.in[offset + i];
    if (!std::isfinite(x)) throw Error(std::string(what) + "[" + std::to_string(i) + "]: must be a finite number");
    v[i] = x;
  }
}

DynamicsOptions loopOptions(int legs, int flags) {
  if (legs < 0 || legs > 3) throw Error("legs: must be massless, lumped, full or potential");
  DynamicsOptions o;
  o.legs = static_cast<LegModel>(legs);
  o.motors = flags & 1;
  o.friction = flags & 2;
  return o;
}

/// The model at the closed configuration q, then the joint rates from ẏ, ÿ; with friction the model is
/// built again at those rates (friction loads depend on q̇).
void modelAndRates(WasmModel& h, LoopState& s, const DynamicsOptions& o) {
  const LoopClosure& L = *h.loop;
  s.qd = VecX::Zero(h.model.nq);
  s.qdd = VecX::Zero(h.model.nq);
  closedChainModel(h.model, s.data, L, s.q, s.qd, o, s.cm);
  closedChainRates(s.cm, s.yd, s.ydd, s.qd, s.qdd);
  if (o.friction) closedChainModel(h.model, s.data, L, s.q, s.qd, o, s.cm);
}

/// in = [q (nq) | f target (nf)] → out = [closed q (nq), iterations]. q holds α and a start for the
/// dependent joints (the previous solution while dragging); nf = 0 or N − R (the planar pin's tool angle).
uintptr_t closeLoopJS(WasmModel& h, int nf) {
  return guard([&] {
    const LoopClosure& L = requireLoop(h, "closeLoop");
    const int nq = h.model.nq;
    const int free = closureSpaceSize(L.kind) - closureConstraintCount(L.kind);
    if (nf != 0 && nf != free)
      throw Error("fTarget: expected " + std::to_string(free) + " values (the free components of the closure), got " +
                  std::to_string(nf));
    LoopState& s = loopState(h);
    s.q = h.readQ();
    readInput(h, nq, nf, s.f, "fTarget");
    const int iterations = closeLoop(h.model, s.data, L, s.q, s.f);
    double* o = h.output(nq + 1);
    for (int i = 0; i < nq; ++i) o[i] = s.q[i];
    o[nq] = iterations;
    return h.finiteOut(nq + 1, "closeLoop");
  });
}

/// in = q (closed) → y = (α; f), M − R numbers.
uintptr_t coordinatesJS(WasmModel& h) {
  return guard([&] {
    const LoopClosure& L = requireLoop(h, "closedChainCoordinates");
    LoopState& s = loopState(h);
    s.y = closedChainCoordinates(h.model, s.data, L, h.readQ());
    double* o = h.output(s.y.size());
    for (int i = 0; i < s.y.size(); ++i) o[i] = s.y[i];
    return h.finiteOut(s.y.size(), "closedChainCoordinates");
  });
}

/// in = [q (nq, closed) | ẏ (ny) | ÿ (ny)] → out = [T_y (ny) | T_c (R) | q̇ (nq) | q̈ (nq)], by closedChainInverseDynamics.
uintptr_t loadsJS(WasmModel& h, int legs, int flags) {
  return guard([&] {
    requireLoop(h, "closedChainLoads");
    const int nq = h.model.nq, ny = coordinateCount(h), R = closureConstraintCount(h.loop->kind);
    LoopState& s = loopState(h);
    s.q = h.readQ();
    readInput(h, nq, ny, s.yd, "yd");
    readInput(h, nq + ny, ny, s.ydd, "ydd");
    s.Ty.resize(ny);
    s.Tc.resize(R);
    s.qd.resize(nq);
    s.qdd.resize(nq);
    // one RNEA pass at the closure's rates (the transfer's T_y, T_c to 1e-15, 7× faster natively)
    closedChainInverseDynamics(h.model, s.data, *h.loop, s.q, s.yd, s.ydd, loopOptions(legs, flags), s.qd, s.qdd, s.Ty, s.Tc);
    double* o = h.output(ny + R + 2 * nq);
    for (int i = 0; i < ny; ++i) *o++ = s.Ty[i];
    for (int i = 0; i < R; ++i) *o++ = s.Tc[i];
    for (int i = 0; i < nq; ++i) *o++ = s.qd[i];
    for (int i = 0; i < nq; ++i) *o++ = s.qdd[i];
    return h.finiteOut(ny + R + 2 * nq, "closedChainLoads");
  });
}

/// in = [q (nq, closed) | ẏ (ny) | ÿ (ny)] → the linearisation in y (outputLinearization's layout; S = 2ny).
uintptr_t linearizeJS(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const LoopClosure& L = requireLoop(h, "linearizeClosedChain");
    const int nq = h.model.nq, ny = coordinateCount(h);
    LoopState& s = loopState(h);
    s.q = h.readQ();
    readInput(h, nq, ny, s.yd, "yd");
    readInput(h, nq + ny, ny, s.ydd, "ydd");
    Linearization lin;
    linearizeClosedChain(h.model, s.data, L, s.q, s.yd, s.ydd, loopOptions(legs, flags), LinearizeOptions{}, lin);
    return outputLinearization(h, lin);
  });
}

/// in = [q (nq, closed) | ẏ (ny) | T_y (ny)] → ÿ (ny).
uintptr_t forwardJS(WasmModel& h, int legs, int flags) {
  return guard([&] {
    requireLoop(h, "closedChainForwardDynamics");
    const int nq = h.model.nq, ny = coordinateCount(h);
    LoopState& s = loopState(h);
    s.q = h.readQ();
    readInput(h, nq, ny, s.yd, "yd");
    readInput(h, nq + ny, ny, s.Ty, "Ty");
    s.ydd = VecX::Zero(ny);
    modelAndRates(h, s, loopOptions(legs, flags));
    closedChainForwardDynamics(s.cm, s.yd, s.Ty, s.ydd);
    double* o = h.output(ny);
    for (int i = 0; i < ny; ++i) o[i] = s.ydd[i];
    return h.finiteOut(ny, "closedChainForwardDynamics");
  });
}

/// in = [q (nq, closed) | ẏ (ny) | T_y (ny)], `steps` RK4 steps of dt → out = [q (nq) | y (ny) | ẏ (ny)].
uintptr_t stepJS(WasmModel& h, int legs, int flags, double dt, int steps) {
  return guard([&] {
    const LoopClosure& L = requireLoop(h, "closedChainStep");
    if (!(dt > 0) || !std::isfinite(dt)) throw Error("dt: must be a finite number > 0");
    if (steps < 1 || steps > 100000) throw Error("steps: must be an integer from 1 to 100000");
    const int nq = h.model.nq, ny = coordinateCount(h);
    LoopState& s = loopState(h);
    s.q = h.readQ();
    readInput(h, nq, ny, s.yd, "yd");
    readInput(h, nq + ny, ny, s.Ty, "Ty");
    const DynamicsOptions o = loopOptions(legs, flags);
    s.y = closedChainCoordinates(h.model, s.data, L, s.q);
    for (int k = 0; k < steps; ++k) closedChainStep(h.model, s.data, L, s.q, s.y, s.yd, s.Ty, dt, o, s.cm);
    double* out = h.output(nq + 2 * ny);
    for (int i = 0; i < nq; ++i) *out++ = s.q[i];
    for (int i = 0; i < ny; ++i) *out++ = s.y[i];
    for (int i = 0; i < ny; ++i) *out++ = s.yd[i];
    return h.finiteOut(nq + 2 * ny, "closedChainStep");
  });
}

nlohmann::json matrix(const MatX& M) {
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < M.rows(); ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (int c = 0; c < M.cols(); ++c) row.push_back(M(r, c));
    rows.push_back(row);
  }
  return rows;
}

/// P[k][m][n] as nested arrays.
nlohmann::json tensor(const Tensor3& T) {
  nlohmann::json planes = nlohmann::json::array();
  for (int k = 0; k < T.planes(); ++k) {
    nlohmann::json plane = nlohmann::json::array();
    for (int m = 0; m < T.rows(); ++m) {
      nlohmann::json row = nlohmann::json::array();
      for (int n = 0; n < T.cols(); ++n) row.push_back(T(k, m, n));
      plane.push_back(row);
    }
    planes.push_back(plane);
  }
  return planes;
}

nlohmann::json vector(const VecX& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

/// in = q (closed) → the closed chain's model as JSON (cold path: reports, the tutorial's tables).
std::string modelJS(WasmModel& h, int legs, int flags) {
  return guard([&] {
    const LoopClosure& L = requireLoop(h, "closedChainModel");
    LoopState& s = loopState(h);
    s.q = h.readQ();
    closedChainModel(h.model, s.data, L, s.q, VecX::Zero(h.model.nq), loopOptions(legs, flags), s.cm);
    const ClosedChainModel& c = s.cm;
    return nlohmann::json{{"M", c.M}, {"N", c.N}, {"R", c.R}, {"alpha", c.alpha}, {"beta", c.beta},
                          {"yInW", c.y_in_w}, {"cInW", c.c_in_w}, {"Ge", matrix(c.Ge)}, {"GwPhi", matrix(c.Gw_phi)},
                          {"GphiW", matrix(c.Gphi_w)}, {"HphiWw", tensor(c.Hphi_ww)},
                          {"open", {{"Istar", matrix(c.open.Istar)}, {"Pstar", tensor(c.open.Pstar)}, {"TL", vector(c.open.TL)}}},
                          {"w", {{"Istar", matrix(c.w.Istar)}, {"Pstar", tensor(c.w.Pstar)}, {"TL", vector(c.w.TL)}}},
                          {"y", {{"Istar", matrix(c.y.Istar)}, {"Pstar", tensor(c.y.Pstar)}, {"TL", vector(c.y.TL)}}},
                          {"Icy", matrix(c.Icy)}, {"Pcyy", tensor(c.Pcyy)}, {"TLc", vector(c.TLc)}}
        .dump();
  });
}

/// N and R of a closure kind ("planar_pin" | "point" | "pose"), for a UI that declares a loop.
int spaceSizeJS(const std::string& kind) { return guard([&] { return closureSpaceSize(closureKindFromString(kind)); }); }
int constraintCountJS(const std::string& kind) {
  return guard([&] { return closureConstraintCount(closureKindFromString(kind)); });
}

}  // namespace
}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_closed_chain) {
  using namespace achain::wasm;
  function("closeLoop", &closeLoopJS);
  function("closedChainCoordinates", &coordinatesJS);
  function("closedChainLoads", &loadsJS);
  function("closedChainForwardDynamics", &forwardJS);
  function("closedChainStep", &stepJS);
  function("linearizeClosedChain", &linearizeJS);
  function("closedChainModel", &modelJS);
  function("closureSpaceSize", &spaceSizeJS);
  function("closureConstraintCount", &constraintCountJS);
}
