// URDF → Model. The element tree comes from pugixml natively or from the page's XML parser in wasm.
#include <achain/io/urdf.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/math/decimal.hpp>
#include <achain/math/text.hpp>
#include <achain/model/labels.hpp>

#include <Eigen/Eigenvalues>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "xml_write.hpp"

namespace achain {

namespace {

/// "<joint name="x"> (line N)" for messages.
std::string desc(const XmlElement& e) {
  std::string s = "<" + nameInput(e.name, 64);
  if (const std::string* n = e.attribute("name")) s += " name=" + quoteInput(*n, 64);
  s += ">";
  if (e.line > 0) s += " (line " + std::to_string(e.line) + ")";
  return s;
}

[[noreturn]] void fail(const XmlElement& e, const std::string& msg) { throw Error("URDF " + desc(e) + ": " + msg); }

std::string numberText(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

/// Whitespace-separated finite numbers of an attribute; `count` of them (or any count when count < 0).
std::vector<double> numbers(const XmlElement& e, const std::string& key, const std::string& text, int count) {
  std::vector<double> out;
  std::istringstream ss(text);
  std::string tok;
  while (ss >> tok) {
    double v = 0;  // decimal only: strtod alone read 0x10 as 16
    if (const std::string why = decimalProblem(tok, false, v); !why.empty())
      fail(e, "attribute " + key + "=" + quoteInput(text) + ": " + why);
    out.push_back(v);
  }
  if (count >= 0 && int(out.size()) != count)
    fail(e, "attribute " + key + "=" + quoteInput(text) + ": expected " + std::to_string(count) + " number" +
                (count == 1 ? "" : "s") + ", got " + std::to_string(out.size()));
  return out;
}

double number(const XmlElement& e, const std::string& key, double def) {
  const std::string* v = e.attribute(key);
  return v ? numbers(e, key, *v, 1)[0] : def;
}
double requiredNumber(const XmlElement& e, const std::string& key) {
  if (!e.attribute(key)) fail(e, "missing attribute " + key);
  return number(e, key, 0);
}
Vec3 vec3(const XmlElement& e, const std::string& key, const Vec3& def) {
  const std::string* v = e.attribute(key);
  if (!v) return def;
  const std::vector<double> x = numbers(e, key, *v, 3);
  return Vec3(x[0], x[1], x[2]);
}

/// <origin xyz rpy> of an element (identity when absent); a second <origin> is an error.
SE3 originOf(const XmlElement& parent) {
  const XmlElement* o = nullptr;
  for (const XmlElement& c : parent.children)
    if (c.name == "origin") {
      if (o) fail(c, "a second <origin> in " + desc(parent));
      o = &c;
    }
  SE3 T;
  if (!o) return T;
  T.p = vec3(*o, "xyz", Vec3::Zero());
  const Vec3 r = vec3(*o, "rpy", Vec3::Zero());
  T.R = rpyToMatrix(r.x(), r.y(), r.z());
  return T;
}

const XmlElement* single(const XmlElement& parent, const std::string& name) {
  const XmlElement* found = nullptr;
  for (const XmlElement& c : parent.children)
    if (c.name == name) {
      if (found) fail(c, "a second <" + name + "> in " + desc(parent));
      found = &c;
    }
  return found;
}

std::string requiredName(const XmlElement& e) {
  const std::string* n = e.attribute("name");
  if (!n || n->empty()) fail(e, "missing attribute name");
  return *n;
}

struct LinkInfo {
  const XmlElement* el = nullptr;
  Inertial inertial;
  bool has_inertial = false;
  int parent_joint = -1;  ///< index into the document's joints whose child this link is
};

struct Reader {
  const UrdfOptions& opt;
  Model m;
  std::set<std::string> achain_prefixes;  ///< prefixes bound to kAchainUrdfNamespace
  std::map<std::string, Vec4> materials;  ///< robot-level named colours
  std::vector<const XmlElement*> joint_el;  ///< each model joint's <joint> element

  void warn(const XmlElement& e, const std::string& msg) { m.notes.push_back("URDF warning: " + desc(e) + ": " + msg); }

  /// The prefix of an extension element ("achain" of "achain:apair"), or "" when it is not one of ours.
  bool isAchain(const XmlElement& e, const std::string& local) const {
    const auto colon = e.name.find(':');
    if (colon == std::string::npos) return false;
    return e.name.substr(colon + 1) == local && achain_prefixes.count(e.name.substr(0, colon));
  }
  bool isAchainAny(const XmlElement& e) const {
    const auto colon = e.name.find(':');
    return colon != std::string::npos && achain_prefixes.count(e.name.substr(0, colon));
  }

  void collectNamespaces(const XmlElement& e) {
    for (const auto& kv : e.attributes)
      if (kv.first.rfind("xmlns:", 0) == 0 && kv.second == kAchainUrdfNamespace) achain_prefixes.insert(kv.first.substr(6));
  }

  bool colorOf(const XmlElement& mat, Vec4& rgba, bool top_level) {
    bool has = false;
    for (const XmlElement& c : mat.children) {
      if (c.name == "color") {
        const std::string* v = c.attribute("rgba");
        if (!v) fail(c, "missing attribute rgba");
        const std::vector<double> x = numbers(c, "rgba", *v, 4);
        for (int k = 0; k < 4; ++k) {
          if (!(x[k] >= 0 && x[k] <= 1)) fail(c, "attribute rgba: each component must be in [0, 1]");
          rgba[k] = x[k];
        }
        has = true;
      } else if (c.name == "texture") {
        warn(c, "textures are not kept (the shape is drawn in its colour or the default)");
      } else {
        warn(c, "unknown element in <material>, ignored");
      }
    }
    if (!has && !top_level) {
      const std::string* n = mat.attribute("name");
      if (n && materials.count(*n)) {
        rgba = materials.at(*n);
        return true;
      }
      if (n && !n->empty()) warn(mat, "material " + quoteInput(*n) + " has no colour here and none is defined at <robot> level; default colour used");
    }
    return has;
  }

  Inertial inertialOf(const XmlElement& in, const std::string& link) {
    Inertial I;
    const SE3 o = originOf(in);
    const XmlElement* mass = single(in, "mass");
    const XmlElement* inertia = single(in, "inertia");
    for (const XmlElement& c : in.children)
      if (c.name != "origin" && c.name != "mass" && c.name != "inertia") warn(c, "unknown element in <inertial>, ignored");
    if (!mass) fail(in, "missing <mass> (link " + quoteInput(link) + ")");
    I.mass = requiredNumber(*mass, "value");
    if (I.mass < 0) fail(*mass, "link " + quoteInput(link) + ": mass must be ≥ 0 (got " + numberText(I.mass) + ")");
    Mat3 J = Mat3::Zero();
    if (!inertia) {
      warn(in, "no <inertia> (link " + quoteInput(link) + "): taken as a point mass");
    } else {
      const double ixx = requiredNumber(*inertia, "ixx"), iyy = requiredNumber(*inertia, "iyy"), izz = requiredNumber(*inertia, "izz");
      const double ixy = number(*inertia, "ixy", 0), ixz = number(*inertia, "ixz", 0), iyz = number(*inertia, "iyz", 0);
      J << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
      Eigen::SelfAdjointEigenSolver<Mat3> es(J);
      const Vec3 ev = es.eigenvalues();  // ascending
      const double scale = std::max(1e-300, J.cwiseAbs().maxCoeff());
      if (ev[0] < -1e-12 * scale)
        fail(*inertia, "link " + quoteInput(link) + ": inertia must be positive semi-definite (smallest principal moment " +
                           numberText(ev[0]) + ")");
      if (ev[0] + ev[1] < ev[2] * (1 - 1e-9)) {
        if (opt.balance_inertia) {
          const double mean = ev.sum() / 3;
          J = mean * Mat3::Identity();
          warn(*inertia, "link " + quoteInput(link) + ": principal moments (" + numberText(ev[0]) + ", " + numberText(ev[1]) + ", " + numberText(ev[2]) +
                             ") break the triangle inequality; replaced by their mean " + numberText(mean) + " (balance inertia)");
        } else {
          warn(*inertia, "link " + quoteInput(link) + ": principal moments (" + numberText(ev[0]) + ", " + numberText(ev[1]) + ", " + numberText(ev[2]) +
                             ") break the triangle inequality A + B ≥ C (not a physical body); kept as given (the balance-inertia option replaces them by their mean)");
        }
      }
    }
    I.com = o.p;
    I.inertia = o.R * J * o.R.transpose();
    I.inertia = 0.5 * (I.inertia + I.inertia.transpose());  // exact symmetry after the rotation
    return I;
  }

  /// A moving joint's <limit>: position limits (none for continuous, nor when lower and upper are both
  /// absent), velocity and effort (0: none), in SI.
  void limitsOf(const XmlElement& c, const std::string& type, JointLimits& L) {
    const bool cont = type == "continuous";
    if (cont && (c.attribute("lower") || c.attribute("upper")))
      warn(c, "a continuous joint has no position limits; lower/upper ignored");
    if (!cont && !c.attribute("lower") && !c.attribute("upper")) {
      // URDF's default is lower = upper = 0, a locked joint; files that give only effort/velocity (urdf-loaders'
      // TriATHLETE) mean no position limit, and a range [0, 0] is one MuJoCo refuses.
      warn(c, "no lower or upper: read as no position limit (URDF's default 0, 0 would lock the joint)");
    } else if (!cont) {
      L.lower = number(c, "lower", 0);  // URDF: default 0
      L.upper = number(c, "upper", 0);
      if (L.lower > L.upper) fail(c, "lower (" + numberText(L.lower) + ") exceeds upper (" + numberText(L.upper) + ")");
    }
    for (const char* key : {"velocity", "effort"}) {
      const double v = number(c, key, 0);
      if (v < 0) fail(c, std::string("attribute ") + key + " must be ≥ 0 (got " + numberText(v) + ")");
      // 0 is how achain's own export writes "none" (URDF requires both attributes): said only of other files
      if (v == 0 && c.attribute(key) && achain_prefixes.empty()) warn(c, std::string(key) + "=\"0\" read as no " + key + " limit");
      if (v > 0) (std::string(key) == "velocity" ? L.velocity : L.effort) = v;
    }
  }

  void geometryOf(const XmlElement& v, int link, bool collision) {
    Geometry G;
    G.link = link;
    G.collision = collision;
    if (const std::string* n = v.attribute("name")) G.name = *n;
    G.origin = originOf(v);
    const XmlElement* geom = single(v, "geometry");
    if (!geom) fail(v, "missing <geometry>");
    const XmlElement* shape = nullptr;
    for (const XmlElement& c : geom->children) {
      if (shape) fail(c, "<geometry> holds more than one shape");
      shape = &c;
    }
    if (!shape) fail(*geom, "empty <geometry> (expected box, cylinder, sphere or mesh)");
    const XmlElement& s = *shape;
    if (s.name == "box") {
      G.shape = Geometry::Shape::Box;
      G.size = vec3(s, "size", Vec3(-1, -1, -1));
      if (!s.attribute("size")) fail(s, "missing attribute size");
    } else if (s.name == "cylinder") {
      G.shape = Geometry::Shape::Cylinder;
      G.size = Vec3(requiredNumber(s, "radius"), requiredNumber(s, "length"), 0);
    } else if (s.name == "sphere") {
      G.shape = Geometry::Shape::Sphere;
      G.size = Vec3(requiredNumber(s, "radius"), 0, 0);
    } else if (s.name == "mesh") {
      G.shape = Geometry::Shape::Mesh;
      const std::string* f = s.attribute("filename");
      if (!f || f->empty()) fail(s, "missing attribute filename");
      G.mesh = *f;
      G.scale = vec3(s, "scale", Vec3::Ones());
    } else {
      warn(s, std::string("unsupported shape; this ") + (collision ? "collision" : "visual") + " is not kept");
      return;
    }
    if ((G.size.array() < 0).any()) fail(s, "sizes must be ≥ 0");
    for (const XmlElement& c : v.children) {
      if (c.name == "material" && !collision) G.has_color = colorOf(c, G.rgba, false);
      else if (c.name != "origin" && c.name != "geometry")
        warn(c, std::string("unknown element in <") + v.name + ">, ignored");
    }
    m.geometry.push_back(G);
  }
};

/// Mass properties b (in its own frame) moved by T into a's frame and added to a.
void addInertial(Inertial& a, const Inertial& b, const SE3& T) {
  const double m = a.mass + b.mass;
  if (!(m > 0)) return;
  const Vec3 cb = T.act(b.com);
  const Vec3 c = (a.mass * a.com + b.mass * cb) / m;
  auto shift = [](double mass, const Vec3& r) { return mass * (r.squaredNorm() * Mat3::Identity() - r * r.transpose()); };
  a.inertia = a.inertia + shift(a.mass, a.com - c) + T.R * b.inertia * T.R.transpose() + shift(b.mass, cb - c);
  a.inertia = 0.5 * (a.inertia + a.inertia.transpose());
  a.com = c;
  a.mass = m;
}

/// Merges every fixed joint's link into its parent link (as MuJoCo's fusestatic): its inertial is added to the
/// parent's, its geometry and child joints move to the parent with their origins composed, and a tool on it
/// becomes the parent's tool transform. Joints are placed by origin/axis here (θ_f = d = 0).
void fuseFixedJoints(Reader& r) {
  Model& m = r.m;
  const int n = m.njoints();
  std::vector<int> survivor(n), index(n, -1);
  std::vector<SE3> to(n);  // link i's frame in its survivor's frame
  std::vector<Joint> kept;
  int fused = 0;
  for (int i = 0; i < n; ++i) {
    Joint j = m.joints[i];
    const int p = j.parent;
    const int sp = p < 0 ? -1 : survivor[p];
    const SE3 Tp = p < 0 ? SE3::Identity() : to[p];
    if (j.kind == JointKind::Fixed) {
      survivor[i] = sp;
      to[i] = Tp * j.origin;
      if (sp >= 0) addInertial(kept[sp].link, j.link, to[i]);
      else if (j.link.mass > 0)
        r.warn(*r.joint_el[i], "the mass of its child link, fixed to the base by this joint, is not used (the base is fixed)");
      ++fused;
      continue;
    }
    j.origin = Tp * j.origin;
    j.parent = sp;
    survivor[i] = index[i] = int(kept.size());
    to[i] = SE3::Identity();
    kept.push_back(j);
  }
  if (fused == 0 || kept.empty()) return;  // nothing to do, or nothing would move (finalize says so)
  for (Joint& j : kept)
    if (j.mimic >= 0) j.mimic = index[j.mimic];  // a mimic never follows a fixed joint
  for (Geometry& g : m.geometry)
    if (g.link >= 0) {
      g.origin = to[g.link] * g.origin;
      g.link = survivor[g.link];
    }
  const int t = m.toolLink();
  m.tool = to[t] * m.tool;
  m.tool_link = survivor[t];
  if (m.tool_link < 0)
    throw Error("tool link: the tool's link is fixed to the base; choose a moving link (or keep fixed joints)");
  m.joints = kept;
  m.notes.push_back("URDF: " + std::to_string(fused) + " fixed joint" + (fused == 1 ? "" : "s") +
                    " merged into their parent links (inertials added, geometry and tool moved); keep them with the keep-fixed option");
}

/// A <mimic>: the leading joint's name (required), with its multiplier (default 1) and offset (default 0).
std::string mimicOf(const XmlElement& c, double& multiplier, double& offset) {
  const std::string* t = c.attribute("joint");
  if (!t || t->empty()) fail(c, "missing attribute joint");
  multiplier = number(c, "multiplier", 1);
  offset = number(c, "offset", 0);
  return *t;
}

/// The document's named elements and its link/joint tree, as both the model reader and urdfTree see it.
struct Doc {
  std::vector<const XmlElement*> links, joints;
  std::map<std::string, int> link_index, joint_index;
  std::string tool_from_file;  ///< <achain:tool link="…"/>, or empty
  const XmlElement* tool_el = nullptr;
  std::vector<int> joint_parent, joint_child;  ///< each joint's parent and child link
  std::vector<int> child_of;                   ///< the joint whose child each link is (−1: the root)
  int root = -1;
  std::vector<int> order;        ///< joints depth-first from the root, in document order
  std::vector<int> model_index;  ///< each joint's place in `order`

  /// Links without child joints (the root excepted), in document order.
  std::vector<int> leaves() const {
    std::vector<int> out;
    std::vector<char> has_child(links.size(), 0);
    for (size_t k = 0; k < joints.size(); ++k) has_child[joint_parent[k]] = 1;
    for (size_t l = 0; l < links.size(); ++l)
      if (!has_child[l] && child_of[l] >= 0) out.push_back(int(l));
    return out;
  }
};

/// Pass 1 (links, joints, robot-level materials, achain:gravity and achain:tool; the model's name) and the
/// tree: one root, every joint reachable, joints ordered depth-first. Errors name the element and line.
Doc readDoc(const XmlElement& robot, Reader& r) {
  if (robot.name != "robot") fail(robot, "the root element must be <robot>");
  Model& m = r.m;
  Doc d;
  r.collectNamespaces(robot);
  if (const std::string* n = robot.attribute("name")) m.name = *n;
  if (m.name.empty()) r.warn(robot, "no name attribute; the model is named 'urdf'");
  if (m.name.empty()) m.name = "urdf";
  m.description = "Imported from URDF";

  // ---- pass 1: named elements ----
  auto& links = d.links;
  auto& joints = d.joints;
  auto& link_index = d.link_index;
  auto& joint_index = d.joint_index;
  for (const XmlElement& c : robot.children) {
    if (c.name == "link") {
      const std::string n = requiredName(c);
      if (!link_index.emplace(n, int(links.size())).second)
        fail(c, "duplicate link name " + quoteInput(n) + " (first at " + desc(*links[link_index.at(n)]) + ")");
      links.push_back(&c);
    } else if (c.name == "joint") {
      const std::string n = requiredName(c);
      if (!joint_index.emplace(n, int(joints.size())).second)
        fail(c, "duplicate joint name " + quoteInput(n) + " (first at " + desc(*joints[joint_index.at(n)]) + ")");
      joints.push_back(&c);
    } else if (c.name == "material") {
      Vec4 rgba(0.7, 0.7, 0.7, 1);
      const std::string n = requiredName(c);
      if (r.colorOf(c, rgba, true)) r.materials[n] = rgba;
    } else if (r.isAchain(c, "gravity")) {  // achain extension: the gravity vector (URDF has none)
      if (!c.attribute("xyz")) fail(c, "missing attribute xyz");
      m.gravity = vec3(c, "xyz", m.gravity);
    } else if (r.isAchain(c, "tool")) {  // achain extension: the tool's link when no option names one
      const std::string* l = c.attribute("link");
      if (!l || l->empty()) fail(c, "missing attribute link");
      d.tool_from_file = *l;
      d.tool_el = &c;
    } else if (c.name == "transmission" || c.name == "gazebo") {
      r.warn(c, "not used by achain (actuation and simulator settings); ignored");
    } else {
      r.warn(c, "unknown element, ignored");
    }
  }
  if (links.empty()) fail(robot, "no <link>");
  if (joints.empty()) fail(robot, "no <joint>: a model needs at least one joint");

  // ---- the tree: parent/child by link name ----
  auto& joint_parent = d.joint_parent;
  auto& joint_child = d.joint_child;
  auto& child_of = d.child_of;
  joint_parent.assign(joints.size(), -1);
  joint_child.assign(joints.size(), -1);
  child_of.assign(links.size(), -1);  // joint whose child each link is
  for (size_t k = 0; k < joints.size(); ++k) {
    const XmlElement& J = *joints[k];
    for (const char* which : {"parent", "child"}) {
      const XmlElement* e = single(J, which);
      if (!e) fail(J, std::string("missing <") + which + ">");
      const std::string* l = e->attribute("link");
      if (!l) fail(*e, "missing attribute link");
      auto it = link_index.find(*l);
      if (it == link_index.end()) fail(*e, std::string(which) + " link " + quoteInput(*l) + " is not defined (no <link name=" + quoteInput(*l) + ">)");
      (std::string(which) == "parent" ? joint_parent : joint_child)[k] = it->second;
    }
    if (joint_parent[k] == joint_child[k]) fail(J, "parent and child are the same link");
    int& c = child_of[joint_child[k]];
    if (c >= 0) fail(J, "link " + quoteInput(requiredName(*links[joint_child[k]])) + " is already the child of " + desc(*joints[c]) + " (a link has one parent joint)");
    c = int(k);
  }
  std::vector<int> roots;
  for (size_t l = 0; l < links.size(); ++l)
    if (child_of[l] < 0) roots.push_back(int(l));
  if (roots.empty()) fail(*joints[0], "the joints form a cycle (every link is some joint's child; no root link)");
  if (roots.size() > 1) {
    // A root without joints is an unconnected link; several roots are several robots.
    std::string names;
    for (int l : roots) names += (names.empty() ? "" : ", ") + quoteInput(requiredName(*links[l]));
    fail(*links[roots[1]], "more than one root link (" + names + "): the links do not form one tree");
  }
  // Depth-first order from the root, joints in document order (a serial chain stays parent = i−1).
  d.root = roots[0];
  auto& order = d.order;
  auto& model_index = d.model_index;
  model_index.assign(joints.size(), -1);
  {
    std::vector<int> stack;
    auto push_children = [&](int link) {
      for (int k = int(joints.size()) - 1; k >= 0; --k)
        if (joint_parent[k] == link) stack.push_back(k);
    };
    push_children(roots[0]);
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      model_index[k] = int(order.size());
      order.push_back(k);
      push_children(joint_child[k]);
    }
  }
  for (size_t k = 0; k < joints.size(); ++k)
    if (model_index[k] < 0) fail(*joints[k], "not reachable from the root link: the joints form a cycle");
  return d;
}

}  // namespace

Model modelFromUrdf(const XmlElement& robot, const UrdfOptions& opt) {
  Reader r{opt, Model{}, {}, {}, {}};
  Model& m = r.m;
  const Doc d = readDoc(robot, r);
  const auto& links = d.links;
  const auto& joints = d.joints;
  const auto& link_index = d.link_index;
  const auto& joint_index = d.joint_index;
  const auto& joint_parent = d.joint_parent;
  const auto& joint_child = d.joint_child;
  const auto& child_of = d.child_of;
  const auto& order = d.order;
  const auto& model_index = d.model_index;

  // ---- links: inertials (the root link's is not carried by any joint) ----
  std::vector<LinkInfo> info(links.size());
  for (size_t l = 0; l < links.size(); ++l) {
    const XmlElement& L = *links[l];
    const std::string name = requiredName(L);
    info[l].el = &L;
    if (const XmlElement* in = single(L, "inertial")) {
      info[l].inertial = r.inertialOf(*in, name);
      info[l].has_inertial = true;
    }
  }

  // ---- joints, in model order ----
  std::vector<std::string> mimic_of(order.size());
  std::vector<const XmlElement*> mimic_el(order.size(), nullptr);
  for (size_t i = 0; i < order.size(); ++i) {
    const XmlElement& J = *joints[order[i]];
    Joint j;
    j.name = requiredName(J);
    const std::string* type = J.attribute("type");
    if (!type) fail(J, "missing attribute type");
    const int pj = child_of[joint_parent[order[i]]];
    j.parent = pj < 0 ? -1 : model_index[pj];
    j.has_origin = true;
    j.origin = originOf(J);
    bool moving = true;
    if (*type == "revolute" || *type == "continuous") j.kind = JointKind::R;
    else if (*type == "prismatic") j.kind = JointKind::P;
    else if (*type == "fixed") { j.kind = JointKind::Fixed; moving = false; }
    else if (*type == "floating" || *type == "planar") {
      r.warn(J, "joint type " + quoteInput(*type) + " cannot be represented (achain chains have a fixed base and 1-DOF joints); treated as fixed at its origin");
      j.kind = JointKind::Fixed;
      moving = false;
    } else {
      fail(J, "unknown joint type " + quoteInput(*type) + " (expected revolute, continuous, prismatic, fixed, floating or planar)");
    }
    if (moving) {
      Vec3 ax(1, 0, 0);  // URDF's default axis
      if (const XmlElement* a = single(J, "axis")) {
        ax = vec3(*a, "xyz", Vec3(1, 0, 0));
        if (!(ax.norm() > 1e-12)) fail(*a, "attribute xyz: the axis must not be the zero vector");
      }
      j.axis = std::abs(ax.norm() - 1) > 1e-12 ? Vec3(ax / ax.norm()) : ax;
    }
    for (const XmlElement& c : J.children) {
      if (c.name == "origin" || c.name == "parent" || c.name == "child") continue;
      if (c.name == "axis") {
        if (!moving) r.warn(c, "a " + *type + " joint has no axis; ignored");
      } else if (c.name == "limit") {
        if (!moving) { r.warn(c, "a " + *type + " joint has no limits; ignored"); continue; }
        r.limitsOf(c, *type, j.limits);
      } else if (c.name == "mimic") {
        if (!moving) { r.warn(c, "a " + *type + " joint cannot mimic; ignored"); continue; }
        mimic_of[i] = mimicOf(c, j.mimic_multiplier, j.mimic_offset);
        mimic_el[i] = &c;
      } else if (c.name == "dynamics") {
        if (!moving) { r.warn(c, "a " + *type + " joint has no dynamics; ignored"); continue; }
        const double damping = number(c, "damping", 0), friction = number(c, "friction", 0);
        if (damping < 0 || friction < 0) fail(c, "damping and friction must be ≥ 0");
        if (damping > 0 || friction > 0) {  // joint-side friction: a motor with gear ratio 1 and no rotor
          j.motor.present = true;
          j.motor.viscous = damping;
          j.motor.coulomb_pos = j.motor.coulomb_neg = friction;
        }
      } else if (r.isAchain(c, "apair")) {
        if (*type != "revolute" && *type != "continuous") fail(c, "an A-pair extends a revolute or continuous joint (this one is " + *type + ")");
        const int nsize = int(bool(c.attribute("rho"))) + int(bool(c.attribute("side"))) + int(bool(c.attribute("leg_length")));
        if (nsize != 1) fail(c, "give exactly one of rho, side, leg_length (m)");
        if (c.attribute("rho")) j.rho = number(c, "rho", 0);
        else if (c.attribute("side")) j.rho = apairRhoFromSide(number(c, "side", 0));
        else j.rho = apairRhoFromLeg(number(c, "leg_length", 0));
        if (j.rho < 0) fail(c, "the A-pair size must be ≥ 0");
        j.leg_mass = number(c, "leg_mass", 0);
        j.leg_radius = number(c, "leg_radius", 0);
        if (j.leg_mass < 0 || j.leg_radius < 0) fail(c, "leg_mass and leg_radius must be ≥ 0");
        for (const auto& kv : c.attributes)
          if (kv.first != "rho" && kv.first != "side" && kv.first != "leg_length" && kv.first != "leg_mass" && kv.first != "leg_radius")
            fail(c, "unknown attribute " + nameInput(kv.first, 64) + " (allowed: rho | side | leg_length, leg_mass, leg_radius)");
        j.kind = JointKind::A;
      } else if (r.isAchainAny(c)) {
        r.warn(c, "unknown achain extension element, ignored");
      } else if (c.name == "calibration" || c.name == "safety_controller") {
        r.warn(c, "not used by achain; ignored");
      } else {
        r.warn(c, "unknown element in <joint>, ignored");
      }
    }
    if (*type == "revolute" && !single(J, "limit")) r.warn(J, "a revolute joint without <limit> (URDF requires one); taken as unlimited");
    if (*type == "prismatic" && !single(J, "limit")) r.warn(J, "a prismatic joint without <limit> (URDF requires one); taken as unlimited");
    r.joint_el.push_back(&J);
    const LinkInfo& child = info[joint_child[order[i]]];
    if (child.has_inertial) j.link = child.inertial;
    m.joints.push_back(j);
  }

  // ---- mimic couplings: u = k·u_master + c, chains of mimics composed to the independent joint ----
  std::vector<double> mult(order.size()), offs(order.size());
  for (size_t i = 0; i < order.size(); ++i) mult[i] = m.joints[i].mimic_multiplier, offs[i] = m.joints[i].mimic_offset;
  for (size_t i = 0; i < order.size(); ++i) {
    if (mimic_of[i].empty()) continue;
    double k = 1, off = 0;  // u_i = k·u_at + off
    int at = int(i);
    std::set<int> seen{at};
    while (!mimic_of[at].empty()) {
      auto it = joint_index.find(mimic_of[at]);
      if (it == joint_index.end()) fail(*mimic_el[at], "mimics joint " + quoteInput(mimic_of[at]) + ", which is not defined");
      const int next = model_index[it->second];
      if (!seen.insert(next).second) fail(*mimic_el[i], "mimic couplings form a cycle");
      if (m.joints[next].kind == JointKind::Fixed)
        fail(*mimic_el[at], "mimics joint " + quoteInput(mimic_of[at]) + ", which has no coordinate (fixed)");
      off += k * offs[at];
      k *= mult[at];
      at = next;
    }
    m.joints[i].mimic = at;
    m.joints[i].mimic_multiplier = k;
    m.joints[i].mimic_offset = off;
  }

  // ---- geometry ----
  for (size_t l = 0; l < links.size(); ++l) {
    const int link = child_of[l] < 0 ? -1 : model_index[child_of[l]];
    const XmlElement& L = *links[l];
    for (const XmlElement& c : L.children) {
      if (c.name == "visual") r.geometryOf(c, link, false);
      else if (c.name == "collision") r.geometryOf(c, link, true);
      else if (c.name != "inertial") r.warn(c, "unknown element in <link>, ignored");
    }
  }
  if (info[d.root].has_inertial && info[d.root].inertial.mass > 0)
    r.warn(*links[d.root], "inertial of the root link not used (the base is fixed)");

  // ---- tool ----
  if (opt.tool_link.empty() && d.tool_el) {
    auto it = link_index.find(d.tool_from_file);
    if (it == link_index.end()) fail(*d.tool_el, "no link is named " + quoteInput(d.tool_from_file));
    if (child_of[it->second] < 0) fail(*d.tool_el, quoteInput(d.tool_from_file) + " is the root link (the base); choose a moving link");
    m.tool_link = model_index[child_of[it->second]];
  } else if (!opt.tool_link.empty()) {
    auto it = link_index.find(opt.tool_link);
    if (it == link_index.end()) throw Error("tool link: no link is named " + quoteInput(opt.tool_link));
    if (child_of[it->second] < 0) throw Error("tool link: " + quoteInput(opt.tool_link) + " is the root link (the base); choose a moving link");
    m.tool_link = model_index[child_of[it->second]];
  } else {
    const std::vector<int> leaves = d.leaves();
    if (leaves.size() != 1) {
      std::string names;
      for (int l : leaves) names += (names.empty() ? "" : ", ") + quoteInput(requiredName(*links[l]));
      throw Error("tool link: the tree has " + std::to_string(leaves.size()) + " leaf links (" + names +
                  "); choose the tool's link by name (--tool-link)");
    }
    m.tool_link = model_index[child_of[leaves[0]]];
  }
  if (!opt.keep_fixed) fuseFixedJoints(r);
  if (m.tool_link == m.njoints() - 1) m.tool_link = -1;

  try {
    m.finalize();
  } catch (const Error& e) {
    throw Error(std::string("URDF: ") + e.what());
  }
  return m;
}

UrdfTree urdfTree(const XmlElement& robot) {
  const UrdfOptions opt;
  Reader r{opt, Model{}, {}, {}, {}};
  const Doc d = readDoc(robot, r);
  UrdfTree t;
  t.name = r.m.name;
  t.root = requiredName(*d.links[d.root]);
  t.tool_link = d.tool_from_file;
  for (int l : d.leaves()) t.leaves.push_back(requiredName(*d.links[l]));
  std::vector<int> at(d.links.size(), -1);  // each link's index in t.links
  at[d.root] = 0;
  t.links.push_back({t.root, -1, 0, {}});
  for (int k : d.order) {  // depth-first: a joint's parent link is listed before it
    const XmlElement& J = *d.joints[k];
    UrdfTreeLink L;
    L.name = requiredName(*d.links[d.joint_child[k]]);
    L.parent = at[d.joint_parent[k]];
    L.depth = t.links[L.parent].depth + 1;
    L.joint.name = requiredName(J);
    const std::string* type = J.attribute("type");
    if (!type) fail(J, "missing attribute type");
    L.joint.type = *type;
    L.joint.angular = *type == "revolute" || *type == "continuous";
    const bool moving = *type == "revolute" || *type == "continuous" || *type == "prismatic";
    if (moving) {
      for (const XmlElement& c : J.children) {
        if (c.name == "limit") {
          r.limitsOf(c, *type, L.joint.limits);
        } else if (c.name == "mimic") {
          L.joint.mimic = mimicOf(c, L.joint.mimic_multiplier, L.joint.mimic_offset);
        }
      }
    }
    at[d.joint_child[k]] = int(t.links.size());
    t.links.push_back(L);
  }
  t.notes = r.m.notes;
  return t;
}

UrdfTree urdfTreeString(const std::string& text) { return urdfTree(parseXml(text)); }

std::string urdfLinkName(const Model& m, int joint) { return m.joints[joint].name + "_link"; }

UrdfTree modelTree(const Model& m) {
  const int n = m.njoints();
  UrdfTree t;
  t.name = m.name;
  t.root = linkName(m, -1);
  t.links.push_back({t.root, -1, 0, {}});
  std::vector<bool> has_child(n, false);
  for (int i = 0; i < n; ++i)
    if (m.joints[i].parent >= 0) has_child[m.joints[i].parent] = true;
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    UrdfTreeLink L;
    L.name = linkName(m, i);
    L.parent = j.parent + 1;
    L.depth = t.links[L.parent].depth + 1;
    L.joint.name = j.name;
    L.joint.angular = m.jmodels[i].angular();
    L.joint.limits = j.limits;
    switch (j.kind) {
      case JointKind::R: L.joint.type = std::isfinite(j.limits.lower) || std::isfinite(j.limits.upper) ? "revolute" : "continuous"; break;
      case JointKind::P: L.joint.type = "prismatic"; break;
      case JointKind::H: L.joint.type = "helical"; break;
      case JointKind::A: L.joint.type = "A-pair"; break;
      case JointKind::Law: L.joint.type = "law"; break;
      case JointKind::Fixed: L.joint.type = "fixed"; break;
    }
    if (j.mimic >= 0) {
      L.joint.mimic = m.joints[j.mimic].name;
      L.joint.mimic_multiplier = j.mimic_multiplier;
      L.joint.mimic_offset = j.mimic_offset;
    }
    t.links.push_back(L);
    if (!has_child[i]) t.leaves.push_back(L.name);
  }
  if (n > 0) t.tool_link = linkName(m, m.toolLink());
  return t;
}

Model modelFromUrdfString(const std::string& text, const UrdfOptions& options) {
  return modelFromUrdf(parseXml(text), options);
}

}  // namespace achain

// ---- export ----
namespace achain {
namespace {

using xmlw::g17;
using xmlw::triple;
using xmlw::xmlEscape;
using xmlw::segment;

std::string originXml(const SE3& T) {
  if (T == SE3::Identity()) return "";
  return "<origin xyz=\"" + triple(T.p) + "\" rpy=\"" + triple(matrixToRpy(T.R)) + "\"/>";
}

std::string shapeXml(const Geometry& g) {
  switch (g.shape) {
    case Geometry::Shape::Box: return "<box size=\"" + triple(g.size) + "\"/>";
    case Geometry::Shape::Cylinder: return "<cylinder radius=\"" + g17(g.size.x()) + "\" length=\"" + g17(g.size.y()) + "\"/>";
    case Geometry::Shape::Sphere: return "<sphere radius=\"" + g17(g.size.x()) + "\"/>";
    case Geometry::Shape::Mesh:
      return "<mesh filename=\"" + xmlEscape(g.mesh) + "\"" + (g.scale == Vec3::Ones() ? "" : " scale=\"" + triple(g.scale) + "\"") + "/>";
  }
  return "";
}

std::string geometryXml(const Geometry& g, const SE3& C) {
  const char* tag = g.collision ? "collision" : "visual";
  std::string s = std::string("    <") + tag + (g.name.empty() ? "" : " name=\"" + xmlEscape(g.name) + "\"") + ">";
  s += originXml(C * g.origin) + "<geometry>" + shapeXml(g) + "</geometry>";
  if (g.has_color && !g.collision)
    s += "<material name=\"\"><color rgba=\"" + g17(g.rgba[0]) + " " + g17(g.rgba[1]) + " " + g17(g.rgba[2]) + " " + g17(g.rgba[3]) + "\"/></material>";
  return s + "</" + tag + ">\n";
}

}  // namespace

std::string modelToUrdf(const Model& m, std::vector<std::string>* warnings) {
  const int n = m.njoints();
  auto warn = [&](const std::string& w) { if (warnings) warnings->push_back(w); };
  std::vector<std::string> link(n);
  std::set<std::string> names{linkName(m, -1), "tool0"};
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    const std::string p = jointLabel(m, i);
    if (j.name.empty()) throw Error(p + ": URDF needs a joint name");
    link[i] = linkName(m, i);
    if (!names.insert(link[i]).second) throw Error(p + ": the link name " + quoteInput(link[i]) + " would be used twice");
    for (int k = 0; k < i; ++k)
      if (m.joints[k].name == j.name) throw Error(p + ": URDF needs unique joint names");
    if (j.kind == JointKind::H || j.kind == JointKind::Law)
      throw Error(p + ": a " + std::string(toString(j.kind)) + " joint has no URDF form (URDF has revolute, prismatic and fixed joints)");
    if (j.kind == JointKind::A && j.sign < 0) throw Error(p + ": a mirror-image A-pair (sign -1) has no URDF form");
    if (std::isfinite(j.limits.lower) != std::isfinite(j.limits.upper))
      throw Error(p + ": URDF has no one-sided position limit");
    if (std::isfinite(j.limits.acceleration)) warn(p + ": the acceleration limit is not written (URDF has none)");
  }
  // Frames: the URDF link frame U_i relates to achain's link frame F_i by F_i = U_i·C_i; the root link is the world.
  const xmlw::ExportFrames frames = xmlw::exportFrames(m);
  const std::vector<SE3>&C = frames.C, &origin = frames.origin;
  const std::vector<Vec3>& axis = frames.axis;
  std::ostringstream x;
  x << "<?xml version=\"1.0\"?>\n<!-- Written by achain (modelToUrdf). achain:* elements are achain's extension "
       "(docs/robot-format.md); other tools ignore them. -->\n";
  x << "<robot name=\"" << xmlEscape(m.name) << "\" xmlns:achain=\"" << kAchainUrdfNamespace << "\">\n";
  if (m.gravity != Vec3(0, 0, -9.80665)) x << "  <achain:gravity xyz=\"" << triple(m.gravity) << "\"/>\n";
  const bool tool_joint = C[m.toolLink()] * m.tool != SE3::Identity();
  x << "  <achain:tool link=\"" << (tool_joint ? "tool0" : xmlEscape(link[m.toolLink()])) << "\"/>\n";

  // Geometry: the model's, or generated links, joint axes and A-pair plates.
  std::vector<Geometry> geometry = m.geometry;
  if (geometry.empty()) {
    double L = 0;
    for (int i = 0; i < n; ++i) L += origin[i].p.norm() + std::abs(m.joints[i].d);
    const double r = std::max(0.005, 0.03 * L / n);
    for (int i = 0; i < n; ++i) {
      const Joint& j = m.joints[i];
      // the link: from the parent's achain link frame (C_parent in its URDF frame) to this joint
      const Vec3 from = j.parent < 0 ? m.base.p : C[j.parent].p;
      if ((origin[i].p - from).norm() > 1e-9) geometry.push_back(segment(j.parent, from, origin[i].p, 0.6 * r));
      if (C[i].p.norm() > 1e-9) geometry.push_back(segment(i, Vec3::Zero(), C[i].p, 0.6 * r));
      if (j.kind == JointKind::Fixed) continue;
      // the joint: a short cylinder on its axis, in the parent's URDF frame (C⁻¹ undone below)
      Geometry g;
      g.link = j.parent;
      g.shape = Geometry::Shape::Cylinder;
      g.size = Vec3(r, 3 * r, 0);
      g.origin = origin[i] * SE3{alignZ(axis[i].normalized()), Vec3::Zero()};
      if (j.kind == JointKind::A) {  // the two plates: discs through the anchor circles
        g.size = Vec3(apairSideFromRho(j.rho) / std::sqrt(3.0), 0.1 * r, 0);
        Geometry top = g;
        top.link = i;
        top.origin = SE3{alignZ(axis[i].normalized()), Vec3::Zero()};
        geometry.push_back(top);
      }
      geometry.push_back(g);
    }
    // generated shapes are written in the URDF frames: mark them by undoing C when written
    for (Geometry& g : geometry) g.origin = (g.link < 0 ? m.base : C[g.link]).inverse() * g.origin;
  }
  auto writeLink = [&](int k, const std::string& name) {
    x << "  <link name=\"" << xmlEscape(name) << "\">\n";
    const SE3& Ck = k < 0 ? m.base : C[k];
    if (k >= 0) {
      const Inertial& in = m.joints[k].link;
      const Vec3 com = Ck.act(in.com);
      const Mat3 I = Ck.R * in.inertia * Ck.R.transpose();
      x << "    <inertial><origin xyz=\"" << triple(com) << "\" rpy=\"0 0 0\"/><mass value=\"" << g17(in.mass)
        << "\"/><inertia ixx=\"" << g17(I(0, 0)) << "\" ixy=\"" << g17(0.5 * (I(0, 1) + I(1, 0))) << "\" ixz=\""
        << g17(0.5 * (I(0, 2) + I(2, 0))) << "\" iyy=\"" << g17(I(1, 1)) << "\" iyz=\"" << g17(0.5 * (I(1, 2) + I(2, 1)))
        << "\" izz=\"" << g17(I(2, 2)) << "\"/></inertial>\n";
    }
    for (const Geometry& g : geometry)
      if (g.link == k) x << geometryXml(g, Ck);
    x << "  </link>\n";
  };
  writeLink(-1, linkName(m, -1));
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    const bool fixed = j.kind == JointKind::Fixed;
    const bool unlimited = !std::isfinite(j.limits.lower);
    const char* type = fixed ? "fixed" : j.kind == JointKind::P ? "prismatic" : unlimited ? "continuous" : "revolute";
    x << "  <joint name=\"" << xmlEscape(j.name) << "\" type=\"" << type << "\">\n";
    x << "    <parent link=\"" << xmlEscape(j.parent < 0 ? linkName(m, -1) : link[j.parent]) << "\"/><child link=\""
      << xmlEscape(link[i]) << "\"/>\n";
    if (origin[i] != SE3::Identity()) x << "    " << originXml(origin[i]) << "\n";
    if (!fixed) {
      x << "    <axis xyz=\"" << triple(axis[i]) << "\"/>\n";
      // <limit>: revolute and prismatic joints must have one, a continuous joint may; URDF requires effort and
      // velocity in it (ROS's urdfdom refuses the file without them), so "none" is written as 0, which every
      // achain reader reads back as no limit.
      const JointLimits& L = j.limits;
      const bool speed = std::isfinite(L.velocity), force = std::isfinite(L.effort);
      if (!unlimited || j.kind == JointKind::P || speed || force) {
        x << "    <limit";
        if (!unlimited) x << " lower=\"" << g17(L.lower) << "\" upper=\"" << g17(L.upper) << "\"";
        x << " velocity=\"" << (speed ? g17(L.velocity) : "0") << "\" effort=\"" << (force ? g17(L.effort) : "0") << "\"/>\n";
      }
      if (unlimited && j.kind == JointKind::P)
        warn(jointLabel(m, i) + ": URDF has no unlimited prismatic joint: its <limit> has no lower/upper, which achain "
             "reads as no limit and other URDF readers as the range [0, 0]");
      if (j.mimic >= 0)
        x << "    <mimic joint=\"" << xmlEscape(m.joints[j.mimic].name) << "\" multiplier=\"" << g17(j.mimic_multiplier)
          << "\" offset=\"" << g17(j.mimic_offset) << "\"/>\n";
      const Motor& mo = j.motor;
      if (mo.present) {
        if (mo.gear_ratio == 1 && mo.rotor_inertia == 0 && mo.coulomb_pos == mo.coulomb_neg && mo.encoder_counts == 0)
          x << "    <dynamics damping=\"" << g17(mo.viscous) << "\" friction=\"" << g17(mo.coulomb_pos) << "\"/>\n";
        else
          warn(jointLabel(m, i) + ": motor data (rotor inertia, gear ratio, asymmetric friction, encoder) is not written");
      }
      if (j.kind == JointKind::A)
        x << "    <achain:apair rho=\"" << g17(j.rho) << "\" leg_mass=\"" << g17(j.leg_mass) << "\" leg_radius=\"" << g17(j.leg_radius) << "\"/>\n";
    }
    x << "  </joint>\n";
    writeLink(i, link[i]);
  }
  if (tool_joint) {
    x << "  <joint name=\"tool_joint\" type=\"fixed\">\n    <parent link=\"" << xmlEscape(link[m.toolLink()])
      << "\"/><child link=\"tool0\"/>\n    " << originXml(C[m.toolLink()] * m.tool) << "\n  </joint>\n  <link name=\"tool0\"/>\n";
  }
  x << "</robot>\n";
  return x.str();
}

}  // namespace achain
