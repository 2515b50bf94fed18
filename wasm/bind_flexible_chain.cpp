// Flexible links in a chain (issue 13, Tesar & Graves 1988; flexibility/flexible_chain.hpp): the robot file's
// flexible blocks (joints[i].flexible) as model.info.flexibleLinks, and the chain's deflected kinematics, I*, K*,
// coupled modes, static deflection, the drawn centreline of a link, dynamics and the time response to a tool load.
// JS: wasm/js/flexible_chain.mjs. Types: wasm/types/flexible_chain.d.ts. Docs: docs/flexible.md, docs/flexible-wasm.md.
//
// Cold paths: inputs in the model's input buffer, results as JSON text. Every entry takes base_mass (kg; 0: the
// base is fixed, > 0: it translates freely and φ gains 3 base coordinates). The model keeps one FlexibleChain and
// its FlexibleChainData (WasmModel::flex_state), built on first use and rebuilt when base_mass changes.
#include <cmath>

#include <nlohmann/json.hpp>

#include <achain/flexibility/flexible_chain.hpp>
#include <achain/io/flexible_json.hpp>
#include <achain/io/model_json.hpp>
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {

/// The flexible chain of one model handle and its scratch (WasmModel::flex_state).
struct FlexState {
  double base_mass;
  FlexibleChain chain;
  FlexibleChainData data;
  FlexState(double m, FlexibleChain c) : base_mass(m), chain(std::move(c)), data(chain) {}
};
void destroy(FlexState* p) { delete p; }

namespace {

using nlohmann::json;

json vec(const VecX& v) { return std::vector<double>(v.data(), v.data() + v.size()); }
json vec(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
json rows(const MatX& A) {
  json r = json::array();
  for (Eigen::Index i = 0; i < A.rows(); ++i) r.push_back(vec(VecX(A.row(i).transpose())));
  return r;
}
/// A 3×n matrix as one flat array x0, y0, z0, x1, … (a three.js position buffer).
json flat(const MatX& P) { return std::vector<double>(P.data(), P.data() + P.size()); }


/// The model's chain for this base mass (built from the file's flexible links on first use).
FlexState& state(WasmModel& h, double base_mass) {
  if (!h.flexible_links || h.flexible_links->links.empty())
    throw Error("flexible chain: '" + h.model.name +
                "' declares no flexible link (joints[i].flexible in its robot file; the built-in space-arm does)");
  if (!(base_mass >= 0) || !std::isfinite(base_mass))
    throw Error("options.baseMass: must be positive (a translating base, kg) or 0 (fixed)");
  FlexState* s = h.flex_state.get();
  if (!s || s->base_mass != base_mass) {
    FlexibleChainOptions o;
    o.translating_base = base_mass != 0;
    o.base_mass = base_mass;
    h.flex_state.reset(s = new FlexState(base_mass, makeFlexibleChain(h.model, h.flexible_links->links, o)));
  }
  return *s;
}

json deflectionJson(const FlexibleChain& c, const FlexibleDeflection& f) {
  return {{"toolDisplacement", vec(f.tool_displacement)},
          {"toolPositionError", f.tool_position_error},
          {"toolRotationError", f.tool_rotation_error},
          {"maxLinkRotation", f.max_link_rotation},
          {"maxLinkRotationDeg", f.max_link_rotation / kDeg},
          {"maxRotationJoint", f.max_rotation_joint},
          {"maxRotationJointName", f.max_rotation_joint >= 0 ? json(c.model().joints[f.max_rotation_joint].name) : json(nullptr)},
          {"above3deg", f.above_3deg},
          {"above5deg", f.above_5deg}};
}

/// The chain's sizes and coordinate names.
std::string flexibleChainJS(WasmModel& h, double base_mass) {
  return guard([&] {
    const FlexibleChain& c = state(h, base_mass).chain;
    return json{{"nv", c.nv}, {"nf", c.nf}, {"nb", c.nb}, {"dof", c.dof}, {"baseMass", c.base_mass},
                {"coordinates", flexibleCoordinateNames(c)}}
        .dump();
  });
}

/// in = q (nv) → coupled modes, joints locked (flexibleChainModes), and each link's clamped modes.
std::string modesJS(WasmModel& h, double base_mass) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    const FlexibleChain& c = s.chain;
    const NaturalModes r = flexibleChainModes(c, s.data, h.readFinite(0, c.nv, "q"));
    json shapes = json::array(), clamped = json::array();
    for (Eigen::Index k = 0; k < r.shapes.cols(); ++k) shapes.push_back(vec(VecX(r.shapes.col(k))));
    for (size_t k = 0; k < c.links.size(); ++k)
      clamped.push_back({{"joint", c.joint[k]}, {"name", c.model().joints[c.joint[k]].name},
                         {"frequencyHz", vec(VecX(clampedLinkModes(c.matrices[k]).omega / (2 * kPi)))}});
    return json{{"omega", vec(r.omega)}, {"frequencyHz", vec(VecX(r.omega / (2 * kPi)))}, {"shapes", shapes},
                {"coordinates", flexibleCoordinateNames(c)}, {"clampedLinks", clamped}}
        .dump();
  });
}

/// in = φ (dof) → flexibleDeflection.
std::string deflectionJS(WasmModel& h, double base_mass) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    return deflectionJson(s.chain, flexibleDeflection(s.chain, s.data, h.readFinite(0, s.chain.dof, "phi"))).dump();
  });
}

/// in = φ (dof) → the deflected frames (flexibleKinematics; poses row-major 4×4), the link tips and tip rotations,
/// and the deflection against the rigid chain.
std::string kinematicsJS(WasmModel& h, double base_mass) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    const FlexibleChain& c = s.chain;
    FlexibleChainData& d = s.data;
    const VecX phi = h.readFinite(0, c.dof, "phi");
    const FlexibleDeflection f = flexibleDeflection(c, d, phi);  // leaves d at φ
    json links = json::array(), axes = json::array(), tips = json::array();
    for (size_t i = 0; i < d.oMi.size(); ++i) {
      links.push_back(poseJson(d.oMi[i]));
      axes.push_back(poseJson(d.oMj[i]));
    }
    for (size_t k = 0; k < c.joint.size(); ++k) {
      const int j = c.joint[k];
      tips.push_back({{"joint", j}, {"tip", vec(d.tip[j])}, {"theta", vec(d.theta[j])}});
    }
    return json{{"base", poseJson(d.base)}, {"links", links}, {"axes", axes}, {"tool", poseJson(d.oMtool)},
                {"tips", tips}, {"deflection", deflectionJson(c, f)}}
        .dump();
  });
}

/// in = φ (dof) → I*(φ) (rows).
std::string massMatrixJS(WasmModel& h, double base_mass) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    flexibleMassMatrix(s.chain, s.data, h.readFinite(0, s.chain.dof, "phi"));
    return rows(s.data.I).dump();
  });
}

std::string stiffnessJS(WasmModel& h, double base_mass) {
  return guard([&] { return rows(flexibleStiffness(state(h, base_mass).chain)).dump(); });
}

/// in = φ (dof) → the world Jacobians of every link frame origin and of the tool (6×dof rows each).
std::string jacobiansJS(WasmModel& h, double base_mass) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    flexibleJacobians(s.chain, s.data, h.readFinite(0, s.chain.dof, "phi"));
    json links = json::array();
    for (const MatX& J : s.data.J) links.push_back(rows(J));
    return json{{"links", links}, {"tool", rows(s.data.J_tool)}}.dump();
  });
}

/// in = φ (dof) → the system's centre of mass and its 3×dof Jacobian.
std::string centerOfMassJS(WasmModel& h, double base_mass) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    MatX J;
    const Vec3 p = flexibleCenterOfMass(s.chain, s.data, h.readFinite(0, s.chain.dof, "phi"), &J);
    return json{{"com", vec(p)}, {"jacobian", rows(J)}}.dump();
  });
}

/// in = q (nv) | force (3) | moment (3) → flexibleStaticDeflection.
std::string staticDeflectionJS(WasmModel& h) {
  return guard([&] {
    FlexState& s = state(h, 0);
    const int nv = s.chain.nv;
    const VecX q = h.readFinite(0, nv, "q"), F = h.readFinite(nv, 3, "force"), M = h.readFinite(nv + 3, 3, "moment");
    const FlexibleStaticResult r = flexibleStaticDeflection(s.chain, s.data, q, Vec3(F), Vec3(M));
    return json{{"phi", vec(r.phi)}, {"modal", vec(r.modal)}, {"coordinates", flexibleCoordinateNames(s.chain)},
                {"deflection", deflectionJson(s.chain, r.deflection)}}
        .dump();
  });
}

/// in = φ (dof) → the centreline of joint's flexible link (flexibleLinkCurve), points flat x, y, z.
std::string linkCurveJS(WasmModel& h, double base_mass, int joint, int samples) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    const FlexibleLinkCurve k = flexibleLinkCurve(s.chain, s.data, h.readFinite(0, s.chain.dof, "phi"), joint, samples);
    return json{{"joint", joint}, {"u", k.u}, {"deflected", flat(k.deflected)}, {"rigid", flat(k.rigid)}}.dump();
  });
}

/// in = φ | φ̇ | third (dof each; φ̈ for "inverse", τ for "forward") → τ or φ̈; "bias" → c(φ, φ̇); "energy" → the
/// energy; "stable" (φ only) → flexibleStableStep. One body for the dynamics entries: they differ only in the call.
std::string dynamicsJS(WasmModel& h, double base_mass, const std::string& what, bool lock_joints) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    const FlexibleChain& c = s.chain;
    const int n = c.dof;
    const VecX phi = h.readFinite(0, n, "phi");
    if (what == "stable") return json(flexibleStableStep(c, s.data, phi, lock_joints)).dump();
    const VecX rate = h.readFinite(n, n, "phidot");
    if (what == "energy") return json(flexibleEnergy(c, s.data, phi, rate)).dump();
    VecX out(n);
    if (what == "bias") {
      flexibleBiasForces(c, s.data, phi, rate, out);
    } else if (what == "inverse") {
      flexibleInverseDynamics(c, s.data, phi, rate, h.readFinite(2 * n, n, "phiddot"), out);
    } else if (what == "forward") {
      flexibleForwardDynamics(c, s.data, phi, rate, h.readFinite(2 * n, n, "tau"), out, lock_joints);
    } else {
      throw Error("flexible dynamics: unknown entry '" + what + "'");
    }
    return vec(out).dump();
  });
}

/// in = φ | φ̇ | τ (dof each) → one RK4 step {phi, phidot} (flexibleStep).
std::string stepJS(WasmModel& h, double base_mass, double dt, bool lock_joints) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    const int n = s.chain.dof;
    VecX phi = h.readFinite(0, n, "phi"), rate = h.readFinite(n, n, "phidot");
    flexibleStep(s.chain, s.data, phi, rate, h.readFinite(2 * n, n, "tau"), dt, lock_joints);
    return json{{"phi", vec(phi)}, {"phidot", vec(rate)}}.dump();
  });
}

/// in = q (nv) | force (3) | moment (3) → flexibleSimulate (SI); onProgress(fraction) returning false stops it (Cancelled).
std::string simulateJS(WasmModel& h, double base_mass, const std::string& load, double frequency, double start,
                       double stop, double duration, double dt, int samples, bool lock_joints, const val& onProgress) {
  return guard([&] {
    FlexState& s = state(h, base_mass);
    const FlexibleChain& c = s.chain;
    const int nv = c.nv;
    const VecX q = h.readFinite(0, nv, "q"), F = h.readFinite(nv, 3, "force"), M = h.readFinite(nv + 3, 3, "moment");
    const FlexibleSimulationOptions o{flexibleLoadKindFromString(load), frequency, start, stop, duration, dt, samples, lock_joints};
    const FlexibleSimulation r = flexibleSimulate(c, s.data, q, Vec3(F), Vec3(M), o, jsProgress(onProgress));
    return json{{"dt", r.dt}, {"steps", r.steps}, {"t", r.t}, {"coordinates", flexibleCoordinateNames(c, false)},
                {"modal", rows(r.modal)}, {"toolDisplacement", rows(r.tool_displacement)},
                {"baseTranslation", c.nb ? rows(r.base_translation) : json(nullptr)},
                {"peakToolDeflection", r.peak_tool_deflection}, {"peakLinkRotation", r.peak_link_rotation},
                {"peakLinkRotationDeg", r.peak_link_rotation / kDeg},
                {"above3deg", r.peak_link_rotation > 3 * kDeg}, {"above5deg", r.peak_link_rotation > 5 * kDeg}}
        .dump();
  });
}

/// The flexible links of a robot file's text in SI (the model built from the same text to size them).
std::string flexibleLinksFromJsonStringJS(const std::string& text) {
  return guard([&] {
    const FlexibleLinks f = flexibleLinksFromJsonString(text, modelFromJsonString(text));
    json links = json::array();
    for (const FlexibleLinkEntry& e : f.links) {
      json modes = json::array();
      for (const AssumedMode& m : e.link.modes) modes.push_back(toString(m.direction));
      links.push_back({{"joint", e.joint}, {"length", e.link.length}, {"mass", e.link.body.mass}, {"eiY", e.link.ei_y},
                       {"eiZ", e.link.ei_z}, {"gj", e.link.gj}, {"torsionalInertia", e.link.torsional_inertia},
                       {"modes", modes}, {"coordinateUnit", e.coordinate_unit}});
    }
    return links.dump();
  });
}

}  // namespace

json flexibleLinksInfo(WasmModel& h) {
  if (!h.flexible_links || h.flexible_links->links.empty()) return nullptr;
  const FlexibleChain& c = state(h, 0).chain;
  json links = json::array();
  for (size_t k = 0; k < c.links.size(); ++k) {
    const FlexibleLink& L = c.links[k];
    json modes = json::array();
    for (const AssumedMode& m : L.modes) modes.push_back(toString(m.direction));
    links.push_back({{"joint", c.joint[k]}, {"name", c.model().joints[c.joint[k]].name}, {"length", L.length},
                     {"modes", modes}, {"count", L.modes.size()}, {"offset", c.offset[k]},
                     {"clampedFrequencyHz", vec(VecX(clampedLinkModes(c.matrices[k]).omega / (2 * kPi)))}});
  }
  return links;
}

}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_flexible_chain) {
  using namespace achain::wasm;
  function("makeFlexibleChain", &flexibleChainJS);
  function("flexibleChainModes", &modesJS);
  function("flexibleDeflection", &deflectionJS);
  function("flexibleKinematics", &kinematicsJS);
  function("flexibleMassMatrix", &massMatrixJS);
  function("flexibleStiffness", &stiffnessJS);
  function("flexibleJacobians", &jacobiansJS);
  function("flexibleCenterOfMass", &centerOfMassJS);
  function("flexibleStaticDeflection", &staticDeflectionJS);
  function("flexibleLinkCurve", &linkCurveJS);
  function("flexibleBiasForces", +[](WasmModel& h, double m) { return dynamicsJS(h, m, "bias", false); });
  function("flexibleInverseDynamics", +[](WasmModel& h, double m) { return dynamicsJS(h, m, "inverse", false); });
  function("flexibleForwardDynamics", +[](WasmModel& h, double m, bool lock) { return dynamicsJS(h, m, "forward", lock); });
  function("flexibleEnergy", +[](WasmModel& h, double m) { return dynamicsJS(h, m, "energy", false); });
  function("flexibleStableStep", +[](WasmModel& h, double m, bool lock) { return dynamicsJS(h, m, "stable", lock); });
  function("flexibleStep", &stepJS);
  function("flexibleSimulate", &simulateJS);
  function("flexibleLinksFromJsonString", &flexibleLinksFromJsonStringJS);
}
