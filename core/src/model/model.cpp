#include <achain/model/model.hpp>

#include <achain/model/apair.hpp>
#include <achain/model/caps.hpp>
#include <achain/model/closed_form_chain.hpp>
#include <achain/math/text.hpp>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

namespace achain {

std::vector<int> Model::toolCoordinates() const {
  std::vector<char> moves(nq, 0);
  for (int i = njoints() > 0 ? toolLink() : -1; i >= 0; i = joints[i].parent)
    if (idx_q[i] >= 0) moves[idx_q[i]] = 1;
  std::vector<int> out;
  for (int c = 0; c < nq; ++c)
    if (moves[c]) out.push_back(c);
  return out;
}


const char* toString(JointKind k) {
  switch (k) {
    case JointKind::R: return "R";
    case JointKind::P: return "P";
    case JointKind::H: return "H";
    case JointKind::A: return "A";
    case JointKind::Law: return "law";
    case JointKind::Fixed: return "fixed";
  }
  return "?";
}
const char* toString(DHConvention c) { return c == DHConvention::Standard ? "standard" : "modified"; }

bool JointLimits::operator==(const JointLimits& o) const {
  return lower == o.lower && upper == o.upper && velocity == o.velocity &&
         acceleration == o.acceleration && effort == o.effort;
}
bool Motor::operator==(const Motor& o) const {
  return present == o.present && rotor_inertia == o.rotor_inertia && gear_ratio == o.gear_ratio &&
         viscous == o.viscous && coulomb_pos == o.coulomb_pos && coulomb_neg == o.coulomb_neg &&
         encoder_counts == o.encoder_counts;
}
bool Inertial::operator==(const Inertial& o) const {
  return mass == o.mass && com == o.com && inertia == o.inertia;
}
const char* toString(Geometry::Shape s) {
  switch (s) {
    case Geometry::Shape::Box: return "box";
    case Geometry::Shape::Cylinder: return "cylinder";
    case Geometry::Shape::Sphere: return "sphere";
    case Geometry::Shape::Mesh: return "mesh";
  }
  return "?";
}
bool Geometry::operator==(const Geometry& o) const {
  return link == o.link && collision == o.collision && name == o.name && origin == o.origin && shape == o.shape &&
         size == o.size && mesh == o.mesh && scale == o.scale && has_color == o.has_color &&
         (!has_color || rgba == o.rgba);
}
bool Joint::operator==(const Joint& o) const {
  return name == o.name && kind == o.kind && parent == o.parent && has_origin == o.has_origin &&
         (!has_origin || (origin == o.origin && axis == o.axis)) && a == o.a && alpha == o.alpha &&
         d == o.d && theta_f == o.theta_f && sign == o.sign && pitch == o.pitch && rho == o.rho &&
         leg_mass == o.leg_mass && leg_radius == o.leg_radius && law == o.law && mimic == o.mimic &&
         mimic_multiplier == o.mimic_multiplier && mimic_offset == o.mimic_offset && limits == o.limits &&
         motor == o.motor && link == o.link;
}

bool Model::sameDescription(const Model& o) const {
  return name == o.name && description == o.description && notes == o.notes &&
         convention == o.convention && gravity == o.gravity && base == o.base && tool == o.tool &&
         tool_link == o.tool_link && joints == o.joints && geometry == o.geometry;
}

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& msg) { throw Error(path + ": " + msg); }

std::string num(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

void requireFinite(const std::string& path, double v) {
  if (!std::isfinite(v)) fail(path, "must be a finite number (got " + num(v) + ")");
}
void requireNonNegative(const std::string& path, double v) {
  requireFinite(path, v);
  if (v < 0) fail(path, "must be ≥ 0 (got " + num(v) + ")");
}
void requirePositiveOrInf(const std::string& path, double v) {
  if (std::isnan(v)) fail(path, "must be a number (got NaN)");
  if (!(v > 0)) fail(path, "must be > 0 (got " + num(v) + ")");
}

void requireWithin(const std::string& path, double v, double bound, const char* unit) {
  requireFinite(path, v);
  if (std::abs(v) > bound)
    fail(path, "magnitude " + num(std::abs(v)) + " exceeds the physical range (≤ " + num(bound) + " " + unit + ")");
}

void validateRotation(const std::string& path, const Mat3& R) {
  if (!R.allFinite()) fail(path, "must contain finite numbers");
  const double orth = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
  if (orth > 1e-6) fail(path, "rotation part is not orthonormal (|RᵀR − I| = " + num(orth) + ")");
  if (R.determinant() < 0) fail(path, "rotation part has determinant −1 (a reflection)");
}

void validateInertial(const std::string& path, const Inertial& in) {
  requireNonNegative(path + ".mass", in.mass);
  requireWithin(path + ".mass", in.mass, kMaxMass, "kg");
  for (int i = 0; i < 3; ++i) requireWithin(path + ".com[" + std::to_string(i) + "]", in.com[i], kMaxLength, "m");
  if (!in.inertia.allFinite()) fail(path + ".inertia", "must contain finite numbers");
  if (in.inertia.cwiseAbs().maxCoeff() > kMaxInertia)
    fail(path + ".inertia", "magnitude " + num(in.inertia.cwiseAbs().maxCoeff()) + " exceeds the physical range (≤ " +
                                num(kMaxInertia) + " kg·m²)");
  const double scale = std::max(1.0, in.inertia.cwiseAbs().maxCoeff());
  const double asym = (in.inertia - in.inertia.transpose()).cwiseAbs().maxCoeff();
  if (asym > 1e-9 * scale)
    fail(path + ".inertia", "must be symmetric (largest |I_ij − I_ji| = " + num(asym) + ")");
  Eigen::SelfAdjointEigenSolver<Mat3> es(in.inertia);
  const double lmin = es.eigenvalues().minCoeff();
  if (lmin < -1e-12 * scale)
    fail(path + ".inertia", "must be positive semi-definite (smallest eigenvalue " + num(lmin) + ")");
}

}  // namespace

Mat3 alignZ(const Vec3& a) {
  // Columns (x', y', a): x' ⟂ a from ŷ × a (or ẑ × a when a is near ŷ); exact for the coordinate axes.
  Vec3 x = std::abs(a.y()) < 0.9 ? Vec3(Vec3::UnitY().cross(a)) : Vec3(Vec3::UnitZ().cross(a));
  x.normalize();
  Mat3 R;
  R.col(0) = x;
  R.col(1) = a.cross(x);
  R.col(2) = a;
  return R;
}

namespace {

Mat3 shift(const Vec3& r) { return r.squaredNorm() * Mat3::Identity() - r * r.transpose(); }

/// Adds a point mass m at x (link frame) to body b.
void addPointMass(DynBody& b, double m, const Vec3& x) {
  if (m <= 0) return;
  const double M = b.mass + m;
  const Vec3 c = (b.mass * b.com + m * x) / M;
  b.inertia = b.inertia + b.mass * shift(b.com - c) + m * shift(x - c);
  b.com = c;
  b.mass = M;
}


/// FNV-1a over the bytes of every number of the description the algorithms read (names and notes excluded).
struct Digest {
  std::uint64_t h = 14695981039346656037ull;
  void bytes(const void* p, size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (size_t k = 0; k < n; ++k) h = (h ^ c[k]) * 1099511628211ull;
  }
  void num(double v) { bytes(&v, sizeof v); }
  void num(int v) { bytes(&v, sizeof v); }
  void vec(const Vec3& v) { bytes(v.data(), sizeof(double) * 3); }
  void mat(const Mat3& m) { bytes(m.data(), sizeof(double) * 9); }
  void pose(const SE3& T) { mat(T.R); vec(T.p); }
};

std::uint64_t descriptionDigest(const Model& m) {
  Digest d;
  d.num(static_cast<int>(m.convention));
  d.vec(m.gravity);
  d.pose(m.base);
  d.pose(m.tool);
  d.num(m.tool_link);
  d.num(m.njoints());
  for (const Joint& j : m.joints) {
    d.num(static_cast<int>(j.kind));
    d.num(j.parent);
    d.num(j.has_origin ? 1 : 0);
    d.pose(j.origin);
    d.vec(j.axis);
    for (double v : {j.a, j.alpha, j.d, j.theta_f, j.pitch, j.rho, j.leg_mass, j.leg_radius, j.law.c1, j.law.c2, j.law.c3,
                     j.mimic_multiplier, j.mimic_offset})
      d.num(v);
    d.num(j.sign);
    d.num(j.law.nsine);
    for (int k = 0; k < j.law.nsine; ++k)
      for (double v : {j.law.sine[k].amplitude, j.law.sine[k].frequency, j.law.sine[k].phase}) d.num(v);
    d.num(j.mimic);
    const JointLimits& L = j.limits;
    for (double v : {L.lower, L.upper, L.velocity, L.acceleration, L.effort}) d.num(v);
    const Motor& M = j.motor;
    d.num(M.present ? 1 : 0);
    for (double v : {M.rotor_inertia, M.gear_ratio, M.viscous, M.coulomb_pos, M.coulomb_neg}) d.num(v);
    d.num(M.encoder_counts);
    d.num(j.link.mass);
    d.vec(j.link.com);
    d.mat(j.link.inertia);
  }
  return d.h;
}

}  // namespace

void Model::finalize() {
  const int n = njoints();
  if (n == 0) fail("joints", "must list at least one joint");
  if (n > kMaxJoints)
    fail("joints", std::to_string(n) + " joints; at most " + std::to_string(kMaxJoints) + " (the dynamics take dof² memory)");
  if (!gravity.allFinite()) fail("gravity", "must contain finite numbers");
  for (int k = 0; k < 3; ++k) requireWithin("gravity[" + std::to_string(k) + "]", gravity[k], kMaxGravity, "m/s²");
  if (gravity.norm() > kMaxGravity) fail("gravity", "magnitude " + num(gravity.norm()) + " m/s² exceeds the physical range (≤ " + num(kMaxGravity) + ")");
  validateRotation("base", base.R);
  if (!base.p.allFinite()) fail("base", "translation must be finite");
  for (int k = 0; k < 3; ++k) requireWithin("base.xyz[" + std::to_string(k) + "]", base.p[k], kMaxLength, "m");
  validateRotation("tool", tool.R);
  if (!tool.p.allFinite()) fail("tool", "translation must be finite");
  for (int k = 0; k < 3; ++k) requireWithin("tool.xyz[" + std::to_string(k) + "]", tool.p[k], kMaxLength, "m");
  if (tool_link < -1 || tool_link >= n) fail("tool.link", "must be a joint index in [0, " + std::to_string(n - 1) + "]");

  idx_q.resize(n);
  is_chain_parent.resize(n);
  nq = 0;
  for (int i = 0; i < n; ++i) {
    Joint& j = joints[i];
    const std::string p = "joints[" + std::to_string(i) + "]";
    if (j.parent < -1 || j.parent >= i) fail(p + ".parent", "must be −1 (base) or an earlier joint index (got " + std::to_string(j.parent) + ")");
    // names select joints (loop coordinates, mimics, --tool-link): a repeated name bound a loop to the wrong joint
    if (!j.name.empty())
      for (int k = 0; k < i; ++k)
        if (joints[k].name == j.name)
          fail(p + ".name", "duplicate joint name " + quoteInput(j.name, 64) + " (also joints[" + std::to_string(k) + "])");
    requireWithin(p + ".a", j.a, kMaxLength, "m");
    requireFinite(p + ".alpha", j.alpha);
    requireWithin(p + ".d", j.d, kMaxLength, "m");
    requireFinite(p + ".theta_f", j.theta_f);
    if (j.sign != 1 && j.sign != -1) fail(p + ".sign", "must be 1 or -1 (got " + std::to_string(j.sign) + ")");
    requireWithin(p + ".pitch", j.pitch, kMaxLength, "m/rad");
    if (j.kind != JointKind::H && j.pitch != 0) fail(p + ".pitch", "only a helical (H) joint has a pitch");
    requireNonNegative(p + ".rho", j.rho);
    requireWithin(p + ".rho", j.rho, kMaxLength, "m");
    requireWithin(p + ".legs.mass", j.leg_mass, kMaxMass, "kg");
    requireWithin(p + ".legs.radius", j.leg_radius, kMaxLength, "m");
    requireNonNegative(p + ".legs.mass", j.leg_mass);
    requireNonNegative(p + ".legs.radius", j.leg_radius);
    if (j.kind != JointKind::A && (j.rho != 0 || j.leg_mass != 0 || j.leg_radius != 0))
      fail(p + ".rho", "only an A-pair has rho and legs (kind is " + std::string(toString(j.kind)) + ")");
    const JointLimits& L = j.limits;
    if (std::isnan(L.lower) || L.lower == kInf) fail(p + ".limits.lower", "must be a number below +inf (got " + num(L.lower) + ")");
    if (std::isnan(L.upper) || L.upper == -kInf) fail(p + ".limits.upper", "must be a number above −inf (got " + num(L.upper) + ")");
    if (L.lower > L.upper) fail(p + ".limits", "lower (" + num(L.lower) + ") must not exceed upper (" + num(L.upper) + ")");
    if (std::isfinite(L.lower)) requireWithin(p + ".limits.lower", L.lower, kMaxLimit, "rad or m");
    if (std::isfinite(L.upper)) requireWithin(p + ".limits.upper", L.upper, kMaxLimit, "rad or m");
    if (std::isfinite(L.velocity)) requireWithin(p + ".limits.velocity", L.velocity, kMaxRate, "per s");
    if (std::isfinite(L.acceleration)) requireWithin(p + ".limits.acceleration", L.acceleration, kMaxRate, "per s²");
    if (std::isfinite(L.effort)) requireWithin(p + ".limits.effort", L.effort, kMaxRate, "N·m or N");
    requirePositiveOrInf(p + ".limits.velocity", L.velocity);
    requirePositiveOrInf(p + ".limits.acceleration", L.acceleration);
    requirePositiveOrInf(p + ".limits.effort", L.effort);
    if (j.motor.present) {
      requireNonNegative(p + ".motor.rotor_inertia", j.motor.rotor_inertia);
      requireWithin(p + ".motor.rotor_inertia", j.motor.rotor_inertia, kMaxInertia, "kg·m²");
      requireWithin(p + ".motor.gear_ratio", j.motor.gear_ratio, kMaxLimit, "");
      requireWithin(p + ".motor.viscous", j.motor.viscous, kMaxRate, "N·m·s/rad");
      requireWithin(p + ".motor.coulomb[0]", j.motor.coulomb_pos, kMaxRate, "N·m");
      requireWithin(p + ".motor.coulomb[1]", j.motor.coulomb_neg, kMaxRate, "N·m");
      if (j.motor.gear_ratio == 0) fail(p + ".motor.gear_ratio", "must not be 0");
      requireNonNegative(p + ".motor.viscous", j.motor.viscous);
      requireNonNegative(p + ".motor.coulomb[0]", j.motor.coulomb_pos);
      requireNonNegative(p + ".motor.coulomb[1]", j.motor.coulomb_neg);
    }
    validateInertial(p + ".link", j.link);

    if (j.kind == JointKind::Law) {
      requireWithin(p + ".law.c[0]", j.law.c1, kMaxLength, "m/rad");
      requireWithin(p + ".law.c[1]", j.law.c2, kMaxLength, "m/rad²");
      requireWithin(p + ".law.c[2]", j.law.c3, kMaxLength, "m/rad³");
      if (j.law.nsine < 0 || j.law.nsine > AxialLaw::kMaxSine)
        fail(p + ".law.sine", "at most " + std::to_string(AxialLaw::kMaxSine) + " sine terms");
      for (int k = 0; k < j.law.nsine; ++k) {
        const std::string q = p + ".law.sine[" + std::to_string(k) + "]";
        requireWithin(q + ".amplitude", j.law.sine[k].amplitude, kMaxLength, "m");
        requireWithin(q + ".frequency", j.law.sine[k].frequency, kMaxLength, "1/rad");
        requireFinite(q + ".phase", j.law.sine[k].phase);
      }
    } else if (!j.law.isZero()) {
      fail(p + ".law", std::string("only a joint of kind 'law' has an axial law (kind is ") + toString(j.kind) + ")");
    }
    if (j.mimic >= 0) {
      if (j.mimic >= n || j.mimic == i) fail(p + ".mimic.joint", "must name another joint of the model");
      const Joint& m = joints[j.mimic];
      if (m.kind == JointKind::Fixed || m.mimic >= 0)
        fail(p + ".mimic.joint", "must name a joint with a coordinate of its own (not fixed, not itself a mimic)");
      if (j.kind == JointKind::Fixed) fail(p + ".mimic", "a fixed joint cannot mimic another joint");
      requireWithin(p + ".mimic.multiplier", j.mimic_multiplier, kMaxLimit, "");
      requireWithin(p + ".mimic.offset", j.mimic_offset, kMaxLimit, "rad or m");
    } else if (j.mimic < -1) {
      fail(p + ".mimic.joint", "must be a joint index");
    }
    idx_q[i] = -1;
    if (j.kind != JointKind::Fixed && j.mimic < 0) idx_q[i] = nq++;
    is_chain_parent[i] = (j.parent == i - 1);
    if (j.has_origin) {  // the placement itself: makeJointModel (joint.cpp)
      if (j.a != 0 || j.alpha != 0) fail(p + ".origin", "a joint placed by origin/axis has no DH a or alpha (give one placement)");
      validateRotation(p + ".origin", j.origin.R);
      for (int k = 0; k < 3; ++k) requireWithin(p + ".origin.xyz[" + std::to_string(k) + "]", j.origin.p[k], kMaxLength, "m");
      if (!j.axis.allFinite()) fail(p + ".axis", "must contain finite numbers");
      if (std::abs(j.axis.norm() - 1) > 1e-9) fail(p + ".axis", "must be a unit vector (norm " + num(j.axis.norm()) + ")");
    }
  }
  // Mimic joints follow their master's coordinate; the joint model is built once per joint here.
  coord_joint.assign(nq, -1);
  jmodels.resize(n);
  for (int i = 0; i < n; ++i) {
    const Joint& j = joints[i];
    if (j.mimic >= 0) idx_q[i] = idx_q[j.mimic];
    else if (idx_q[i] >= 0) coord_joint[idx_q[i]] = i;
    jmodels[i] = j.mimic >= 0 ? makeJointModel(j, convention, idx_q[i], j.mimic_multiplier, j.mimic_offset)
                              : makeJointModel(j, convention, idx_q[i]);
  }
  nv = nq;
  coupled = nq != n;
  has_dh = true;
  for (const Joint& j : joints) has_dh = has_dh && !j.has_origin;
  for (size_t g = 0; g < geometry.size(); ++g) {
    const Geometry& G = geometry[g];
    const std::string p = "geometry[" + std::to_string(g) + "]";
    if (G.link < -1 || G.link >= n) fail(p + ".link", "must be −1 (base) or a joint index");
    validateRotation(p + ".origin", G.origin.R);
    if (!G.origin.p.allFinite() || !G.size.allFinite() || !G.scale.allFinite() || !G.rgba.allFinite())
      fail(p, "must contain finite numbers");
    if ((G.size.array() < 0).any()) fail(p + ".size", "must be ≥ 0");
    if (G.shape == Geometry::Shape::Mesh && G.mesh.empty()) fail(p + ".mesh", "a mesh needs a file name");
  }
  if (nq == 0) fail("joints", "must have at least one joint with a coordinate (all are fixed or mimic)");

  // The bodies the dynamics reads, per leg model (derived once, here; Data holds only scratch).
  legs.clear();
  // Legs: anchors in the parent's frame (B) and the link's frame (P).
  for (int i = 0; i < n; ++i) {
    const Joint& j = joints[i];
    if (!(j.leg_mass > 0)) continue;  // only A-pairs have legs (validated)
    const ApairAnchors A = apairAnchors(apairSideFromRho(j.rho));
    const double my = j.sign > 0 ? 1.0 : -1.0;
    const SE3 pre = jmodels[i].pre.toSE3(), postInv = jmodels[i].post.toSE3().inverse();
    for (int k = 0; k < 6; ++k) {
      DynLeg L;
      L.joint = i;
      L.parent = j.parent;
      const Vec3 b(A.base[k].x(), my * A.base[k].y(), 0);
      const Vec3 p(A.platform[k].x(), my * A.platform[k].y(), -j.d);
      // Axis frame of joint i in its parent's frame: pre (identity for standard DH).
      const Vec3 b_axis = rotZ(j.theta_f).act(b);
      L.B = j.parent < 0 ? (base * pre).act(b_axis) : pre.act(b_axis);
      L.P = postInv.act(p);
      L.mass = j.leg_mass;
      legs.push_back(L);
    }
  }

  for (int v = 0; v < 4; ++v) {
    bodies[v].resize(n);
    for (int i = 0; i < n; ++i) {
      DynBody& b = bodies[v][i];
      b.mass = joints[i].link.mass;
      b.com = joints[i].link.com;
      b.inertia = joints[i].link.inertia;
    }
  }
  auto& lumped = bodies[static_cast<int>(LegModel::Lumped)];
  for (int i = 0; i < n; ++i) {
    const Joint& j = joints[i];
    if (!(j.leg_mass > 0)) continue;  // only A-pairs have legs (validated)
    DynBody& b = lumped[i];
    const double add = 6 * j.leg_mass;
    if (b.mass > 0) {
      const double f = (b.mass + add) / b.mass;
      b.mass *= f;
      b.inertia *= f;
    } else {
      b.mass = add;
    }
  }
  auto& full = bodies[static_cast<int>(LegModel::Full)];
  for (const DynLeg& L : legs) {
    addPointMass(full[L.joint], L.mass / 6, L.P);
    if (L.parent >= 0) addPointMass(full[L.parent], L.mass / 6, L.B);
  }

  fingerprint = descriptionDigest(*this);
  closed_form = deriveClosedFormChain(*this);  // after the fingerprint: a URDF chain's DH extraction runs FK
}

Model convertConvention(const Model& m, DHConvention target) {
  if (m.convention == target) return m;
  const int n = m.njoints();
  for (int i = 0; i < n; ++i) {
    if (m.joints[i].parent != i - 1) throw Error("joints[" + std::to_string(i) + "].parent: only serial chains can change DH convention");
    if (m.joints[i].has_origin)
      throw Error("joints[" + std::to_string(i) + "].origin: placed by origin/axis, not DH; only DH chains can change DH convention");
  }
  Model out = m;
  out.convention = target;
  auto reexpress = [](Inertial& in, const SE3& g) {  // g: new frame ← old frame
    in.com = g.act(in.com);
    in.inertia = g.R * in.inertia * g.R.transpose();
  };
  if (target == DHConvention::Modified) {
    // Standard: Rz Tz · [Tx(a_i) Rx(α_i)]; the bracket moves to the front of joint i+1.
    for (int i = 0; i < n; ++i) {
      const Joint& src = m.joints[i];
      Joint& dst = out.joints[i];
      dst.a = i > 0 ? m.joints[i - 1].a : 0.0;
      dst.alpha = i > 0 ? m.joints[i - 1].alpha : 0.0;
      const SE3 g = translation(Vec3(src.a, 0, 0)) * rotX(src.alpha);  // modified frame i ← standard frame i
      reexpress(dst.link, g);
      for (Geometry& G : out.geometry)
        if (G.link == i) G.origin = g * G.origin;
    }
    const Joint& last = m.joints[n - 1];
    out.tool = translation(Vec3(last.a, 0, 0)) * rotX(last.alpha) * m.tool;
  } else {
    // Modified: [Rx(α_i) Tx(a_i)] · Rz Tz; the bracket moves to the end of joint i−1.
    out.base = m.base * rotX(m.joints[0].alpha) * translation(Vec3(m.joints[0].a, 0, 0));
    for (int i = 0; i < n; ++i) {
      Joint& dst = out.joints[i];
      dst.a = i + 1 < n ? m.joints[i + 1].a : 0.0;
      dst.alpha = i + 1 < n ? m.joints[i + 1].alpha : 0.0;
      const SE3 g = (rotX(dst.alpha) * translation(Vec3(dst.a, 0, 0))).inverse();  // standard frame i ← modified frame i
      reexpress(dst.link, g);
      for (Geometry& G : out.geometry)
        if (G.link == i) G.origin = g * G.origin;
    }
    const SE3 g0 = (rotX(m.joints[0].alpha) * translation(Vec3(m.joints[0].a, 0, 0))).inverse();  // new frame 0 ← old
    for (Geometry& G : out.geometry)
      if (G.link < 0) G.origin = g0 * G.origin;
  }
  out.finalize();
  return out;
}

}  // namespace achain
