// The workspace area's reference chain, shared by tests/core/reach/test_workspace.cpp and bench/bench_workspace.cpp.
#pragma once
#include <achain/io/model_json.hpp>
#include <achain/model/model.hpp>

namespace achain::test {

/// The thesis's 3R test chain (Table 3.2): (a, d, α) = (5, 8, 180°), (2, 8, 90°), (2, 8, 0°), 240° sweeps.
inline Model thesis3R() {
  return modelFromJsonString(R"({"schema_version":1,"name":"thesis-3r","units":{"length":"m","angle":"deg"},"joints":[
    {"kind":"R","a":5,"d":8,"alpha":180,"limits":{"lower":60,"upper":300}},
    {"kind":"R","a":2,"d":8,"alpha":90,"limits":{"lower":60,"upper":300}},
    {"kind":"R","a":2,"d":8,"alpha":0,"limits":{"lower":60,"upper":300}}]})");
}

}  // namespace achain::test
