// Forward kinematics of a built-in robot: the prototype 4A-chain fully extended (all θ_v = 180°)
// stands 33 + 4√2 in tall (Robinson Eq. 3.36).
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>

#include <cmath>
#include <cstdio>

int main() {
  const achain::Model model = achain::builtinModel("prototype-4a");
  achain::Data data(model);
  const achain::VecX q = achain::VecX::Constant(model.nq, achain::kPi);
  achain::forwardKinematics(model, data, q);
  const double z = data.oMtool.p.z();
  const double expected = (33 + 4 * std::sqrt(2.0)) * 0.0254;
  std::printf("tool z = %.10f m (expected %.10f)\n", z, expected);
  return std::abs(z - expected) < 1e-12 ? 0 : 1;
}
