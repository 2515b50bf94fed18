// Embind surface of the workspace area (core/workspace, core/apair_collision).
// A Workspace is a job that runs in slices — start, step(budget) → progress, result — so a Web
// Worker can report progress and honour a cancel message between slices.
#include <limits>
#include <nlohmann/json.hpp>

#include <achain/model/apair_collision.hpp>
#include "wasm_common.hpp"
#include <achain/reach/workspace.hpp>

using namespace emscripten;

namespace achain::wasm {

struct WasmWorkspace {
  /// The model the job refers to. JS may dispose the model handle while a workspace lives (the worker releases
  /// them in any order), so the workspace keeps the model it was started with; the core job copies nothing.
  Model model;
  std::unique_ptr<WorkspaceJob> job;
  std::string robot;
  std::vector<float> floats;      // centres or mesh positions (copied out by JS at once)
  std::vector<uint32_t> indices;  // mesh indices
  std::vector<uint8_t> image;     // section image
};

namespace {

using nlohmann::json;

Vec3 vec3(const json& v, const std::string& what) {
  if (!v.is_array() || v.size() != 3) throw Error(what + ": must be an array of 3 numbers");
  Vec3 out;
  for (int i = 0; i < 3; ++i) {
    if (!v[i].is_number()) throw Error(what + "[" + std::to_string(i) + "]: must be a number");
    out[i] = v[i].get<double>();
  }
  return out;
}

double number(const json& v, const std::string& what) {
  if (!v.is_number()) throw Error(what + ": must be a number");
  return v.get<double>();
}

WorkspaceOptions parseOptions(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const std::exception&) {
    throw Error("options: malformed JSON");
  }
  if (!j.is_object()) throw Error("options: must be an object");
  WorkspaceOptions o;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const json& v = it.value();
    if (k == "voxel") o.voxel = number(v, k);
    else if (k == "method") o.method = workspaceMethodFromString(v.is_string() ? v.get<std::string>() : "?");
    else if (k == "step") o.step = number(v, k);
    else if (k == "stepLinear") o.step_linear = number(v, k);
    else if (k == "spacing") o.spacing = number(v, k);
    else if (k == "representative") o.representative = representativeFromString(v.is_string() ? v.get<std::string>() : "?");
    else if (k == "refine") o.refine = int(number(v, k));
    else if (k == "samples") o.samples = number(v, k);
    else if (k == "seed") o.seed = uint64_t(number(v, k));
    else if (k == "point") o.point = vec3(v, k);
    else if (k == "origin") o.origin = vec3(v, k);
    else if (k == "maxCells") o.max_cells = number(v, k);
    else if (k == "maxEvaluations") o.max_evaluations = number(v, k);
    else if (k == "maxBytes") o.max_bytes = number(v, k);
    else
      throw Error("options." + nameInput(k, 64) +
                  ": unknown option (allowed: voxel, method, step, stepLinear, spacing, representative, refine, samples, seed, point, origin, "
                  "maxCells, maxBytes, maxEvaluations)");
  }
  o.threads = 1;
  return o;
}

/// {cells, voxels, bytes, evaluations, seconds, cost, caps: {cells, bytes, evaluations, seconds}, withinCaps} of a job with these
/// options, before (and without) running it.
std::string workspaceEstimateJSON(WasmModel& h, const std::string& options) {
  return guard([&] {
    const WorkspaceOptions o = parseOptions(options);
    const WorkspaceEstimate e = estimateWorkspace(h.model, o);
    return json{{"cells", e.cells}, {"voxels", e.voxels}, {"bytes", e.bytes}, {"evaluations", e.evaluations}, {"seconds", e.seconds},
                {"cost", e.cost},
                {"caps", {{"cells", o.max_cells}, {"bytes", o.max_bytes}, {"evaluations", o.max_evaluations}, {"seconds", e.cap_seconds}}},
                {"withinCaps", workspaceCapsProblem(e, o).empty()}}
        .dump();
  });
}

WasmWorkspace* workspaceStart(WasmModel& h, const std::string& options) {
  return guard([&] {
    auto* w = new WasmWorkspace;
    try {
      w->model = h.model;
      w->job = std::make_unique<WorkspaceJob>(w->model, parseOptions(options));
    } catch (...) {
      delete w;
      throw;
    }
    w->robot = h.model.name;
    return w;
  });
}

double wsStep(WasmWorkspace& w, double budget) {
  return guard([&] {
    w.job->run(budget);
    return w.job->progress();
  });
}
bool wsDone(const WasmWorkspace& w) { return w.job->done(); }
void wsCancel(WasmWorkspace& w) { w.job->cancel(); }
double wsProgress(const WasmWorkspace& w) { return w.job->progress(); }
double wsEvaluations(const WasmWorkspace& w) { return w.job->evaluations(); }

std::string wsSummary(const WasmWorkspace& w) {
  return guard([&] {
    const WorkspaceResult& r = w.job->result();
    json out = {{"robot", w.robot},
                {"method", toString(r.options.method)},
                {"representative", toString(r.options.representative)},
                {"voxels", r.count()},
                {"volume", r.volume()},
                {"voxel", r.options.voxel},
                {"origin", {r.options.origin.x(), r.options.origin.y(), r.options.origin.z()}},
                {"seconds", r.seconds},
                {"evaluations", r.evaluations},
                {"done", w.job->done()},
                {"cancelled", r.cancelled}};
    Vec3 lo, hi;
    if (r.voxels.bounds(lo, hi)) out["bounds"] = {{"min", {lo.x(), lo.y(), lo.z()}}, {"max", {hi.x(), hi.y(), hi.z()}}};
    else out["bounds"] = nullptr;
    json sweeps = json::array();
    for (const auto& s : r.sweeps)
      sweeps.push_back({{"joint", s.joint}, {"lower", s.lower}, {"upper", s.upper}, {"steps", s.steps}, {"voxelsAfter", s.voxels}});
    out["sweeps"] = sweeps;
    return out.dump();
  });
}

val wsCentres(WasmWorkspace& w, bool surface_only) {
  return guard([&] {
    w.floats = voxelCentres(w.job->result().voxels, surface_only);
    return val(typed_memory_view(w.floats.size(), w.floats.data()));
  });
}

/// The centres (surface only or all) whose voxel `other` contains (shared) or does not.
val wsCentresAgainst(WasmWorkspace& w, const WasmWorkspace& other, bool surface_only, bool shared) {
  return guard([&] {
    w.floats = voxelCentres(w.job->result().voxels, surface_only, other.job->result().voxels, shared);
    return val(typed_memory_view(w.floats.size(), w.floats.data()));
  });
}

/// Lattice indices (i, j, k) of every voxel, as an Int32Array view (3 per voxel).
val wsLattice(WasmWorkspace& w) {
  return guard([&] {
    const VoxelSet& s = w.job->result().voxels;
    w.indices.clear();
    w.indices.reserve(3 * s.count());
    s.forEach([&](int64_t c) {
      const Vec3i g = s.lattice(c);
      for (int a = 0; a < 3; ++a) w.indices.push_back(uint32_t(g[a]));
    });
    return val(typed_memory_view(w.indices.size(), reinterpret_cast<const int32_t*>(w.indices.data())));
  });
}

val wsMesh(WasmWorkspace& w) {
  return guard([&] {
    VoxelMesh m = voxelSurfaceMesh(w.job->result().voxels);
    w.floats = std::move(m.positions);
    w.indices = std::move(m.indices);
    val out = val::object();
    out.set("positions", val(typed_memory_view(w.floats.size(), w.floats.data())));
    out.set("indices", val(typed_memory_view(w.indices.size(), w.indices.data())));
    return out;
  });
}

val wsSection(WasmWorkspace& w, int axis, double value) {
  return guard([&] {
    VoxelSection s = voxelSection(w.job->result().voxels, axis, value);
    w.image = std::move(s.occupied);
    val out = val::object();
    out.set("axis", s.axis);
    out.set("layer", s.layer);
    out.set("coordinate", s.coordinate);
    out.set("uAxis", s.u_axis);
    out.set("vAxis", s.v_axis);
    out.set("uLo", s.u_lo);
    out.set("vLo", s.v_lo);
    out.set("nu", s.nu);
    out.set("nv", s.nv);
    out.set("voxels", double(s.count));
    out.set("area", s.area());
    out.set("image", val(typed_memory_view(w.image.size(), w.image.data())));
    return out;
  });
}

std::string wsOverlap(const WasmWorkspace& a, const WasmWorkspace& b) {
  return guard([&] {
    const VoxelOverlap o = voxelOverlap(a.job->result().voxels, b.job->result().voxels);
    const double h = a.job->result().options.voxel;
    return json{{"a", o.a}, {"b", o.b}, {"shared", o.both}, {"onlyA", o.onlyA()}, {"onlyB", o.onlyB()},
                {"union", o.either}, {"jaccard", o.jaccard()}, {"sharedVolume", double(o.both) * h * h * h}}
        .dump();
  });
}

val wsSharedCentres(WasmWorkspace& a, const WasmWorkspace& b) {
  return guard([&] {
    a.floats = voxelCentres(voxelIntersection(a.job->result().voxels, b.job->result().voxels), false);
    return val(typed_memory_view(a.floats.size(), a.floats.data()));
  });
}

/// Smallest leg clearance of every joint at q = in[0, nq) (m; +∞ for joints that are not A-pairs).
uintptr_t legClearances(WasmModel& h) {
  return guard([&] {
    const VecX& q = h.readQ();
    const int n = h.model.njoints();
    double* o = h.output(std::max(n, 1));
    for (int i = 0; i < n; ++i) {
      const Joint& j = h.model.joints[i];
      o[i] = j.kind == JointKind::A && j.rho > 0 ? apairClearance(j, q[h.model.idx_q[i]]) : std::numeric_limits<double>::infinity();
    }
    return h.outAddress();
  });
}

std::string apairRangeJSON(double side, double radius) {
  return guard([&] {
    const ApairRange R = apairUsableRange(side, radius);
    return json{{"side", side}, {"legRadius", radius}, {"rOverA", radius / side}, {"lower", R.lower}, {"upper", R.upper},
                {"range", R.range()}, {"lowerLegs", {R.lower_legs[0] + 1, R.lower_legs[1] + 1}},
                {"upperLegs", {R.upper_legs[0] + 1, R.upper_legs[1] + 1}}}
        .dump();
  });
}

std::string apairLegCurvesJSON(double side, int n) {
  return guard([&] {
    if (!(side > 0)) throw Error("side: must be > 0");
    if (n < 1 || n > 100000) throw Error("samples: must be between 1 and 100000");
    json th = json::array(), d12 = json::array(), d16 = json::array(), o12 = json::array(), o16 = json::array();
    for (int k = 0; k <= n; ++k) {
      const LegPairSample s = legPairSample(side, 2 * kPi * k / n);
      th.push_back(s.theta);
      d12.push_back(s.d12);
      d16.push_back(s.d16);
      o12.push_back(s.omega12);
      o16.push_back(s.omega16);
    }
    return json{{"theta", th}, {"d12", d12}, {"d16", d16}, {"omega12", o12}, {"omega16", o16}}.dump();
  });
}

}  // namespace
}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_workspace) {
  using namespace achain::wasm;
  class_<WasmWorkspace>("Workspace")
      .function("step", &wsStep)
      .function("done", &wsDone)
      .function("cancel", &wsCancel)
      .function("progress", &wsProgress)
      .function("evaluations", &wsEvaluations)
      .function("summary", &wsSummary)
      .function("voxelCentres", &wsCentres)
      .function("voxelCentresAgainst", &wsCentresAgainst)
      .function("lattice", &wsLattice)
      .function("voxelSurfaceMesh", &wsMesh)
      .function("voxelSection", &wsSection)
      .function("voxelOverlap", &wsOverlap)
      .function("voxelIntersection", &wsSharedCentres);
  function("computeWorkspace", &workspaceStart, allow_raw_pointers());
  function("estimateWorkspace", &workspaceEstimateJSON);
  function("apairClearance", &legClearances);
  function("apairUsableRange", &apairRangeJSON);
  function("legPairSample", &apairLegCurvesJSON);
}
