// libFuzzer target: the robot JSON loader (core/io/model_json: modelFromJsonString, as `--robot file.json`
// and the wasm module read a file). Any input either loads or throws achain::Error; a loaded model must pass
// checkLoadedModel (save/load identity, finite kinematics and gravity torques). Seeds: tests/fuzz/seeds/model_json.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  achain::Model m;
  try {
    m = achain::modelFromJsonString(achain::fuzz::text(data, size));
  } catch (const achain::Error&) {
    return 0;  // refused with a message: the expected outcome for most inputs
  }
  achain::fuzz::checkLoadedModel(m);
  return 0;
}
