// Subcommand export: a robot written in another format (URDF or MJCF), to a file or stdout.
#include "common.hpp"
#include <achain/io/mjcf.hpp>
#include <achain/io/urdf.hpp>
#include <achain/math/text.hpp>

namespace achain::cli {
namespace {

RegisterCommand export_cmd("export", [](CLI::App& app) {
  auto* sub = app.add_subcommand("export", "Write a robot as URDF (A-pairs as the achain:apair extension, simple visuals when it has none) or as MuJoCo MJCF "
                                           "(A-pairs as a hinge + slide tied by a fitted joint equality); "
                                           "with --out prints {\"written\", \"format\", \"warnings\"}, else the file on stdout");
  static RobotArgs args;
  static std::string format = "urdf", out;
  args.add(sub, JointInputs::None);
  sub->add_option("--format", format, "Output format: urdf or mjcf (default urdf)");
  sub->add_option("--out", out, "Write to this file (default: stdout, the file text itself)");
  sub->callback([] {
    run("export", [] {
      if (format != "urdf" && format != "mjcf") throw Error("--format: expected urdf or mjcf, got " + quoteInput(format));
      const Model m = args.model();
      std::vector<std::string> warnings;
      const std::string text = format == "mjcf" ? modelToMjcf(m, &warnings) : modelToUrdf(m, &warnings);
      for (const std::string& w : warnings) std::cerr << "achain export: warning: " << safeMessage(w) << "\n";
      if (out.empty()) return writeStdout(text);
      writeFile(out, [&](std::ostream& f) { f << text; });
      print({{"written", out}, {"format", format}, {"warnings", warnings}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
