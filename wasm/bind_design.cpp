// Design sweeps (issue 36; design/design_space.hpp, io/design_json.hpp): a design's robot and parameters from a
// design space, so the studio's Sweep view can load the design a user clicks in a merged sweep. The sweep itself
// (evaluateDesign over thousands of designs) runs natively (`achain sweep`, on one machine or a Slurm array).
// JS: wasm/js/design.mjs. Types: wasm/types/design.d.ts. Docs: docs/sweeps.md.
#include <cstdint>

#include <nlohmann/json.hpp>

#include <achain/io/design_json.hpp>
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {
namespace {

/// Design k's index from JS: a whole number ≥ 0 (JS numbers are exact to 2^53, past any space's kMaxDesigns).
std::uint64_t designIndex(double k) {
  if (!(k >= 0) || k != static_cast<double>(static_cast<std::uint64_t>(k)))
    throw Error("index: must be a whole number >= 0 (a design's index in its space)");
  return static_cast<std::uint64_t>(k);
}

/// Design k's robot description (JSON text): the base robot with design k's values at the parameters' pointers.
std::string designRobotJsonJS(const std::string& space_text, double k) {
  return guard([&] { return designRobotJson(designSpaceFromJsonString(space_text), designIndex(k)).dump(); });
}

/// Design k's parameters by name (JSON text).
std::string designParametersJsonJS(const std::string& space_text, double k) {
  return guard([&] { return designParametersJson(designSpaceFromJsonString(space_text), designIndex(k)).dump(); });
}

}  // namespace
}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_design) {
  using namespace achain::wasm;
  function("designRobotJson", &designRobotJsonJS);
  function("designParametersJson", &designParametersJsonJS);
}
