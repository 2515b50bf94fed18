// Lumped joint flexibility (issue 13; flexibility/joint_flexibility.hpp, trajectory/flex_check.hpp):
// natural modes with the drive springs, the trajectory check of a planned move with and without ZV / ZVD input
// shaping, the shaper impulses and the plan bandwidth. JS: wasm/js/flexibility.mjs. Types:
// wasm/types/flexibility.d.ts. Docs: docs/flexible.md, docs/studio-vibration.md.
//
// Cold paths (a modal analysis, a simulated check): inputs in the model's input buffer, results as JSON text.
// The flexibility is read from in[offset…) as [stiffness (nv) | damping (nv) | motor inertia (nv)]; `given` bits
// 1, 2, 4 say which were passed, the others come from the robot file's drive blocks (model.info.drives).
#include <cmath>

#include <nlohmann/json.hpp>

#include <achain/io/drive_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/io/model_json.hpp>
#include <achain/trajectory/flex_check.hpp>
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {
namespace {

using nlohmann::json;

json vec(const VecX& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

/// nv values at in[offset…) ("options.stiffness[2]: must be a finite number").
VecX readCoords(const WasmModel& h, int offset, const char* what) { return h.readFinite(offset, h.model.nv, what); }

/// The flexibility: the passed fields (bits of `given`: 1 stiffness, 2 damping, 4 motor inertia) over the robot
/// file's drive blocks; checked by the core (checkJointFlexibility).
JointFlexibility flexibility(const WasmModel& h, int offset, int given, bool need_motor_inertia) {
  const int nv = h.model.nv;
  if (!h.drives && !(given & 1))
    throw Error("options.stiffness: required ('" + h.model.name +
                "' declares no joint drives, joints[i].drive; e.g. core/robots/variants/prototype-4a-drive.json does)");
  JointFlexibility f;
  if (h.drives) f = *h.drives;
  else f.damping = VecX::Zero(nv);
  if (given & 1) f.stiffness = readCoords(h, offset, "options.stiffness");
  if (given & 2) f.damping = readCoords(h, offset + nv, "options.damping");
  if (given & 4) f.motor_inertia = readCoords(h, offset + 2 * nv, "options.motorInertia");
  if (need_motor_inertia && !(given & 4) && !h.drives)
    throw Error("options.motorInertia: required with motor 'free' ('" + h.model.name + "' declares no joint drives)");
  checkJointFlexibility(h.model, f, need_motor_inertia);
  return f;
}

DynamicsOptions options(int legs) {
  DynamicsOptions o;
  o.legs = legModelFromCode(legs);
  return o;
}

/// in = [q (nq) | stiffness | damping | motor inertia] → {motor, omega, frequencyHz, shapes (one array per mode)}.
std::string modesJS(WasmModel& h, const std::string& motor, int legs, int given) {
  return guard([&] {
    const MotorSide side = motorSideFromString(motor);
    h.requireInput(h.model.nq + 3 * static_cast<size_t>(h.model.nv));
    const VecX q = h.readQ();
    const JointFlexibility f = flexibility(h, h.model.nq, given, side == MotorSide::Free);
    const NaturalModes m = jointFlexibilityModes(h.model, h.data, q, f, side, options(legs));
    json shapes = json::array();
    for (Eigen::Index k = 0; k < m.shapes.cols(); ++k) shapes.push_back(vec(m.shapes.col(k)));
    return json{{"motor", toString(side)}, {"omega", vec(m.omega)}, {"frequencyHz", vec(m.omega / (2 * kPi))},
                {"shapes", shapes}}
        .dump();
  });
}

/// in = [stiffness | damping | motor inertia]: throws the core's message naming the field and joint.
void checkJS(WasmModel& h, int given, bool need_motor_inertia) {
  guard([&] {
    h.requireInput(3 * static_cast<size_t>(h.model.nv));
    flexibility(h, 0, given, need_motor_inertia);
  });
}

json resultJson(const FlexCheckResult& r) {
  return {{"duration", r.duration},
          {"bandwidthHz", r.bandwidth_hz},
          {"bandwidthRatio", r.bandwidth_ratio},
          {"peakTipError", r.peak_tip_error},
          {"peakTipErrorTime", r.peak_tip_error_time},
          {"peakDeflection", r.peak_deflection},
          {"staticTipSag", r.static_tip_sag},
          {"residualTipVibration", r.residual_tip_vibration},
          {"residualDeflection", r.residual_deflection},
          {"settle", r.settle},
          {"dt", r.dt},
          {"steps", r.steps},
          {"trace", {{"t", r.trace_t}, {"tipError", r.trace_tip_error}, {"deflection", r.trace_deflection}}}};
}

json shaperJson(const InputShaper& s) {
  return {{"kind", toString(s.kind)}, {"omega", s.omega}, {"zeta", s.zeta}, {"amplitude", s.amplitude}, {"time", s.time}};
}

/// in = [plan (planSpecFromInput) | stiffness | damping | motor inertia]. shaper: none | zv | zvd | all; the
/// shaper's frequency (Hz) and damping ratio default (≤ 0, < 0) to the unshaped plan's first mode at the end of
/// the move, as `achain flex-check` does. Returns the unshaped plan's frequency map and the rows asked for.
std::string checkFlexibleTrajectoryJS(WasmModel& h, const std::string& shaper, double shaper_hz, double shaper_zeta,
                                      double dt, double settle, int samples, int trace_samples, int given) {
  return guard([&] {
    const Model& m = h.model;
    double rate = 0;
    int off = 0;
    const PlanSpec spec = planSpecFromInput(h, rate, off);
    h.requireInput(static_cast<size_t>(off) + 3 * m.nv);
    const JointFlexibility f = flexibility(h, off, given, false);
    const Plan plan = planJointPath(m, spec);
    std::vector<ShaperKind> kinds;
    if (shaper == "all") kinds = {ShaperKind::None, ShaperKind::ZV, ShaperKind::ZVD};
    else kinds = {shaperKindFromString(shaper)};
    FlexCheckOptions fo;
    fo.dt = dt;
    fo.settle = settle;
    fo.frequency_samples = samples;
    fo.trace_samples = trace_samples;
    const ShapedCheckSet set = checkShapedTrajectories(m, f, plan.path, spec.dynamics, fo, kinds, shaper_hz, shaper_zeta);
    const FlexCheckResult& base = set.unshaped;
    json results = json::array();
    for (const ShapedCheck& c : set.rows) {
      json row = resultJson(c.result);
      row["shaper"] = toString(c.shaper.kind);
      row["impulses"] = c.shaper.kind == ShaperKind::None ? json(nullptr) : json{{"amplitude", c.shaper.amplitude}, {"time", c.shaper.time}};
      row["residualReduction"] = c.residual_reduction;
      results.push_back(row);
    }
    return json{{"plan", {{"profile", plan.path->profile()}, {"duration", plan.path->duration()}}},
                {"stiffness", vec(f.stiffness)},
                {"damping", vec(f.damping)},
                {"firstFrequency", {{"t", base.frequency_t}, {"hz", base.first_hz}, {"min", base.first_hz_min},
                                    {"max", base.first_hz_max}, {"end", base.first_hz_end}}},
                {"firstDampingRatioEnd", base.first_damping_ratio_end},
                {"highestHz", base.highest_hz},
                {"shaperFrequencyHz", set.shaper_omega / (2 * kPi)},
                {"shaperDampingRatio", set.shaper_zeta},
                {"results", results}}
        .dump();
  });
}

/// in = plan (planSpecFromInput) → the plan's bandwidth, Hz.
double accelerationBandwidthJS(WasmModel& h, double rate, double energy_fraction) {
  return guard([&] {
    double sample_rate = 0;
    int off = 0;
    const Plan plan = planJointPath(h.model, planSpecFromInput(h, sample_rate, off));
    return accelerationBandwidth(*plan.path, rate, energy_fraction);
  });
}

std::string makeShaperJS(const std::string& kind, double omega, double zeta) {
  return guard([&] { return shaperJson(makeShaper(shaperKindFromString(kind), omega, zeta)).dump(); });
}

/// The drive blocks of a robot file's text in SI (the model is built from the same text to size them).
std::string jointFlexibilityFromJsonStringJS(const std::string& text) {
  return guard([&] {
    const json j = parseJsonText(text);
    const Model m = modelFromJson(j);
    return flexibilityJson(jointFlexibilityFromJson(j, m)).dump();
  });
}

}  // namespace

json flexibilityJson(const JointFlexibility& f) {
  json c = json::array(), J = json::array();
  for (Eigen::Index i = 0; i < f.stiffness.size(); ++i) {
    c.push_back(i < f.damping.size() ? f.damping[i] : 0.0);
    J.push_back(i < f.motor_inertia.size() && std::isfinite(f.motor_inertia[i]) ? json(f.motor_inertia[i]) : json(nullptr));
  }
  return {{"stiffness", vec(f.stiffness)}, {"damping", c}, {"motorInertia", J}};
}

}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_flexibility) {
  using namespace achain::wasm;
  function("jointFlexibilityModes", &modesJS);
  function("checkJointFlexibility", &checkJS);
  function("checkFlexibleTrajectory", &checkFlexibleTrajectoryJS);
  function("accelerationBandwidth", &accelerationBandwidthJS);
  function("makeShaper", &makeShaperJS);
  function("jointFlexibilityFromJsonString", &jointFlexibilityFromJsonStringJS);
}
