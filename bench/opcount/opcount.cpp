// Operation counts, measured: runs each dynamics kernel once under callgrind, between
// CALLGRIND_START_INSTRUMENTATION and CALLGRIND_STOP_INSTRUMENTATION, after a warm-up call of the same kernel,
// and dumps the counts of that one call as its own profile (CALLGRIND_DUMP_STATS_AT("<robot>/<kernel>")).
// bench/opcount/opcount.mjs builds this file against build/native's libachain.a, runs it under
//   valgrind --tool=callgrind --instr-atstart=no --dump-instr=yes
// and turns the per-instruction execution counts into floating-point multiplications and additions
// (docs/dynamics.md, "Operation counts, measured"). Run outside valgrind, the macros do nothing.
//
//   opcount [robot…]   robots: puma560 (n = 6), puma560-3 (its first three joints and links); default both
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <valgrind/callgrind.h>

#include <nlohmann/json.hpp>

#include <achain/dynamics/aba.hpp>
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/lee.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>

using namespace achain;

namespace {

/// puma560, or puma560-3: the built-in's file with only its first three joints (and their links).
Model robot(const std::string& name) {
  if (name == "puma560") return builtinModel("puma560");
  if (name == "puma560-3") {
    const BuiltinRobot* b = findBuiltinRobot("puma560");
    nlohmann::json j = nlohmann::json::parse(b->json);
    j["joints"].erase(j["joints"].begin() + 3, j["joints"].end());
    j["name"] = "puma560-3";
    return modelFromJson(j);
  }
  std::fprintf(stderr, "opcount: unknown robot '%s' (puma560, puma560-3)\n", name.c_str());
  std::exit(2);
}

// Kept out of line, so that the measured region is exactly one call of the kernel.
__attribute__((noinline)) void measure(const std::string& label, const std::function<void()>& call) {
  call();  // warm-up: first-touch of the workspace, lazy symbol binding of libm
  CALLGRIND_ZERO_STATS;
  CALLGRIND_START_INSTRUMENTATION;
  call();
  CALLGRIND_STOP_INSTRUMENTATION;
  CALLGRIND_DUMP_STATS_AT(label.c_str());
}

void run(const std::string& name) {
  const Model m = robot(name);
  Data data(m);
  const int n = m.nv;
  // A generic state inside the limits (no zero rates, so no branch on a zero is taken)
  VecX q(n), qd(n), qdd(n), tau(n), b(n), out(n);
  for (int i = 0; i < n; ++i) {
    q[i] = 0.3 + 0.1 * i;
    qd[i] = 0.5 - 0.13 * i;
    qdd[i] = -0.7 + 0.21 * i;
  }
  const DynamicsOptions o;  // gravity on; no motors, friction, wrench or limit stops
  MatX M(n, n);
  LeeTerms lt;
  lt.resize(n);
  const LeeOptions lo;
  inverseDynamics(m, data, q, qd, qdd, o, tau);
  const std::string p = name + "/";
  measure(p + "fk", [&] { forwardKinematics(m, data, q); });
  measure(p + "rnea", [&] { inverseDynamics(m, data, q, qd, qdd, o, out); });
  measure(p + "bias", [&] { biasTorques(m, data, q, qd, o, b); });
  measure(p + "crba", [&] { massMatrix(m, data, q, o, M); });
  // The closed form's τ from our parts: M(q) by CRBA, b(q, q̇) by RNEA with q̈ = 0, τ = M q̈ + b
  measure(p + "crba+bias", [&] {
    massMatrix(m, data, q, o, M);
    biasTorques(m, data, q, qd, o, b);
    out.noalias() = M * qdd;
    out += b;
  });
  measure(p + "leeTerms", [&] { leeTerms(m, data, q, qd, o, lt); });
  measure(p + "leeInverseDynamics", [&] { leeInverseDynamics(m, data, q, qd, qdd, o, lo, lt, out); });
  measure(p + "forwardDynamics", [&] { forwardDynamics(m, data, q, qd, tau, o, out); });
  measure(p + "forwardDynamicsABA", [&] { forwardDynamicsABA(m, data, q, qd, tau, o, out); });
  std::printf("%s: n = %d, tau = [", name.c_str(), n);
  for (int i = 0; i < n; ++i) std::printf("%s%.6g", i ? ", " : "", tau[i]);
  std::printf("]\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> names(argv + 1, argv + argc);
  if (names.empty()) names = {"puma560", "puma560-3"};
  for (const auto& nm : names) run(nm);
  return 0;
}
