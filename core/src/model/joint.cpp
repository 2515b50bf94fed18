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

JointModel makeJointModel(const Joint& j, int coord, double scale, double offset) {
  JointModel m;
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
