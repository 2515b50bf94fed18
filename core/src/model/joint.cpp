// makeJointModel: each joint kind written once as a law of the form in joint.hpp. This is the only
// switch on JointKind in the algorithms' path; everything downstream reads JointModel/JointState.
#include <achain/model/model.hpp>

#include <cmath>

namespace achain {

namespace {
// The smallest period 2π·m (m = 1…16) of θ = r·u together with the sine terms, or 0.
double motionPeriod(double rot, const AxialLaw& law) {
  if (law.c1 != 0 || law.c2 != 0 || law.c3 != 0) return 0;  // the translation grows without bound
  if (rot == 0 && law.nsine == 0) return 0;                   // nothing turns: no period to speak of
  for (int m = 1; m <= 16; ++m) {
    const double T = 2 * kPi * m;
    bool ok = rot == 0 || std::abs(rot * T / (2 * kPi) - std::round(rot * T / (2 * kPi))) < 1e-12;
    for (int k = 0; ok && k < law.nsine; ++k) {
      const double cycles = law.sine[k].frequency * T / (2 * kPi);
      ok = std::abs(cycles - std::round(cycles)) < 1e-12;
    }
    if (ok) return T;
  }
  return 0;
}
double rateBound(const AxialLaw& law) {
  if (law.c2 != 0 || law.c3 != 0) return kInf;
  double b = std::abs(law.c1);
  for (int k = 0; k < law.nsine; ++k) b += std::abs(law.sine[k].amplitude * law.sine[k].frequency);
  return b;
}
}  // namespace

FixedTransform FixedTransform::xform(double alpha, double a) {
  FixedTransform X = of(rotX(alpha) * translation(Vec3(a, 0, 0)));
  X.form = XForm;
  X.ca = std::cos(alpha);
  X.sa = std::sin(alpha);
  X.a = a;
  return X;
}

FixedTransform FixedTransform::of(const SE3& T) {
  FixedTransform X;
  for (int k = 0; k < 9; ++k) X.R[k] = T.R.data()[k];
  for (int k = 0; k < 3; ++k) X.p[k] = T.p[k];
  const bool still = T.R == Mat3::Identity(), fixed = T.p == Vec3::Zero();
  X.form = still && fixed ? Identity : fixed ? Rotation : General;
  return X;
}

SE3 FixedTransform::toSE3() const {
  SE3 T;
  for (int k = 0; k < 9; ++k) T.R.data()[k] = R[k];
  for (int k = 0; k < 3; ++k) T.p[k] = p[k];
  return T;
}

JointModel makeJointModel(const Joint& j, DHConvention convention, int coord, double scale, double offset) {
  JointModel m;
  // Where the joint sits (validated by Model::finalize).
  if (j.has_origin) {
    // pre = origin·R_align (R_align takes z to the axis), post = R_alignᵀ: the child link frame is
    // origin·Rot(axis, θ)·Trans(axis, dz), and the link's inertial stays in the child link frame.
    const Mat3 A = alignZ(j.axis);
    m.pre = FixedTransform::of(j.origin * SE3{A, Vec3::Zero()});
    m.post = FixedTransform::of(SE3{A.transpose(), Vec3::Zero()});
  } else if (convention == DHConvention::Standard) {
    m.post = FixedTransform::xform(j.alpha, j.a);  // Rz(θ) Tz(d) · Tx(a) Rx(α)
  } else {
    m.pre = FixedTransform::xform(j.alpha, j.a);   // Rx(α) Tx(a) · Rz(θ) Tz(d)
  }
  m.theta0 = j.theta_f;
  m.d0 = j.d;
  const double s = j.sign;
  switch (j.kind) {
    case JointKind::R: m.rot = s; break;
    case JointKind::P: m.rot = 0; m.law.c1 = s; break;
    case JointKind::H: m.rot = s; m.law.c1 = j.pitch * s; break;
    case JointKind::A:
      m.rot = s;
      m.law = apairLaw(j.rho);
      break;
    case JointKind::Law: m.rot = s; m.law = j.law; break;
    case JointKind::Fixed: coord = -1; break;
  }
  m.coord = coord;
  m.scale = coord < 0 ? 0.0 : scale;
  m.offset = coord < 0 ? 0.0 : offset;
  m.independent = coord >= 0 && j.mimic < 0;
  m.period = motionPeriod(m.rot, m.law);
  m.axial_rate_bound = rateBound(m.law);
  return m;
}

}  // namespace achain
