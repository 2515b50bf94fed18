// The parallel robot file (io/parallel_json.hpp, docs/robot-format.md#parallel-mechanisms).
#include <achain/io/parallel_json.hpp>

#include <achain/io/json_text.hpp>
#include <achain/io/robot.hpp>
#include <achain/io/model_json.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/io/xml_tree.hpp>
#include <achain/math/text.hpp>

#include <Eigen/Eigenvalues>
#include <cmath>

#include "json_fields.hpp"

namespace achain {

using nlohmann::json;
using namespace io_detail;

namespace {


// Leg r's robot description: the file's schema_version, units, gravity and convention, the template
// "parallel.leg", then the leg's own fields (which win), without "assembly".
json legDocument(const json& doc, const json& P, const json& leg, const std::string& path) {
  json d = json::object();
  d["schema_version"] = doc.at("schema_version");
  for (const char* k : {"units", "gravity", "convention"})
    if (doc.contains(k)) d[k] = doc.at(k);
  for (const char* k : {"schema_version", "units", "gravity"})
    if (leg.contains(k)) fail(path + "." + k, "given once for the whole file, at its top level");
  if (P.contains("leg")) {
    const json& t = requireObject(P.at("leg"), "parallel.leg");
    for (const char* k : {"schema_version", "units", "gravity"})
      if (t.contains(k)) fail(std::string("parallel.leg.") + k, "given once for the whole file, at its top level");
    for (auto it = t.begin(); it != t.end(); ++it) d[it.key()] = it.value();
  }
  for (auto it = leg.begin(); it != leg.end(); ++it) d[it.key()] = it.value();
  d.erase("assembly");
  return d;
}

// A joint of leg m given by index or name → its coordinate.
int legCoordinate(const Model& m, const json& v, const std::string& path) {
  int joint = -1;
  if (v.is_string()) {
    for (int i = 0; i < m.njoints(); ++i)
      if (m.joints[i].name == v.get<std::string>()) joint = i;
    if (joint < 0) fail(path, "no joint of this leg is named " + quoteInput(v.get<std::string>()));
  } else {
    joint = exactInt(v, path, "a joint index or name");
    if (joint < 0 || joint >= m.njoints())
      fail(path, "joint index " + std::to_string(joint) + " out of range (0…" + std::to_string(m.njoints() - 1) + ")");
  }
  const int coord = m.idx_q[joint];
  if (coord < 0 || m.coord_joint[coord] != joint) fail(path, "joint " + std::to_string(joint) + " has no coordinate of its own");
  return coord;
}

// A planar leg moves in the world xy-plane: no tool velocity along z, no rotation about x or y, for any joint.
void checkPlanarLeg(const Model& m, const VecX& q, const std::string& path) {
  Data d(m);
  forwardKinematics(m, d, q);
  Influence inf;
  toolInfluence(m, d, inf, 1);
  double reach = 1e-9;
  for (int c = 0; c < m.nv; ++c) reach = std::max(reach, inf.G.col(c).head<3>().norm());
  for (int c = 0; c < m.nv; ++c) {
    const double out = std::max(std::abs(inf.G(2, c)) / reach, inf.G.col(c).segment<2>(3).norm());
    if (out > 1e-9)
      fail(path + ".joints[" + std::to_string(m.coord_joint[c]) + "]",
           "moves the tool out of the world xy-plane; a planar mechanism's R joints turn about z and its P joints slide "
           "in the plane");
  }
}

}  // namespace

ParallelRobot parallelFromJson(const json& doc) {
  requireObject(doc, "(document)");
  checkKeys(doc, "", {"schema_version", "name", "description", "notes", "units", "gravity", "convention", "parallel"});
  if (!doc.contains("schema_version")) fail("schema_version", "missing required field (this library reads version 1)");
  if (!doc.contains("parallel")) fail("parallel", "missing required field (the legs, the platform and the actuated joints)");
  const UnitFactors u = unitFactors(doc);
  ParallelRobot robot;
  descriptionFields(doc, robot.name, robot.description, robot.notes);

  const json& P = requireObject(doc.at("parallel"), "parallel");
  checkKeys(P, "parallel", {"space", "platform", "leg", "legs", "actuated"});
  if (!P.contains("space")) fail("parallel.space", "missing required field (\"planar\" or \"spatial\")");
  const json& sp = P.at("space");
  if (!sp.is_string() || (sp != "planar" && sp != "spatial"))
    fail("parallel.space", "must be \"planar\" or \"spatial\"");
  robot.planar = sp == "planar";
  const int N = robot.freedoms();

  if (P.contains("platform")) {
    const json& pl = requireObject(P.at("platform"), "parallel.platform");
    checkKeys(pl, "parallel.platform", {"mass", "inertia", "pose"});
    if (pl.contains("mass")) {
      robot.platform_mass = asNumber(pl.at("mass"), "parallel.platform.mass") * u.mass;
      if (!(robot.platform_mass >= 0)) fail("parallel.platform.mass", "must be ≥ 0");
    }
    if (pl.contains("inertia")) {
      const json& I = pl.at("inertia");
      if (I.is_number()) {
        if (!robot.planar) fail("parallel.platform.inertia", "a spatial platform needs the 3×3 inertia or [Ixx, Iyy, Izz, Ixy, Iyz, Ixz]");
        robot.platform_inertia(2, 2) = asNumber(I, "parallel.platform.inertia");
      } else {
        robot.platform_inertia = inertia(I, "parallel.platform.inertia");
      }
      robot.platform_inertia *= u.mass * u.length * u.length;
      const Eigen::SelfAdjointEigenSolver<Mat3> es(robot.platform_inertia);
      if (!robot.platform_inertia.isApprox(robot.platform_inertia.transpose()) ||
          es.eigenvalues().minCoeff() < -1e-12 * (1 + es.eigenvalues().cwiseAbs().maxCoeff()))
        fail("parallel.platform.inertia", "must be symmetric positive semi-definite");
    }
    if (pl.contains("pose")) robot.pose = transform(pl.at("pose"), "parallel.platform.pose", u);
  }
  if (robot.planar && (std::abs(robot.pose.R(2, 2) - 1) > 1e-12))
    fail("parallel.platform.pose", "a planar platform turns about z only (rpy [0, 0, θ])");

  if (!P.contains("legs")) fail("parallel.legs", "missing required field (one robot description per leg)");
  const json& legs = P.at("legs");
  if (!legs.is_array() || legs.empty()) fail("parallel.legs", "must be a non-empty array of leg descriptions");
  for (size_t r = 0; r < legs.size(); ++r) {
    const std::string path = idx("parallel.legs", r);
    const json& leg = requireObject(legs[r], path);
    const json leg_doc = legDocument(doc, P, leg, path);
    Model m;
    try {
      m = modelFromJson(leg_doc);
    } catch (const Error& e) {
      throw Error(path + "." + e.what());
    }
    if (m.nv != N)
      fail(path + ".joints", std::string("a ") + (robot.planar ? "planar" : "spatial") + " platform has " +
                                 std::to_string(N) + " freedoms, so every leg needs " + std::to_string(N) +
                                 " joint coordinates (this leg has " + std::to_string(m.nv) + ")");
    VecX a = VecX::Zero(m.nq);
    const json* A = leg.contains("assembly") ? &leg.at("assembly")
                    : (P.contains("leg") && P.at("leg").contains("assembly") ? &P.at("leg").at("assembly") : nullptr);
    if (A) {
      if (!A->is_array() || static_cast<int>(A->size()) != m.nq)
        fail(path + ".assembly", "must be an array of " + std::to_string(m.nq) + " joint values (one per coordinate)");
      for (int c = 0; c < m.nq; ++c)
        a[c] = asNumber((*A)[c], idx(path + ".assembly", c)) * (isAngular(m.joints[m.coord_joint[c]].kind) ? u.angle : u.length);
    }
    if (robot.planar) checkPlanarLeg(m, a, path);
    robot.leg_names.push_back(m.name);
    robot.assembly.push_back(a);
    robot.legs.push_back(std::move(m));
  }

  if (!P.contains("actuated")) fail("parallel.actuated", "missing required field ([leg, joint] per actuator)");
  const json& act = P.at("actuated");
  if (!act.is_array() || static_cast<int>(act.size()) != N)
    fail("parallel.actuated", std::string("a ") + (robot.planar ? "planar" : "spatial") + " platform needs " +
                                  std::to_string(N) + " actuated joints, [leg, joint] each (got " +
                                  (act.is_array() ? std::to_string(act.size()) : std::string(typeName(act))) + ")");
  for (size_t n = 0; n < act.size(); ++n) {
    const std::string path = idx("parallel.actuated", n);
    if (!act[n].is_array() || act[n].size() != 2) fail(path, "must be [leg index, joint index or name]");
    const int r = exactInt(act[n][0], idx(path, 0), "a leg index");
    if (r < 0 || r >= static_cast<int>(robot.legs.size()))
      fail(idx(path, 0), "leg " + std::to_string(r) + " out of range (0…" + std::to_string(robot.legs.size() - 1) + ")");
    const int c = legCoordinate(robot.legs[r], act[n][1], idx(path, 1));
    for (const auto& prev : robot.actuated)
      if (prev.first == r && prev.second == c) fail(path, "this joint is actuated twice");
    robot.actuated.emplace_back(r, c);
  }
  return robot;
}

ParallelRobot parallelFromJsonString(const std::string& text) { return parallelFromJson(parseJsonText(text)); }

bool isParallelRobot(const json& j) { return j.is_object() && j.contains("parallel"); }

}  // namespace achain
