#include <achain/model/apair.hpp>

#include <cmath>

namespace achain {

ApairAnchors apairAnchors(double a) {
  const double r3 = std::sqrt(3.0);
  ApairAnchors A;
  A.base = {Vec3(0, a * r3 / 3, 0),       Vec3(a / 4, a * r3 / 12, 0), Vec3(a / 2, -a * r3 / 6, 0),
            Vec3(0, -a * r3 / 6, 0),      Vec3(-a / 2, -a * r3 / 6, 0), Vec3(-a / 4, a * r3 / 12, 0)};
  A.platform = {Vec3(0, -a * r3 / 6, 0),  Vec3(-a / 2, -a * r3 / 6, 0), Vec3(-a / 4, a * r3 / 12, 0),
                Vec3(0, a * r3 / 3, 0),   Vec3(a / 4, a * r3 / 12, 0),  Vec3(a / 2, -a * r3 / 6, 0)};
  return A;
}

void apairLegEndpoints(const Model& model, const Data& data, int joint, double q,
                       std::array<Vec3, 6>& base_world, std::array<Vec3, 6>& platform_world) {
  const Joint& j = model.joints.at(joint);
  if (j.kind != JointKind::A) throw Error("joints[" + std::to_string(joint) + "]: not an A-pair");
  const ApairAnchors A = apairAnchors(apairSideFromRho(j.rho));
  const SE3 plate = data.oMj[joint] * rotZ(j.theta_f);
  const double my = j.sign > 0 ? 1.0 : -1.0;      // mirror image for sign −1
  const double c = std::cos(j.sign * q), s = std::sin(j.sign * q);
  double f = 0, f1 = 0, f2 = 0, f3 = 0;
  apairLaw(j.rho).evaluate(q, f, f1, f2, f3);
  const double h = f;  // plate separation ρ·sin(θ_v/2)
  for (int k = 0; k < 6; ++k) {
    const Vec3 b(A.base[k].x(), my * A.base[k].y(), 0);
    const Vec3 p(A.platform[k].x(), my * A.platform[k].y(), 0);
    base_world[k] = plate.act(b);
    platform_world[k] = plate.act(Vec3(c * p.x() - s * p.y(), s * p.x() + c * p.y(), h));
  }
}

}  // namespace achain
