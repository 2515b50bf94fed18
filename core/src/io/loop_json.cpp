// The "loop" section of a robot file (io/loop_json.hpp; docs/robot-format.md#loops).
#include <achain/io/loop_json.hpp>

#include <achain/io/json_text.hpp>
#include <achain/math/text.hpp>

#include "json_fields.hpp"

namespace achain {

using nlohmann::json;
using namespace io_detail;

namespace {

// The optional "loop" section (docs/robot-format.md#loops): one loop-closure constraint of the chain's tool.
LoopClosure parseLoop(const json& L, const Model& m, const UnitFactors& u) {
  requireObject(L, "loop");
  checkKeys(L, "loop", {"closure", "ground", "coordinates", "assembly"});
  LoopClosure lc;
  if (!L.contains("closure")) fail("loop.closure", "missing required field (planar_pin, point or pose)");
  if (!L.at("closure").is_string()) fail("loop.closure", std::string("must be a string, got ") + typeName(L.at("closure")));
  const std::string kind = L.at("closure").get<std::string>();
  try {
    lc.kind = closureKindFromString(kind);
  } catch (const Error&) {
    fail("loop.closure", "unknown closure " + quoteInput(kind) + " (expected planar_pin, point or pose)");
  }
  if (!L.contains("ground")) fail("loop.ground", "missing required field (the world pose the tool is tied to)");
  lc.ground = transform(L.at("ground"), "loop.ground", u);
  if (!L.contains("coordinates")) fail("loop.coordinates", "missing required field (the joints kept as coordinates)");
  const json& C = L.at("coordinates");
  if (!C.is_array()) fail("loop.coordinates", std::string("must be an array of joint indices or names, got ") + typeName(C));
  for (size_t k = 0; k < C.size(); ++k) {
    const std::string p = idx("loop.coordinates", k);
    int joint = -1;
    if (C[k].is_string()) {
      for (int i = 0; i < m.njoints(); ++i)
        if (m.joints[i].name == C[k].get<std::string>()) joint = i;
      if (joint < 0) fail(p, "no joint is named " + quoteInput(C[k].get<std::string>()));
    } else {
      joint = exactInt(C[k], p, "a joint index or name");
      if (joint < 0 || joint >= m.njoints()) fail(p, "joint index " + std::to_string(joint) + " out of range (0…" + std::to_string(m.njoints() - 1) + ")");
    }
    const int coord = m.idx_q[joint];
    if (coord < 0 || m.coord_joint[coord] != joint) fail(p, "joint " + std::to_string(joint) + " has no coordinate of its own (fixed or mimic)");
    for (int a : lc.alpha)
      if (a == coord) fail(p, "joint " + std::to_string(joint) + " is listed twice");
    lc.alpha.push_back(coord);
  }
  if (L.contains("assembly")) {
    const json& Q = L.at("assembly");
    if (!Q.is_array() || static_cast<int>(Q.size()) != m.nq)
      fail("loop.assembly", "must be an array of " + std::to_string(m.nq) + " joint values (one per coordinate)");
    lc.assembly.resize(m.nq);
    for (int c = 0; c < m.nq; ++c) {
      const double f = isAngular(m.joints[m.coord_joint[c]].kind) ? u.angle : u.length;
      lc.assembly[c] = asNumber(Q[c], idx("loop.assembly", c)) * f;
    }
  }
  return lc;
}

}  // namespace

LoopClosure loopFromJson(const json& j, const Model& model) {
  requireObject(j, "(document)");
  if (!j.contains("loop")) fail("loop", "the robot file has no loop section");
  return parseLoop(j.at("loop"), model, unitFactors(j));
}

LoopClosure loopFromJsonString(const std::string& text, const Model& model) { return loopFromJson(parseJsonText(text), model); }

json loopToJson(const LoopClosure& loop, const Model& model) {
  json L;
  L["closure"] = toString(loop.kind);
  L["ground"] = transformToJson(loop.ground);
  json names = json::array();
  for (int c : loop.alpha) {
    if (c < 0 || c >= model.nq) throw Error("loop: coordinate index " + std::to_string(c) + " out of range for the model");
    const int joint = model.coord_joint[c];
    const std::string& name = model.joints[joint].name;
    int same = 0;  // a name the reader could not resolve to this joint is written as its index
    for (const Joint& j : model.joints) same += j.name == name;
    if (!name.empty() && same == 1) names.push_back(name);
    else names.push_back(joint);
  }
  L["coordinates"] = names;
  if (loop.assembly.size() == model.nq)
    L["assembly"] = std::vector<double>(loop.assembly.data(), loop.assembly.data() + loop.assembly.size());
  return L;
}

}  // namespace achain
