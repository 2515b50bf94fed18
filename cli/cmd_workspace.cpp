// Subcommands of the workspace area: `achain workspace` (reachable workspace on a voxel grid)
// and `achain apair-range` (usable A-pair range from the leg radius).
#include <fstream>

#include <achain/model/apair_collision.hpp>
#include "common.hpp"
#include "progress.hpp"

#include <achain/math/text.hpp>
#include <achain/io/robot.hpp>
#include <achain/reach/workspace.hpp>

namespace achain::cli {
namespace {

json vec(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

Vec3 parseVec3(const std::string& text, const std::string& what) {
  const std::vector<double> v = parseList(text, what);
  if (v.size() != 3) throw Error(what + ": expected 3 comma-separated numbers (x,y,z in metres), got " + std::to_string(v.size()));
  return Vec3(v[0], v[1], v[2]);
}

json summary(const std::string& robot, const WorkspaceResult& r) {
  json out = {{"robot", robot},
              {"method", toString(r.options.method)},
              {"voxels", r.count()},
              {"volume", r.volume()},
              {"voxel", r.options.voxel},
              {"seconds", r.seconds},
              {"evaluations", r.evaluations},
              {"threads", r.threads}};
  if (r.options.method == WorkspaceMethod::Robinson) {
    out["representative"] = toString(r.options.representative);
    out["refine"] = r.options.refine;
  }
  if (r.options.method == WorkspaceMethod::MonteCarlo) {
    out["samples"] = r.evaluations;
    out["seed"] = r.options.seed;
  }
  Vec3 lo, hi;
  if (r.voxels.bounds(lo, hi)) out["bounds"] = {{"min", vec(lo)}, {"max", vec(hi)}};
  else out["bounds"] = nullptr;
  json sweeps = json::array();
  for (const auto& s : r.sweeps) {
    json o = {{"joint", s.joint}, {"lower", s.lower}, {"upper", s.upper}};
    if (r.options.method != WorkspaceMethod::MonteCarlo) o["steps"] = s.steps;
    if (r.options.method == WorkspaceMethod::Robinson) o["voxels_after"] = s.voxels;
    sweeps.push_back(o);
  }
  out["sweeps"] = sweeps;
  if (r.outside) out["outside"] = r.outside;
  return out;
}

void writeJson(const std::string& path, const json& summary_json, const VoxelSet& s) {
  json cells = json::array();
  s.forEach([&](int64_t c) {
    const Vec3i g = s.lattice(c);
    cells.push_back({g[0], g[1], g[2]});
  });
  json out = summary_json;
  out["origin"] = vec(s.origin());
  out["lattice"] = "voxel (i, j, k) is the cube origin + voxel*[i, i+1) x [j, j+1) x [k, k+1), metres, base frame";
  out["cells"] = cells;
  writeFile(path, [&](std::ostream& f) { f << out.dump() << "\n"; });
}

RegisterCommand workspace_cmd("workspace", [](CLI::App& app) {
  auto* sub = app.add_subcommand("workspace", "Reachable workspace of the tool point on a voxel grid (volume, bounds, voxels)");
  static RobotArgs args;
  static double voxel = 0, step_deg = 0, step_linear = 0, spacing = 0.5, samples = 2e7;
  static std::string method = "robinson", rep = "witness", out, point, origin, section, compare;
  static int threads = 0, refine = 1;
  static uint64_t seed = 1;
  static bool points = false, show_progress = false, estimate_only = false;
  static double max_bytes = kWorkspaceMaxBytes, max_evaluations = kWorkspaceMaxEvaluations;
  args.add(sub, JointInputs::None);
  sub->add_option("--voxel", voxel, "Voxel edge in metres (e.g. 0.0127 = 0.5 in)")->required();
  sub->add_option("--method", method, "robinson (default) | castelli | montecarlo");
  sub->add_option("--step", step_deg, "Joint step in degrees for R/H/A joints (default: automatic, about half a voxel of motion)");
  sub->add_option("--step-linear", step_linear, "Joint step in metres for prismatic joints (default: automatic)");
  sub->add_option("--spacing", spacing, "Automatic step: largest point motion per step, in voxels (default 0.5)");
  sub->add_option("--representative", rep, "Robinson: the point that stands for a voxel: witness (default) | centre | near | far");
  sub->add_option("--samples", samples, "Monte-Carlo samples (default 2e7)");
  sub->add_option("--seed", seed, "Monte-Carlo seed (default 1)");
  sub->add_option("--threads", threads, "Threads (default: all cores)");
  sub->add_option("--refine", refine, "Robinson: keep the moved points on a grid REFINE times finer than the voxels (1-8, default 1)");
  sub->add_option("--point", point, "Swept point x,y,z in the tool frame, metres (default: tool origin)");
  sub->add_option("--origin", origin, "Lattice origin x,y,z, metres (voxel faces at origin + k*voxel; default 0,0,0)");
  sub->add_option("--section", section, "Also report an axis-aligned cross-section, e.g. z=0.3 (metres)");
  sub->add_option("--compare", compare, "Overlap with the workspace of another robot on the same lattice (e.g. prototype-4r)");
  sub->add_option("--out", out, "Write the voxels: .ply (surface mesh; --points for voxel centres) or .json (lattice indices)");
  sub->add_flag("--progress", show_progress,
                "Report progress on stderr while computing. With or without it, Ctrl-C or SIGTERM stops the "
                "computation within a round (about 2 million evaluations per thread), exit status 130 or 143");
  sub->add_flag("--estimate", estimate_only, "Print the job's estimate (grid cells, voxels, bytes, evaluations, seconds) and stop");
  sub->add_option("--max-bytes", max_bytes, "Refuse a job whose estimated memory is larger (bytes; default 1073741824 = 1 GiB)");
  sub->add_option("--max-evaluations", max_evaluations, "Refuse a job whose estimated time is more than this many point moves at Robinson's rate (default 2e10, about 17 min; Castelli's and Monte-Carlo's evaluations count 40 times)");
  sub->add_flag("--points", points, "With --out file.ply: write voxel centres as a point cloud instead of the surface mesh");
  sub->callback([] {
    run("workspace", [] {
      const Model m = args.model();
      WorkspaceOptions o;
      o.voxel = voxel;
      o.method = workspaceMethodFromString(method);
      if (!(step_deg >= 0)) throw Error("--step: must be ≥ 0 degrees");
      o.step = step_deg * kDeg;
      o.step_linear = step_linear;
      o.spacing = spacing;
      o.representative = representativeFromString(rep);
      o.samples = samples;
      o.seed = seed;
      o.threads = threads;
      o.refine = refine;
      if (!point.empty()) o.point = parseVec3(point, "--point");
      if (!origin.empty()) o.origin = parseVec3(origin, "--origin");
      if (!(max_bytes > 0)) throw Error("--max-bytes: must be > 0");
      if (!(max_evaluations > 0)) throw Error("--max-evaluations: must be > 0");
      o.max_bytes = max_bytes;
      o.max_evaluations = max_evaluations;
      if (estimate_only) {
        const WorkspaceEstimate e = estimateWorkspace(m, o);
        print({{"robot", m.name}, {"method", toString(o.method)}, {"voxel", o.voxel},
               {"estimate", {{"cells", e.cells}, {"voxels", e.voxels}, {"bytes", e.bytes}, {"evaluations", e.evaluations}, {"seconds", e.seconds},
                             {"cost", e.cost}}},
               {"caps", {{"max_bytes", o.max_bytes}, {"max_evaluations", o.max_evaluations}, {"max_seconds", e.cap_seconds}, {"max_cells", o.max_cells}}},
               {"within_caps", workspaceCapsProblem(e, o).empty()}});
        return;
      }
      ProgressLine line("achain workspace", show_progress);
      const StopOnSignal stop;
      const WorkspaceResult r = computeWorkspace(m, o, Progress([&line](double f) {
        line.report(f);
        return true;
      }, stop.flag()));
      line.finish();
      if (r.cancelled)
        throw Cancelled("workspace: cancelled after " + std::to_string(r.evaluations) + " evaluations in " +
                        shortNumber(r.seconds) + " s; no result (a partial grid is not the workspace)");
      json j = summary(m.name, r);
      if (!section.empty()) {
        const auto eq = section.find('=');
        const std::string ax = section.substr(0, eq);
        if (eq == std::string::npos || (ax != "x" && ax != "y" && ax != "z"))
          throw Error("--section: expected x=VALUE, y=VALUE or z=VALUE, got '" + section + "'");
        const double v = parseList(section.substr(eq + 1), "--section").at(0);
        const VoxelSection s = voxelSection(r.voxels, ax[0] - 'x', v);
        j["section"] = {{"axis", ax}, {"coordinate", s.coordinate}, {"voxels", s.count}, {"area", s.area()}};
      }
      if (!compare.empty()) {
        const Model m2 = loadRobot(compare);
        const WorkspaceResult r2 = computeWorkspace(m2, o, Progress(stop.flag()));  // Ctrl-C stops this one too
        if (r2.cancelled)
          throw Cancelled("workspace: --compare " + m2.name + ": cancelled after " + std::to_string(r2.evaluations) +
                          " evaluations; no result");
        const VoxelOverlap ov = voxelOverlap(r.voxels, r2.voxels);
        j["overlap"] = {{"robot", m2.name}, {"voxels", ov.b}, {"shared", ov.both}, {"only_this", ov.onlyA()},
                        {"only_other", ov.onlyB()}, {"jaccard", ov.jaccard()}, {"shared_volume", double(ov.both) * voxel * voxel * voxel}};
      }
      if (!out.empty()) {
        const auto dot = out.rfind('.');
        const std::string ext = dot == std::string::npos ? "" : out.substr(dot);
        if (ext == ".ply") writeVoxelPly(r.voxels, out, points);
        else if (ext == ".json") writeJson(out, j, r.voxels);
        else throw Error("--out: expected a .ply or .json file name, got '" + out + "'");
        j["out"] = out;
      }
      print(j);
    });
  });
});

RegisterCommand apair_range_cmd("apair-range", [](CLI::App& app) {
  auto* sub = app.add_subcommand("apair-range", "Usable A-pair range (leg-collision limits) for a leg radius");
  static double side = 0, radius = 0;
  static int curves = 0;
  sub->add_option("--side", side, "Triangle side a of the A-pair, metres (any unit works: only r/a matters)")->required();
  sub->add_option("--leg-radius", radius, "Leg radius r, same unit as --side")->required();
  sub->add_option("--curves", curves, "Also print the leg-pair distance curves at N+1 angles over 0..360 deg");
  sub->callback([] {
    run("apair-range", [] {
      const ApairRange R = apairUsableRange(side, radius);
      json out = {{"side", side},
                  {"leg_radius", radius},
                  {"r_over_a", radius / side},
                  {"lower", R.lower},
                  {"upper", R.upper},
                  {"range", R.range()},
                  {"lower_deg", R.lower / kDeg},
                  {"upper_deg", R.upper / kDeg},
                  {"range_deg", R.range() / kDeg},
                  {"lower_legs", {R.lower_legs[0] + 1, R.lower_legs[1] + 1}},
                  {"upper_legs", {R.upper_legs[0] + 1, R.upper_legs[1] + 1}}};
      if (curves < 0 || curves > 100000) throw Error("--curves: must be between 0 and 100000");
      if (curves > 0) {
        json th = json::array(), d12 = json::array(), d16 = json::array(), o12 = json::array(), o16 = json::array();
        for (int k = 0; k <= curves; ++k) {
          const LegPairSample s = legPairSample(side, 2 * kPi * k / curves);
          th.push_back(s.theta / kDeg);
          d12.push_back(s.d12);
          d16.push_back(s.d16);
          o12.push_back(s.omega12);
          o16.push_back(s.omega16);
        }
        out["curves"] = {{"theta_deg", th}, {"d12", d12}, {"d16", d16}, {"omega12", o12}, {"omega16", o16}};
      }
      print(out);
    });
  });
});

}  // namespace
}  // namespace achain::cli
