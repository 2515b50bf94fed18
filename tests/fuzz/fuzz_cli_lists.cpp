// libFuzzer target: the CLI's number-list, joint-vector and pose parsers (cli/common: parseList,
// RobotArgs::joints with and without --deg, parseMatrix4 for --T, parsePose for --pose). Any input either
// parses or throws achain::Error naming the option; what parses is finite, within kMaxInputMagnitude,
// one number per comma-separated item, and a pose has an orthonormal rotation. Seeds: tests/fuzz/seeds/cli_lists.
#include <cmath>
#include <cstdint>
#include <string>

#include <achain/io/robot.hpp>

#include "../../cli/common.hpp"

using namespace achain;

namespace {

template <class F>
bool parses(F&& f) {
  try {
    f();
    return true;
  } catch (const Error& e) {
    const std::string w = e.what();
    if (w.empty() || w[0] != '-') __builtin_trap();  // every message starts with the option's name
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s(reinterpret_cast<const char*>(data), size);
  std::vector<double> v;
  if (parses([&] { v = cli::parseList(s, "--q"); })) {
    size_t commas = 0;
    for (char c : s) commas += c == ',';
    if (v.size() != commas + 1) __builtin_trap();
    for (double x : v)
      if (!std::isfinite(x) || std::abs(x) > cli::kMaxInputMagnitude) __builtin_trap();
  }
  // joint vectors of a 6-joint arm, in radians and in degrees
  static const Model m = builtinModel("puma560");  // loaded once per fuzzing process
  for (bool deg : {false, true}) {
    cli::RobotArgs a;
    a.deg = deg;
    VecX q;
    if (parses([&] { q = a.joints(m, s, "--q"); }))
      if (q.size() != m.nq || !q.allFinite()) __builtin_trap();
  }
  Mat4 T;
  if (parses([&] { T = cli::parseMatrix4(s, "--T"); }))
    if (!T.allFinite()) __builtin_trap();
  if (parses([&] { T = cli::parsePose(s, "--pose"); })) {
    const Mat3 R = T.topLeftCorner<3, 3>();
    if (!T.allFinite() || !((R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-5)) __builtin_trap();
  }
  return 0;
}
