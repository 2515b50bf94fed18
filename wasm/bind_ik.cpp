// Embind surface of the ik area (mirrors core/ik/*). See wasm/js/ik.mjs and wasm/types/ik.d.ts.
#include <memory>
#include <nlohmann/json.hpp>

#include <achain/ik/ik.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/ik/track.hpp>
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {

/// The binding's staging buffers per live model handle, kept in WasmModel::ik_state (the solver's
/// scratch is the handle's Data).
struct IkState {
  explicit IkState(const Model& m) : target(Mat4::Identity()), seed(m.nq) { result.q = VecX::Zero(m.nq); }
  Mat4 target;
  VecX seed;
  IkResult result;
  IkBranches branches;  ///< branch tracking (startBranches / addBranch / trackBranches)
  int nq = 0, nj = 0;
};
void destroy(IkState* p) { delete p; }

namespace {


/// The model handle's ik_state slot (WasmModel::ik_state): created on first use, rebuilt if the model's
/// shape changed, freed with the model.
IkState& stateOf(WasmModel& h) {
  IkState* p = h.ik_state.get();
  if (!p || p->nq != h.model.nq || p->nj != h.model.njoints()) {
    h.ik_state.reset(p = new IkState(h.model));
    p->nq = h.model.nq;
    p->nj = h.model.njoints();
  }
  return *p;
}

// The options block: 11 doubles — wp, wo, positionOnly, maxIterations, tolerance, restarts, randomSeed,
// respectLimits, escapeSingularity, maxStep, minSeparation.

IkOptions readOptions(const double* o) {
  IkOptions opt;
  opt.position_weight = o[0];
  opt.orientation_weight = o[1];
  opt.position_only = o[2] != 0;
  if (!(o[3] >= 1 && o[3] < 1e9)) throw Error("options.maxIterations: must be an integer ≥ 1");
  opt.max_iterations = static_cast<int>(o[3]);
  opt.tolerance = o[4];
  if (!(o[5] >= 0 && o[5] < 1e9)) throw Error("options.restarts: must be an integer ≥ 0");
  opt.restarts = static_cast<int>(o[5]);
  if (!(o[6] >= 0)) throw Error("options.randomSeed: must be ≥ 0");
  opt.random_seed = static_cast<std::uint64_t>(o[6]);
  opt.respect_limits = o[7] != 0;
  opt.escape_singularity = o[8] != 0;
  opt.max_step = o[9];  // checked by ikNumeric
  opt.min_separation = o[10];  // checked by ikAll
  return opt;
}

SE3 readTarget(const WasmModel& h, IkState& st) {
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) st.target(r, c) = h.in[4 * r + c];
  return checkTarget(st.target, "targetT");
}

void readSeed(const WasmModel& h, IkState& st, int offset) {
  for (int i = 0; i < h.model.nq; ++i) {
    const double v = h.in[offset + i];
    if (!std::isfinite(v)) throw Error("seedQ[" + std::to_string(i) + "]: must be a finite number");
    st.seed[i] = v;
  }
}

/// Hot path. in = [targetT (16, row-major) | seedQ (nq) | options (10)];
/// out = [q (nq) | status code (0 ok, 1 unreachable, 2 singular, 3 limits) | positionError |
///        orientationError | residual | iterations].
uintptr_t ikSolve(WasmModel& h) {
  return guard([&] {
    IkState& st = stateOf(h);
    const SE3 target = readTarget(h, st);
    readSeed(h, st, 16);
    const IkOptions opt = readOptions(h.in.data() + 16 + h.model.nq);
    ikNumeric(h.model, h.data, target, st.seed, opt, st.result);
    const int n = h.model.nq;
    double* o = h.output(n + 5);
    for (int i = 0; i < n; ++i) o[i] = st.result.q[i];
    o[n] = static_cast<double>(static_cast<int>(st.result.status));
    o[n + 1] = st.result.position_error;
    o[n + 2] = st.result.orientation_error;
    o[n + 3] = st.result.residual;
    o[n + 4] = st.result.iterations;
    return h.outAddress();
  });
}

nlohmann::json solutionJson(const IkSolution& s) {
  nlohmann::json o = {{"q", std::vector<double>(s.q.data(), s.q.data() + s.q.size())},
                      {"withinLimits", s.within_limits},
                      {"positionError", s.position_error},
                      {"orientationError", s.orientation_error}};
  if (!s.flags.empty()) {
    nlohmann::json f = nlohmann::json::object();
    for (const auto& kv : s.flags) f[kv.first] = kv.second;
    o["flags"] = f;
  }
  return o;
}

/// Cold path: every solution. in = [targetT (16) | seedQ (nq) | options (10)]; returns JSON text.
std::string ikAllJS(WasmModel& h, const std::string& method, bool has_seed) {
  return guard([&] {
    IkState& st = stateOf(h);
    const SE3 target = readTarget(h, st);
    if (has_seed) readSeed(h, st, 16);
    const IkOptions opt = readOptions(h.in.data() + 16 + h.model.nq);
    const IkAllResult r = ikAll(h.model, h.data, target, ikMethodFromString(method), opt, has_seed ? &st.seed : nullptr);
    nlohmann::json sols = nlohmann::json::array(), outside = nlohmann::json::array();
    for (const auto& s : r.solutions) sols.push_back(solutionJson(s));
    for (const auto& s : r.outside_limits) outside.push_back(solutionJson(s));
    nlohmann::json out = {{"status", toString(r.status)}, {"method", toString(r.method)}, {"solutions", sols},
                          {"outsideLimits", outside}, {"residual", r.residual}};
    if (r.has_nearest) out["nearest"] = solutionJson(r.nearest);
    if (r.family_q0.size() == h.model.nq)
      out["family"] = {{"q0", std::vector<double>(r.family_q0.data(), r.family_q0.data() + r.family_q0.size())},
                       {"direction", std::vector<double>(r.family_dir.data(), r.family_dir.data() + r.family_dir.size())}};
    if (!r.note.empty()) out["note"] = r.note;
    return out.dump();
  });
}

/// Branch tracking: in = [targetT (16)]; starts an empty set there.
void startBranchesJS(WasmModel& h) {
  guard([&] {
    IkState& st = stateOf(h);
    startBranches(h.model, readTarget(h, st), st.branches);
  });
}

/// in = [q (nq)]; returns the new branch's index.
int addBranchJS(WasmModel& h) {
  return guard([&] {
    IkState& st = stateOf(h);
    return addBranch(h.model, st.branches, h.in.data());
  });
}

/// Hot path. in = [targetT (16) | maxJointStep, maxHalvings, tolerance, meetDistance];
/// out = [count | newtonSteps | halvings | per branch (nq + 5): q (nq), alive, withinLimits, event code, partner, error].
uintptr_t trackBranchesJS(WasmModel& h) {
  return guard([&] {
    IkState& st = stateOf(h);
    const SE3 target = readTarget(h, st);
    const double* o = h.in.data() + 16;
    BranchTrackOptions opt;
    opt.max_joint_step = o[0];
    if (!(o[1] >= 0 && o[1] <= 40)) throw Error("options.maxHalvings: must be 0 … 40");
    opt.max_halvings = static_cast<int>(o[1]);
    opt.tolerance = o[2];
    opt.meet_distance = o[3];
    IkBranches& b = st.branches;
    trackBranches(h.model, h.data, target, b, opt);
    const int n = h.model.nq, w = n + 5;
    double* out = h.output(3 + w * b.count);
    out[0] = b.count;
    out[1] = b.newton_steps;
    out[2] = b.halvings;
    for (int k = 0; k < b.count; ++k) {
      double* r = out + 3 + w * k;
      for (int i = 0; i < n; ++i) r[i] = b.q[k][i];
      r[n] = b.alive[k];
      r[n + 1] = b.within_limits[k];
      r[n + 2] = static_cast<int>(b.event[k]);
      r[n + 3] = b.partner[k];
      r[n + 4] = b.error[k];
    }
    return h.outAddress();
  });
}

/// toString(BranchEvent) for every event, in code order.
val branchEventNames() {
  val out = val::array();
  for (BranchEvent e : {BranchEvent::None, BranchEvent::LeftLimits, BranchEvent::EnteredLimits, BranchEvent::Singular,
                        BranchEvent::Ended})
    out.call<void>("push", std::string(toString(e)));
  return out;
}

/// toString(IkStatus) for every status, in code order.
val ikStatusNames() {
  val out = val::array();
  for (IkStatus s : {IkStatus::Ok, IkStatus::Unreachable, IkStatus::Singular, IkStatus::Limits}) out.call<void>("push", std::string(toString(s)));
  return out;
}

}  // namespace
}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_ik) {
  using namespace achain::wasm;
  function("ikNumeric", &ikSolve);
  function("ikAll", &ikAllJS);
  // IK status names in IkStatus order (status code k ↔ ikStatusNames()[k]): the JS layer has no copy
  // (wasm/achain.mjs reads them once into the constant achain.ikStatusNames).
  function("ikStatusNames", &ikStatusNames);
  function("startBranches", &startBranchesJS);
  function("addBranch", &addBranchJS);
  function("trackBranches", &trackBranchesJS);
  function("branchEventNames", &branchEventNames);
}
