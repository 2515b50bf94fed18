// achain — command-line front end of the core. Every subcommand prints one JSON object on
// stdout in SI units, or a one-line error on stderr with a non-zero exit status.
#include <algorithm>

#include <achain/math/text.hpp>

#include "common.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "achain: kinematics, inverse kinematics and dynamics of serial chains and trees (and closed loops and parallel mechanisms) with R, P, H and "
      "algebraic screw (A) pairs.\nOutput: one JSON object on stdout, SI units (m, rad, kg, N*m)."};
  app.require_subcommand(1);
  auto& cmds = achain::cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](const auto& a, const auto& b) { return std::string(a.name) < b.name; });
  for (auto& c : cmds) c.install(app);
  achain::cli::requireDecimalNumbers(app);
  // A first word that is not an option names a subcommand: say so when it names none (CLI11 would report
  // "A subcommand is required").
  if (argc > 1 && argv[1][0] != '-') {
    try {
      app.get_subcommand(argv[1]);
    } catch (const CLI::OptionNotFound&) {
      std::cerr << "achain: usage error: unknown subcommand " << achain::quoteInput(argv[1])
                << " (achain --help lists them)" << std::endl;
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help: usage on stdout, exit 0
    // A usage error in the same one-line form as every other error, exit status 2 (1 is bad input).
    std::string sub;
    for (const CLI::App* s : app.get_subcommands()) sub = s->get_name();
    std::cerr << "achain" << (sub.empty() ? "" : " " + sub) << ": usage error: " << achain::nameInput(e.what(), 300)
              << " (see achain " << (sub.empty() ? "" : sub + " ") << "--help)" << std::endl;
    return 2;
  }
  return 0;
}
