// Embind surface for models and forward kinematics (mirrors core/model, core/io, core/fk, core/apair).
#include <cmath>

#include <nlohmann/json.hpp>

#include <achain/dynamics/batch.hpp>
#include <achain/model/apair.hpp>
#include <achain/model/dh_extract.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/drive_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/io/loop_json.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/mjcf.hpp>
#include <achain/io/urdf.hpp>
#include <achain/io/robot.hpp>
#include <achain/model/r_twin.hpp>
#include <achain/reach/reach_bound.hpp>
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {

int& liveModelCount() {
  static int count = 0;  // the module's one counter of live model handles (LiveModelSlot, wasm_common.hpp)
  return count;
}

namespace {

WasmModel* loadModelJSON(const std::string& text) {
  return guard([&] { return new WasmModel(robotFromJsonString(text)); });
}
/// The element tree built by the page's XML parser, from its JSON (xml_tree.hpp).
XmlElement urdfElements(const std::string& tree_json) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(tree_json);
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(std::string("(tree): malformed JSON: ") + e.what());
  }
  return xmlTreeFromJson(j);
}
/// URDF: the element tree built by the page's XML parser, as JSON, mapped by the core.
WasmModel* loadUrdf(const std::string& tree_json, const std::string& tool_link, bool balance_inertia, bool keep_fixed) {
  return guard([&] {
    UrdfOptions o;
    o.tool_link = tool_link;
    o.balance_inertia = balance_inertia;
    o.keep_fixed = keep_fixed;
    return new WasmModel(modelFromUrdf(urdfElements(tree_json), o));
  });
}
/// A link/joint tree (urdfTree, modelTree) as JSON; limits that are absent (±inf) are null.
std::string treeJSON(const UrdfTree& t) {
  auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json links = nlohmann::json::array();
  for (const UrdfTreeLink& l : t.links) {
    nlohmann::json joint = nullptr;
    if (l.parent >= 0) {
      const UrdfTreeJoint& j = l.joint;
      joint = {{"name", j.name}, {"type", j.type}, {"angular", j.angular},
               {"limits", {{"lower", finite(j.limits.lower)}, {"upper", finite(j.limits.upper)},
                           {"velocity", finite(j.limits.velocity)}, {"effort", finite(j.limits.effort)}}},
               {"mimic", j.mimic.empty() ? nlohmann::json(nullptr)
                                         : nlohmann::json{{"joint", j.mimic}, {"multiplier", j.mimic_multiplier}, {"offset", j.mimic_offset}}}};
    }
    links.push_back({{"name", l.name}, {"parent", l.parent}, {"depth", l.depth}, {"joint", joint}});
  }
  return nlohmann::json{{"name", t.name}, {"root", t.root}, {"links", links}, {"leaves", t.leaves},
                        {"toolLink", t.tool_link}, {"notes", t.notes}}.dump();
}
std::string urdfTreeJSON(const std::string& tree_json) {
  return guard([&] { return treeJSON(urdfTree(urdfElements(tree_json))); });
}
std::string modelTreeJS(const WasmModel& h) {
  return guard([&] { return treeJSON(modelTree(h.model)); });
}
WasmModel* loadBuiltin(const std::string& name) {
  return guard([&] {
    if (!findBuiltinRobot(name)) builtinModel(name);  // throws the standard "unknown built-in" message
    return new WasmModel(readRobot(name));
  });
}

std::string builtinRobotsJSON() {
  return guard([] {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : builtinRobots()) {
      const Model m = builtinModel(r.name);
      list.push_back({{"name", m.name}, {"dof", m.nq}, {"description", m.description}});
    }
    return list.dump();
  });
}

std::string builtinRobotFile(const std::string& name) {
  return guard([&] {
    if (const BuiltinRobot* b = findBuiltinRobot(name)) return b->json;
    builtinModel(name);  // throws the standard "unknown built-in" message
    return std::string();
  });
}

/// The model as URDF: {"urdf": text, "warnings": [what URDF cannot carry]}.
std::string toUrdf(const WasmModel& h) {
  return guard([&] {
    std::vector<std::string> warnings;
    const std::string text = modelToUrdf(h.model, &warnings);
    return nlohmann::json{{"urdf", text}, {"warnings", warnings}}.dump();
  });
}

/// The model as MuJoCo MJCF: {"mjcf": text, "warnings": [what MJCF cannot carry, the A-pair fit errors]}.
std::string toMjcf(const WasmModel& h) {
  return guard([&] {
    std::vector<std::string> warnings;
    const std::string text = modelToMjcf(h.model, &warnings);
    return nlohmann::json{{"mjcf", text}, {"warnings", warnings}}.dump();
  });
}

/// The robot description in SI, with the loop section when the model was loaded with one (so an edit or a
/// saved file keeps the closure).
std::string toJSON(const WasmModel& h) {
  return guard([&] {
    nlohmann::json j = modelToJson(h.model);
    if (h.loop) j["loop"] = loopToJson(*h.loop, h.model);
    if (h.defaults) j["defaults"] = robotDefaultsToJson(*h.defaults, h.model);
    return j.dump();
  });
}

/// The loop-closure constraint for the UI (null without one): closure kind, the kept coordinates α, the
/// ground pose (row-major 4×4), the closure's space N and constraint count R, and the assembly
/// configuration (SI; empty when the file gives none).
nlohmann::json loopInfo(const WasmModel& h) {
  if (!h.loop) return nullptr;
  const LoopClosure& L = *h.loop;
  return {{"closure", toString(L.kind)}, {"coordinates", L.alpha}, {"ground", poseJson(L.ground)},
          {"space", closureSpaceSize(L.kind)}, {"constraints", closureConstraintCount(L.kind)},
          {"assembly", std::vector<double>(L.assembly.data(), L.assembly.data() + L.assembly.size())}};
}

/// The robot file's defaults for the UI in SI, camelCase (null without a "defaults" section):
/// {move: {name, from, to} | null, workspaceVoxel | null, workspaceReference: {voxels, source, note} | null,
/// driveVariant | null}.
nlohmann::json defaultsInfo(const WasmModel& h) {
  if (!h.defaults) return nullptr;
  const RobotDefaults& d = *h.defaults;
  nlohmann::json out = nlohmann::json::object();
  out["move"] = d.move ? nlohmann::json{{"name", d.move->name},
                                        {"from", std::vector<double>(d.move->from.data(), d.move->from.data() + d.move->from.size())},
                                        {"to", std::vector<double>(d.move->to.data(), d.move->to.data() + d.move->to.size())}}
                       : nlohmann::json(nullptr);
  out["workspaceVoxel"] = d.workspace_voxel ? nlohmann::json(*d.workspace_voxel) : nlohmann::json(nullptr);
  out["workspaceReference"] = d.workspace_reference
                                  ? nlohmann::json{{"voxels", d.workspace_reference->voxels},
                                                   {"source", d.workspace_reference->source},
                                                   {"note", d.workspace_reference->note}}
                                  : nlohmann::json(nullptr);
  out["driveVariant"] = d.drive_variant.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.drive_variant);
  return out;
}

/// Joint table in SI for the UI: kinds, A-pair sizes, limits, placement, mimic; the geometry to draw.
std::string info(WasmModel& h) {
  return guard([&] {
    const Model& m = h.model;
    auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    nlohmann::json joints = nlohmann::json::array();
    for (std::size_t i = 0; i < m.joints.size(); ++i) {
      const Joint& j = m.joints[i];
      const JointModel& jm = m.jmodels[i];
      joints.push_back({{"name", j.name}, {"kind", toString(j.kind)}, {"parent", j.parent}, {"a", j.a},
                        {"angular", jm.angular()}, {"revolute", jm.revolute()}, {"period", jm.period}, {"coordinate", m.idx_q[i]},
                        {"alpha", j.alpha}, {"d", j.d}, {"thetaF", j.theta_f}, {"sign", j.sign}, {"pitch", j.pitch},
                        {"rho", j.rho}, {"side", apairSideFromRho(j.rho)}, {"legLength", apairLegFromRho(j.rho)},
                        {"legMass", j.leg_mass}, {"legRadius", j.leg_radius},
                        {"lower", finite(j.limits.lower)}, {"upper", finite(j.limits.upper)},
                        {"velocity", finite(j.limits.velocity)}, {"acceleration", finite(j.limits.acceleration)},
                        {"effort", finite(j.limits.effort)}, {"mass", j.link.mass},
                        {"hasOrigin", j.has_origin}, {"origin", poseJson(j.origin)},
                        {"axis", {j.axis.x(), j.axis.y(), j.axis.z()}}, {"mimic", j.mimic},
                        {"mimicMultiplier", j.mimic_multiplier}, {"mimicOffset", j.mimic_offset}});
    }
    nlohmann::json geometry = nlohmann::json::array();
    for (const Geometry& g : m.geometry)
      geometry.push_back({{"link", g.link}, {"collision", g.collision}, {"name", g.name}, {"origin", poseJson(g.origin)},
                          {"shape", toString(g.shape)}, {"size", {g.size.x(), g.size.y(), g.size.z()}}, {"mesh", g.mesh},
                          {"scale", {g.scale.x(), g.scale.y(), g.scale.z()}},
                          {"rgba", g.has_color ? nlohmann::json{g.rgba[0], g.rgba[1], g.rgba[2], g.rgba[3]} : nlohmann::json(nullptr)}});
    return nlohmann::json{{"name", m.name}, {"description", m.description}, {"notes", m.notes},
                          {"convention", toString(m.convention)}, {"dof", m.nq}, {"joints", joints},
                          {"coordJoint", m.coord_joint}, {"toolCoordinates", m.toolCoordinates()},
                          {"geometry", geometry}, {"toolLink", m.toolLink()}, {"hasDh", m.has_dh},
                          {"dh", dhStatus(m)}, {"hasApair", hasApair(m)}, {"defaults", defaultsInfo(h)}, {"loop", loopInfo(h)}, {"drives", h.drives ? flexibilityJson(*h.drives) : nlohmann::json(nullptr)},
                          {"flexibleLinks", flexibleLinksInfo(h)}}
        .dump();
  });
}

/// Writes T as a row-major 4×4 block at b.
void putPose(double* b, const SE3& T) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) b[4 * r + c] = T.R(r, c);
    b[4 * r + 3] = T.p[r];
  }
  b[12] = b[13] = b[14] = 0;
  b[15] = 1;
}

/// FK of q = in[0, nq): writes [tool | base | link 1 … link n] as row-major 4×4 blocks.
uintptr_t fk(WasmModel& h) {
  return guard([&] {
    forwardKinematics(h.model, h.data, h.readQ());
    const int n = h.model.njoints();
    double* o = h.output(16 * (n + 2));
    putPose(o, h.data.oMtool);
    putPose(o + 16, h.model.base);
    for (int i = 0; i < n; ++i) putPose(o + 16 * (2 + i), h.data.oMi[i]);
    return h.outAddress();
  });
}

/// FK of q = in[0, nq), tool pose only: 16 numbers (row-major 4×4).
uintptr_t fkTool(WasmModel& h) {
  return guard([&] {
    forwardKinematics(h.model, h.data, h.readQ());
    putPose(h.output(16), h.data.oMtool);
    return h.outAddress();
  });
}

/// Batch FK inside one call (no per-sample JS or Embind cost): in = count samples of q (nq each);
/// out = count tool poses (16 numbers each, row-major 4×4).
uintptr_t fkSeries(WasmModel& h, int count) {
  return guard([&] {
    if (count < 0) throw Error("count: must be ≥ 0");
    const int nq = h.model.nq;
    h.requireInput(static_cast<size_t>(nq) * count);
    for (int k = 0; k < count; ++k) h.readQ(nq * k);  // checks every sample ("q[2]: must be a finite number")
    // The core's batch FK (dynamics/batch.hpp) writes count SE3s behind the count 4×4 poses; pose k is then
    // written before SE3 k's storage, so the expansion never overwrites what it still reads.
    const size_t poses = 16 * static_cast<size_t>(count);
    double* o = h.output(poses + 12 * static_cast<size_t>(count) + 16);
    SE3* tool = reinterpret_cast<SE3*>(o + poses);
    fkToolSeries(h.model, h.data, count, h.in.data(), tool);
    for (int k = 0; k < count; ++k) {
      const SE3 T = tool[k];
      putPose(o + 16 * static_cast<size_t>(k), T);
    }
    return h.outAddress();
  });
}

/// Leg endpoints of every A-pair for q = in[0, nq): per A-pair, B1…B6 then P1…P6 (xyz),
/// 36 numbers per A-pair, in joint order.
uintptr_t legs(WasmModel& h) {
  return guard([&] {
    const VecX& q = h.readQ();
    forwardKinematics(h.model, h.data, q);
    int na = 0;
    for (const auto& j : h.model.joints) na += j.kind == JointKind::A;
    double* o = h.output(36 * std::max(na, 1));
    for (int i = 0; i < h.model.njoints(); ++i) {
      if (h.model.joints[i].kind != JointKind::A) continue;
      std::array<Vec3, 6> b, p;
      apairLegEndpoints(h.model, h.data, i, q[h.model.idx_q[i]], b, p);
      for (const auto& x : b) { *o++ = x.x(); *o++ = x.y(); *o++ = x.z(); }
      for (const auto& x : p) { *o++ = x.x(); *o++ = x.y(); *o++ = x.z(); }
    }
    return h.outAddress();
  });
}

bool withinLimitsJS(WasmModel& h) {
  return guard([&] { return withinLimits(h.model, h.readQ()); });
}

uintptr_t reserveInput(WasmModel& h, int n) { return h.reserveInput(n); }

/// The same arm in the other DH convention ("standard" | "modified"): a new model.
WasmModel* convertConventionJS(const WasmModel& h, const std::string& target) {
  return guard([&] {
    DHConvention c;
    if (target == "standard") c = DHConvention::Standard;
    else if (target == "modified") c = DHConvention::Modified;
    else throw Error("convention: expected \"standard\" or \"modified\", got '" + target + "'");
    return new WasmModel(convertConvention(h.model, c));
  });
}

/// The R-pair twin (model/r_twin.hpp): every A-pair made an R-pair; a new model.
WasmModel* rPairTwinJS(const WasmModel& h) {
  return guard([&] { return new WasmModel(rPairTwin(h.model)); });
}

/// The reach bound (reach/reach_bound.hpp) as {radius, tool, links} in m (radius null when unbounded).
std::string reachBoundJS(const WasmModel& h) {
  return guard([&] {
    const ReachBound b = reachBound(h.model);
    auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    nlohmann::json links = nlohmann::json::array();
    for (double r : b.links) links.push_back(finite(r));
    return nlohmann::json{{"radius", finite(b.radius)}, {"tool", finite(b.tool)}, {"links", links}}.dump();
  });
}

int dof(const WasmModel& h) { return h.model.nq; }
std::string name(const WasmModel& h) { return h.model.name; }
std::string version() { return "0.1.0"; }

}  // namespace

/// A pose as 16 numbers, row-major 4×4.
nlohmann::json poseJson(const SE3& T) {
  nlohmann::json a = nlohmann::json::array();
  const Mat4 M = T.matrix();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) a.push_back(M(r, c));
  return a;
}

}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_model) {
  using namespace achain::wasm;
  class_<WasmModel>("Model")
      .function("dof", &dof)
      .function("name", &name)
      .function("modelToJson", &toJSON)
      .function("modelToUrdf", &toUrdf)
      .function("modelToMjcf", &toMjcf)
      .function("info", &info)
      .function("reserveInput", &reserveInput)
      .function("forwardKinematics", &fk)
      .function("fkTool", &fkTool)
      .function("fkToolSeries", &fkSeries)
      .function("apairLegEndpoints", &legs)
      .function("withinLimits", &withinLimitsJS)
      .function("convertConvention", &convertConventionJS, allow_raw_pointers())
      .function("rPairTwin", &rPairTwinJS, allow_raw_pointers())
      .function("reachBound", &reachBoundJS)
      .function("modelTree", &modelTreeJS);
  function("modelFromJsonString", &loadModelJSON, allow_raw_pointers());
  function("builtinModel", &loadBuiltin, allow_raw_pointers());
  function("modelFromUrdf", &loadUrdf, allow_raw_pointers());
  function("urdfTree", &urdfTreeJSON);
  function("builtinRobots", &builtinRobotsJSON);
  function("builtinRobotFile", &builtinRobotFile);
  function("version", &version);
}
