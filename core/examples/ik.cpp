// Inverse kinematics, all solutions: the PUMA 560's closed form at a pose reached from a known q. Every
// solution reproduces the pose, and the generating configuration is among them.
#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>

#include <cstdio>

int main() {
  using namespace achain;
  const Model model = builtinModel("puma560");
  Data data(model);
  VecX q(6);
  q << 20, 30, -60, 40, 50, 60;
  q *= kDeg;
  forwardKinematics(model, data, q);
  const SE3 target = data.oMtool;
  const IkAllResult all = ikAll(model, target, IkMethod::Closed, IkOptions{});
  std::printf("%zu solutions inside the limits, %zu outside\n", all.solutions.size(), all.outside_limits.size());
  bool found = false, ok = !all.solutions.empty();
  for (const auto* set : {&all.solutions, &all.outside_limits})
    for (const IkSolution& s : *set) {
      forwardKinematics(model, data, s.q);
      const double err = (data.oMtool.p - target.p).norm() + (data.oMtool.R - target.R).norm();
      std::printf("  q = [");
      for (int k = 0; k < 6; ++k) std::printf("%s%.4f", k ? ", " : "", s.q[k] / kDeg);
      std::printf("] deg, |FK(q) - target| = %.1e\n", err);
      ok = ok && err < 1e-9;
      found = found || (s.q - q).norm() < 1e-9;
    }
  std::printf("generating configuration %s\n", found ? "found" : "NOT found");
  return ok && found ? 0 : 1;
}
