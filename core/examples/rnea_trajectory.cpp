// Inverse dynamics along a trajectory: the thesis's trapezoid move of the prototype 4A-chain (every
// joint 60° → 300°), sampled at 1 kHz; prints each joint's peak torque and checks τ = M q̈ + b there.
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/robot.hpp>
#include <achain/trajectory/plan.hpp>

#include <cmath>
#include <cstdio>

int main() {
  using namespace achain;
  const Model model = builtinModel("prototype-4a");
  PlanSpec spec;
  spec.from = VecX::Constant(model.nq, 60 * kDeg);
  spec.to = VecX::Constant(model.nq, 300 * kDeg);
  const Plan plan = planJointPath(model, spec);
  Data data(model);
  DynamicsOptions options;  // the full leg model, the model's gravity
  const int n = model.nv;
  VecX q(n), qd(n), qdd(n), tau(n), b(n), peak = VecX::Zero(n);
  MatX M(n, n);
  double worst = 0;
  const double T = plan.path->duration();
  for (int k = 0; k * 1e-3 <= T; ++k) {
    plan.path->evaluate(k * 1e-3, q, qd, qdd);
    inverseDynamics(model, data, q, qd, qdd, options, tau);
    peak = peak.cwiseMax(tau.cwiseAbs());
    massMatrix(model, data, q, options, M);
    biasTorques(model, data, q, qd, options, b);
    worst = std::max(worst, (tau - (M * qdd + b)).cwiseAbs().maxCoeff());
  }
  std::printf("move of %.4f s; peak |tau| per joint (N*m):", T);
  for (int i = 0; i < n; ++i) std::printf(" %.3f", peak[i]);
  std::printf("\nlargest |RNEA - (M qdd + b)| = %.2e N*m\n", worst);
  return worst < 1e-9 && peak.allFinite() && peak.minCoeff() > 0 ? 0 : 1;
}
