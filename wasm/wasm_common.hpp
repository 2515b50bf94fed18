// Shared helpers of the Embind layer: the Model handle, typed-array I/O without per-element
// marshalling, and C++ errors rethrown as JavaScript Errors with the same message.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <cstdio>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/flexibility/joint_flexibility.hpp>
#include <achain/io/robot.hpp>
#include <achain/math/progress.hpp>
#include <achain/math/text.hpp>
#include <achain/model/data.hpp>
#include <achain/model/model.hpp>
#include <achain/trajectory/plan.hpp>

namespace achain::wasm {

using emscripten::val;

// Per-area scratch of a model handle, each defined in its area's binding file beside a destroy() overload (so the
// handle owns it without this header knowing its members): created on first use, freed with the handle.
struct KinScratch;  ///< Jacobians, influence coefficients (bind_kinematics.cpp)
struct IkState;     ///< IK staging and branch tracking (bind_ik.cpp)
struct DynState;    ///< dynamics scratch (bind_dynamics.cpp)
struct LoopState;   ///< closed-chain scratch (bind_closed_chain.cpp)
struct FlexState;   ///< the flexible chain and its data (bind_flexible_chain.cpp)
void destroy(KinScratch* p);
void destroy(IkState* p);
void destroy(DynState* p);
void destroy(LoopState* p);
void destroy(FlexState* p);
struct StateDeleter {
  template <class T>
  void operator()(T* p) const { destroy(p); }
};
/// One area's scratch, owned by the handle.
template <class T>
using StatePtr = std::unique_ptr<T, StateDeleter>;

/// A model plus its scratch Data, owned by one JS object (free it with .delete()).
///
/// Hot-path calling convention (no per-element marshalling, no val in the loop):
/// JS writes the inputs straight into `in` (HEAPF64 at inputPtr), calls the method, which
/// returns the address of `out`; JS copies the known number of doubles from HEAPF64.
/// The most model handles one module holds at once (docs/reliability.md, "wasm arguments and lifetime"). A handle
/// whose dispose() is forgotten is freed by the FinalizationRegistry only after the garbage collector has run and the
/// event loop has turned, so a synchronous loop that forgets it would grow the heap without bound (20,000 PUMAs took
/// it to 899 MiB); past this count a new model is refused with a message that says so.
constexpr int kMaxLiveModels = 1000;

/// Model handles alive in this module: the module's one counter (bind_model.cpp), changed only by LiveModelSlot.
int& liveModelCount();

/// A model handle's place in the count, taken before anything else of the handle is built and given back with it.
struct LiveModelSlot {
  LiveModelSlot() {
    if (liveModelCount() >= kMaxLiveModels)
      throw Error("models: " + std::to_string(liveModelCount()) +
                  " are alive, the most one module holds; dispose() the models you no longer need (a forgotten one "
                  "is freed only after the garbage collector has run and the event loop has turned)");
    ++liveModelCount();
  }
  ~LiveModelSlot() { --liveModelCount(); }
  LiveModelSlot(const LiveModelSlot&) = delete;
  LiveModelSlot& operator=(const LiveModelSlot&) = delete;
};

struct WasmModel {
  LiveModelSlot slot;  ///< first member: counted (or refused) before the model is built
  explicit WasmModel(Model m) : model(std::move(m)), data(model), q(VecX::Zero(model.nq)), in(64), out(64) {}
  /// A robot file read once (io/robot.hpp): its Model and the sections it declares.
  /// A parallel robot file is refused by name: the handle is one chain (Robot::requireChain).
  explicit WasmModel(Robot r)
      : model(chainOf(r)), data(model), q(VecX::Zero(model.nq)), in(64), out(64), loop(std::move(r.loop)),
        drives(std::move(r.drives)), flexible_links(std::move(r.flexible_links)),
        defaults(std::move(r.defaults)) {}
  static Model chainOf(Robot& r) {
    r.requireChain();
    return std::move(r.model);
  }
  Model model;
  Data data;
  VecX q;                    ///< configuration read from `in`
  std::vector<double> in;    ///< input staging buffer (JS writes here)
  std::vector<double> out;   ///< result buffer (JS reads from here)
  /// Per-area scratch, created on first use and freed with the model (no side tables, no function statics).
  StatePtr<KinScratch> kin_scratch;
  StatePtr<IkState> ik_state;
  StatePtr<DynState> dynamics_state;
  StatePtr<LoopState> loop_state;
  /// The robot file's sections besides the Model (Robot, io/robot.hpp), when it declares them: the loop-closure
  /// constraint, the drive blocks (joint flexibility) and the flexible links.
  std::optional<LoopClosure> loop;
  std::optional<JointFlexibility> drives;
  std::optional<FlexibleLinks> flexible_links;
  /// The flexible chain and its scratch (bind_flexible_chain.cpp), created on first use.
  StatePtr<FlexState> flex_state;
  /// The robot file's "defaults" section (io/robot.hpp RobotDefaults), when it has one.
  std::optional<RobotDefaults> defaults;

  /// Makes `in` hold at least n doubles; returns its address (changes only when it grows).
  uintptr_t reserveInput(int n) {
    if (n < 0) n = 0;
    if (static_cast<size_t>(n) > in.size()) in.resize(n);
    return reinterpret_cast<uintptr_t>(in.data());
  }
  /// Throws unless `in` holds at least n doubles (the batch entry points read count samples from it).
  void requireInput(size_t n) const {
    if (n > in.size())
      throw Error("count: " + std::to_string(n) + " input numbers needed, " + std::to_string(in.size()) + " staged");
  }
  /// Copies in[offset, offset+nq) into q and checks it ("q[2]: must be a finite number").
  const VecX& readQ(int offset = 0) {
    for (int i = 0; i < model.nq; ++i) {
      const double v = in[offset + i];
      if (!std::isfinite(v)) throw Error("q[" + std::to_string(i) + "]: must be a finite number");
      q[i] = v;
    }
    return q;
  }
  /// in[offset, offset+n) after checking every entry finite ("phi[3]: must be a finite number").
  VecX readFinite(int offset, int n, const char* what) const {
    requireInput(static_cast<size_t>(offset) + n);
    VecX v(n);
    for (int i = 0; i < n; ++i) {
      const double x = in[offset + i];
      if (!std::isfinite(x)) throw Error(std::string(what) + "[" + std::to_string(i) + "]: must be a finite number");
      v[i] = x;
    }
    return v;
  }
  /// Resizes `out` and returns its address (for the method's return value).
  double* output(size_t n) {
    if (out.size() < n) out.resize(n);
    return out.data();
  }
  uintptr_t outAddress() const { return reinterpret_cast<uintptr_t>(out.data()); }
  /// outAddress() once the first n results are checked finite: a result that overflowed (qd = 1e200) is an
  /// Error naming the result and its first non-finite entry, never NaN or Infinity handed to JS.
  uintptr_t finiteOut(size_t n, const char* what) const {
    for (size_t i = 0; i < n; ++i)
      if (!std::isfinite(out[i])) throwNotFinite(what, i);
    return outAddress();
  }
  [[noreturn]] static void throwNotFinite(const char* what, size_t i) {
    throw Error(std::string(what) + "[" + std::to_string(i) +
                "]: the result is not finite: an input is outside the range this computation can represent (check the "
                "magnitudes of q, qd, qdd, tau, gravity and their units)");
  }
};

/// A linearisation as the module returns it (linearizeDynamics, linearizeClosedChain): A, B, C, D (row-major), the
/// poles (re, im), ∂T/∂q, ∂T/∂q̇, I* and the state transform T; returns the output's address (bind_dynamics.cpp).
uintptr_t outputLinearization(WasmModel& h, const Linearization& lin);

[[noreturn]] inline void throwJs(const std::string& msg) {
  val::global("Error").new_(msg).throw_();
  __builtin_unreachable();
}

/// What an allocation that failed says: the heap's size and its limit, and what to do.
inline std::string outOfMemoryText() {
  const double mib = 1024.0 * 1024.0;
  char b[320];
  std::snprintf(b, sizeof b,
                "out of memory: the wasm heap could not grow past %.0f MiB (at most %.0f MiB); %d models are alive: "
                "dispose() the models and workspace jobs you no longer need, or ask for less (a coarser voxel, fewer "
                "samples)",
                double(emscripten_get_heap_size()) / mib, double(emscripten_get_heap_max()) / mib, liveModelCount());
  return b;
}

/// Runs f; a C++ exception becomes a JS Error with the same message (std::bad_alloc: outOfMemoryText()).
template <class F>
auto guard(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throwJs(outOfMemoryText());
  } catch (const std::exception& e) {
    throwJs(safeMessage(e.what()));
  }
}

/// A JS onProgress(fraction) as the core's Progress: called with the fraction done; a return of exactly false
/// stops the computation (undefined or anything else goes on). Not a function: no progress.
inline Progress jsProgress(const val& onProgress) {
  if (onProgress.typeOf().as<std::string>() != "function") return {};
  return Progress([onProgress](double f) { return !onProgress(f).strictlyEquals(val(false)); });
}

/// Copies a JS array / typed array of exactly n numbers into dst (one bulk copy).
inline void readVector(const val& arr, double* dst, int n, const char* what) {
  if (arr.isNull() || arr.isUndefined()) throw Error(std::string(what) + ": missing");
  // a string has a length too, and TypedArray.set would turn '1234' into numbers: objects only
  if (arr.typeOf().as<std::string>() != "object") throw Error(std::string(what) + ": must be an array of numbers");
  const val len = arr["length"];
  if (!len.isNumber()) throw Error(std::string(what) + ": must be an array of numbers");
  const int m = len.as<int>();
  if (m != n) throw Error(std::string(what) + ": expected " + std::to_string(n) + " values, got " + std::to_string(m));
  if (!val::global("ArrayBuffer").call<bool>("isView", arr))  // a plain array: every element a number, not coerced
    for (int i = 0; i < n; ++i)
      if (!arr[i].isNumber())
        throw Error(std::string(what) + "[" + std::to_string(i) + "]: must be a finite number (got " +
                    (arr[i].isNull() ? std::string("null") : arr[i].typeOf().as<std::string>()) + ")");
  val(emscripten::typed_memory_view(n, dst)).call<void>("set", arr);
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(dst[i])) throw Error(std::string(what) + "[" + std::to_string(i) + "]: must be a finite number");
}

/// The leg model from its code in the JS carriers' order (massless, lumped, full, potential).
inline LegModel legModelFromCode(double c) {
  const int k = static_cast<int>(c);
  if (k < 0 || k > 3 || k != c) throw Error("options.legs: unknown leg model");
  return static_cast<LegModel>(k);
}

/// The joint-space plan described in `in` as wasm/js/trajectory.mjs (planParts) writes it (bind_trajectory.cpp);
/// `rate` gets the sampling rate, `end` the input offset after the description.
PlanSpec planSpecFromInput(const WasmModel& h, double& rate, int& end);

/// Drive flexibility in SI as {stiffness, damping, motorInertia} (a motor inertia the file does not give: null),
/// for model.info.drives and achain.jointFlexibilityFromJsonString (bind_flexibility.cpp).
nlohmann::json flexibilityJson(const JointFlexibility& f);

/// A pose as its 16 numbers, row-major 4×4 (bind_model.cpp).
nlohmann::json poseJson(const SE3& T);

/// The flexible links of the robot file (joints[i].flexible) for model.info.flexibleLinks, or null
/// (bind_flexible_chain.cpp).
nlohmann::json flexibleLinksInfo(WasmModel& h);

/// A Float64Array view on wasm memory, for cold paths; the JS wrapper copies it at once.
inline val view(const double* p, size_t n) { return val(emscripten::typed_memory_view(n, p)); }

}  // namespace achain::wasm
