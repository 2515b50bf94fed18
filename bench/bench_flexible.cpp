// Flexibility benchmarks (issue 13): the prototype with lumped joint flexibility, its derived drive
// (docs/flexible.md, "Prototype drive": k = 5353.63 N·m/rad, c = 12.947 N·m·s/rad, motor inertia at the joint
// 0.125, 0.125, 0.125, 0.025 kg·m², the values of core/robots/variants/prototype-4a-drive.json).
//   FlexJointStep/prototype-4a/achain            one RK4 step of the motor + link state (4 joints, 8 DOF), motor
//                                                 torques held, legs as the robot file says (massive)
//   FlexJointStep/prototype-4a/achain (legs massless)   the same without the A-pair legs' inertia
//   FlexJointModes/prototype-4a/achain           the locked-motor natural modes about one configuration
//   FlexCheck/prototype-4a/achain                the whole trajectory check of the thesis trapezoid, unshaped
//                                                 (θ_v 60° → 300°, Table 3.11 limits; about 2700 steps)
// The space arm (built-in `space-arm`, Tesar & Graves: 6 joints, links 2 and 3 flexible with 5 modes each, 16 DOF
// with the joints, base fixed):
//   FlexChainMassMatrix/space-arm/achain     I*(φ) (Jacobians of every link frame, then Σ 𝒢ᵀ·I·𝒢)
//   FlexChainMassMatrix/space-arm/rigid CRBA the rigid chain's massMatrix, for scale
//   FlexChainID/space-arm/achain             flexible inverse dynamics (I*, and c by central differences of I*)
//   FlexChainModes/space-arm/achain          the coupled modes with the joints locked, about a configuration
// The target: one simulation step of the flexible prototype within 5 µs native.
#include <benchmark/benchmark.h>

#include <vector>

#include <achain/dynamics/crba.hpp>
#include <achain/flexibility/flexible_chain.hpp>
#include <achain/flexibility/flexible_joint_sim.hpp>
#include <achain/io/flexible_json.hpp>
#include <achain/flexibility/joint_flexibility.hpp>
#include <achain/io/robot.hpp>
#include <achain/trajectory/flex_check.hpp>
#include <achain/trajectory/plan.hpp>

#include "bench_common.hpp"

using namespace achain;

namespace {

JointFlexibility prototypeDrive(const Model& m) {
  JointFlexibility f;
  f.stiffness = VecX::Constant(m.nv, 5353.63);
  f.damping = VecX::Constant(m.nv, 12.9471);
  f.motor_inertia = VecX::Constant(m.nv, 0.125);
  f.motor_inertia[m.nv - 1] = 0.025;
  return f;
}

void flexJointStep(benchmark::State& st, bool legs) {
  const Model m = builtinModel("prototype-4a");
  DynamicsOptions opt;
  if (!legs) opt.legs = LegModel::Massless;
  const JointFlexibility flex = prototypeDrive(m);
  FlexibleJointChain chain(m, flex, opt);
  Data data(m);
  const std::vector<VecX> qs = bench::configurations(m, 41);
  FlexibleJointState s;
  s.q = qs[0];
  s.qd = VecX::Zero(m.nv);
  s.theta = s.q;
  s.thetad = VecX::Zero(m.nv);
  const VecX u = VecX::Zero(m.nv);
  const double dt = chain.stableStep(data, s.q, true);
  int k = 0;
  for (auto _ : st) {
    if ((++k & 1023) == 0) {  // restart from another configuration now and then, so the state stays bounded
      s.q = qs[(k >> 10) & (bench::kStates - 1)];
      s.theta = s.q;
      s.qd.setZero();
      s.thetad.setZero();
    }
    chain.step(data, s, u, dt);
    benchmark::DoNotOptimize(s.q.data());
  }
}
BENCHMARK_CAPTURE(flexJointStep, legs, true)->Name("FlexJointStep/prototype-4a/achain");
BENCHMARK_CAPTURE(flexJointStep, massless, false)->Name("FlexJointStep/prototype-4a/achain (legs massless)");

void flexJointModes(benchmark::State& st) {
  const Model m = builtinModel("prototype-4a");
  const JointFlexibility flex = prototypeDrive(m);
  Data data(m);
  const std::vector<VecX> qs = bench::configurations(m, 43);
  int k = 0;
  for (auto _ : st)
    benchmark::DoNotOptimize(
        jointFlexibilityModes(m, data, qs[k++ & (bench::kStates - 1)], flex, MotorSide::Locked, DynamicsOptions{}));
}
BENCHMARK(flexJointModes)->Name("FlexJointModes/prototype-4a/achain");

void flexCheck(benchmark::State& st) {
  const Model m = builtinModel("prototype-4a");
  const JointFlexibility flex = prototypeDrive(m);
  PlanSpec spec;
  spec.from = VecX::Constant(m.nv, 60 * kDeg);
  spec.to = VecX::Constant(m.nv, 300 * kDeg);
  const Plan plan = planJointPath(m, spec);
  for (auto _ : st) benchmark::DoNotOptimize(checkFlexibleTrajectory(m, flex, *plan.path, DynamicsOptions{}));
}
BENCHMARK(flexCheck)->Name("FlexCheck/prototype-4a/achain")->Unit(benchmark::kMillisecond);

/// The built-in space arm with its flexible links, and reproducible states φ = (q, small modal coordinates).
struct SpaceArm {
  Model m = builtinModel("space-arm");
  FlexibleChain chain;
  FlexibleChainData data;
  std::vector<VecX> phi;
  SpaceArm() : chain(make(m)), data(chain) {
    const std::vector<VecX> qs = bench::configurations(m, 47);
    for (int k = 0; k < bench::kStates; ++k) {
      VecX p = VecX::Zero(chain.dof);
      p.head(m.nv) = qs[k];
      for (int i = 0; i < chain.nf; ++i) p[m.nv + i] = 1e-3 * std::sin(k + 3.0 * i);
      phi.push_back(p);
    }
  }
  static FlexibleChain make(const Model& m) {
    return makeFlexibleChain(m, readRobot("space-arm").requireFlexibleLinks().links);
  }
};

void flexChainMassMatrix(benchmark::State& st) {
  SpaceArm a;
  int k = 0;
  for (auto _ : st) {
    flexibleMassMatrix(a.chain, a.data, a.phi[k++ & (bench::kStates - 1)]);
    benchmark::DoNotOptimize(a.data.I.data());
  }
}
BENCHMARK(flexChainMassMatrix)->Name("FlexChainMassMatrix/space-arm/achain");

void rigidMassMatrix(benchmark::State& st) {
  SpaceArm a;
  Data data(a.m);
  MatX M(a.m.nv, a.m.nv);
  int k = 0;
  for (auto _ : st) {
    massMatrix(a.m, data, a.phi[k++ & (bench::kStates - 1)].head(a.m.nv), DynamicsOptions{}, M);
    benchmark::DoNotOptimize(M.data());
  }
}
BENCHMARK(rigidMassMatrix)->Name("FlexChainMassMatrix/space-arm/rigid CRBA");

void flexChainId(benchmark::State& st) {
  SpaceArm a;
  VecX tau(a.chain.dof), qd(a.chain.dof), qdd(a.chain.dof);
  for (int i = 0; i < a.chain.dof; ++i) {
    qd[i] = std::sin(2.0 * i);
    qdd[i] = std::cos(i);
  }
  int k = 0;
  for (auto _ : st) {
    flexibleInverseDynamics(a.chain, a.data, a.phi[k++ & (bench::kStates - 1)], qd, qdd, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}
BENCHMARK(flexChainId)->Name("FlexChainID/space-arm/achain");

void flexChainModes(benchmark::State& st) {
  SpaceArm a;
  int k = 0;
  for (auto _ : st)
    benchmark::DoNotOptimize(flexibleChainModes(a.chain, a.data, a.phi[k++ & (bench::kStates - 1)].head(a.m.nv)));
}
BENCHMARK(flexChainModes)->Name("FlexChainModes/space-arm/achain");

}  // namespace
