// achain — command-line front end of the core. Every subcommand prints one JSON object on
// stdout in SI units, or a one-line error on stderr with a non-zero exit status.
#include <algorithm>

#include "common.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "achain: kinematics, inverse kinematics and dynamics of serial chains with R, P, H and "
      "algebraic screw (A) pairs.\nOutput: one JSON object on stdout, SI units (m, rad, kg, N*m)."};
  app.require_subcommand(1);
  auto& cmds = achain::cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](const auto& a, const auto& b) { return std::string(a.name) < b.name; });
  for (auto& c : cmds) c.install(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
