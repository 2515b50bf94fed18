// Shared pieces of the `achain` subcommands: the --robot / --q / --deg contract and JSON output.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <achain/dynamics/freeman.hpp>
#include <achain/kinematics/influence.hpp>  // kInfluenceRowNames
#include <achain/model/caps.hpp>
#include <achain/io/robot.hpp>
#include <achain/model/model.hpp>

namespace achain::cli {

using nlohmann::json;

/// Which joint-value options a robot-taking subcommand reads besides --robot and the URDF options:
/// --q and --deg (the default), --deg only (the subcommand has joint values of its own, e.g. ik --q-target),
/// or none (export, workspace: --deg would be a flag that does nothing).
enum class JointInputs { QDeg, Deg, None };

/// Options every robot-taking subcommand shares.
struct RobotArgs {
  std::string robot;
  std::string q;
  bool deg = false;
  std::string tool_link;          ///< URDF: the tool's link by name
  bool balance_inertia = false;   ///< URDF: replace inertias breaking the triangle inequality (MuJoCo's balanceinertia)
  bool keep_fixed = false;        ///< URDF: keep fixed joints (default: merged into their parent links)
  /// Adds --robot (help text `robot_help`, or the standard one), the joint-value options `inputs` and the URDF
  /// options. With required = false, --robot may be left out: `robot` keeps the value it had before add (its
  /// default, shown in --help) or stays empty for the subcommand to fill.
  void add(CLI::App* app, JointInputs inputs = JointInputs::QDeg, const std::string& robot_help = "", bool required = true);
  /// The robot file read once (io/robot.hpp): the Model and its loop, drives and flexible links. A parallel robot
  /// file is refused ("--robot: … a parallel robot file …") unless `parallel` (the parallel subcommand).
  Robot read(bool parallel = false) const;
  /// read().model.
  Model model() const;
  /// The Model of --robot if given, else of `named` (the robot a trajectory file names), with the same URDF
  /// options; throws "--robot: required (the trajectory names no robot)" when both are empty.
  Model modelOr(const std::string& named) const;
  /// Joint vector in SI: angular entries converted from degrees when --deg.
  VecX joints(const Model& m, const std::string& text, const std::string& what = "--q") const;
};

/// Drive (joint) flexibility, one name across the subcommands: --drive-stiffness and --drive-damping, defaulting to
/// the robot file's drive blocks (joints[i].drive). A subcommand's former option names stay as aliases for one release.
struct DriveArgs {
  std::string stiffness, damping;
  /// Adds --drive-stiffness (and --drive-damping when `with_damping`), with the former names as aliases.
  void add(CLI::App* app, const std::string& old_stiffness, const std::string& old_damping = "", bool with_damping = true);
  /// The options' values (SI, one value or one per coordinate), else the robot file's drives; damping 0 when neither
  /// gives it. Throws achain::Error naming the option.
  JointFlexibility read(const Robot& robot) const;
};

/// One value for every coordinate, or one per coordinate (parseList's rules); throws achain::Error naming `what`.
VecX perCoordinate(const Model& m, const std::string& text, const std::string& what);

/// Adds --tool-link, --balance-inertia and --keep-fixed (URDF files) to a subcommand.
void addUrdfOptions(CLI::App* app, std::string& tool_link, bool& balance_inertia, bool& keep_fixed);
/// Prints a loaded model's "URDF warning: …" notes on stderr (nothing is dropped silently).
void reportUrdfWarnings(const std::string& sub, const Model& m);

/// Prints each note of a reader ("qdd: not in the file; differentiated …") as "achain SUB: warning: …" on stderr.
void reportNotes(const std::string& sub, const std::vector<std::string>& notes);

/// Magnitude bound of every number given in a list on the command line (SI units): large enough for any
/// physical joint value, rate or load, small enough that squares and products of inputs stay finite.
constexpr double kMaxInputMagnitude = 1e9;

/// Puts decimalProblem (achain/math/decimal.hpp, the one number reader: lists use it through parseList) in front of CLI11's own reader on every numeric option of `app` and its subcommands, so a
/// scalar option refuses what a list refuses ("--speed: '0x10' is not a number (decimal notation only)", exit 2).
void requireDecimalNumbers(CLI::App& app);
/// An option's value must be > 0 ("--dt: must be > 0 (got -1)"); CLI::PositiveNumber prints its bound as a
/// 300-digit number.
extern const CLI::Validator kPositive;

/// Parses "1,2,3" into numbers; throws achain::Error naming the option and the bad item. Refused: empty
/// items ("1,,2", "1,2,"), anything but decimal notation (0x10, inf, nan), values that over- or underflow a
/// double (1e-400), and magnitudes above kMaxInputMagnitude.
std::vector<double> parseList(const std::string& text, const std::string& what);

/// The comma-separated tokens of `text` as they are ("a,,b" gives an empty middle token).
std::vector<std::string> splitList(const std::string& text);

/// A comma list of influence row names ("x,y,wz") as row indices 0…5; throws naming `what`.
std::vector<int> parseInfluenceRows(const std::string& text, const std::string& what);

/// A 4x4 matrix given as 16 numbers, row-major (parseList's rules); throws achain::Error naming `what`.
/// Whether it is a rigid transform is the caller's check (checkTarget).
Mat4 parseMatrix4(const std::string& text, const std::string& what);
/// A pose "x,y,z,qw,qx,qy,qz" (m, unit quaternion, norm within 1e-6 of 1) as a 4x4 transform; throws
/// achain::Error naming `what`.
Mat4 parsePose(const std::string& text, const std::string& what);

json toJson(const Mat4& T);
json toJson(const VecX& v);
json toJson(const MatX& M);
/// A P×M×N array as P planes (matrices).
json toJson(const Tensor3& T);
/// A Freeman model {"Istar", "Pstar", "TL"}.
json toJson(const FreemanModel& f);

/// Throws achain::Error naming the first non-finite number of a result (its JSON path).
void checkFinite(const json& j);
/// The error checkFinite throws, for a result checked without building its JSON.
[[noreturn]] void failNotFinite(const std::string& path);

/// One JSON object on stdout, after checkFinite; a failed write (full disk, closed output) is an error.
void print(const json& j);

/// Text on stdout (a newline added if missing); a failed write is an error.
void writeStdout(const std::string& text);

/// Writes a file atomically: into a temporary file beside it, then renamed over `path`, so that a reader
/// never sees a partial file and a failed write leaves the old one. Devices and FIFOs are written in place.
/// `what` names the option in messages.
void writeFile(const std::string& path, const std::function<void(std::ostream&)>& body, const std::string& what = "--out");

/// A subcommand registers itself through this table (see main.cpp).
struct Command {
  const char* name;
  std::function<void(CLI::App&)> install;
};
std::vector<Command>& commands();
struct RegisterCommand {
  RegisterCommand(const char* name, std::function<void(CLI::App&)> install);
};

/// Runs `body`, turning achain::Error / std::exception into a one-line stderr message and exit 1.
void run(const std::string& sub, const std::function<void()>& body);

}  // namespace achain::cli
