// Batch calls (dynamics/batch.hpp): the plan in plain numbers, the choice of the compiled kernel per
// call, and forward dynamics' per-state limit stops between the kernel's M and bias and its solve.
#include <achain/dynamics/batch.hpp>

#include <cstdint>
#include <new>
#include <string>
#include <type_traits>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/forward.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/jacobian.hpp>

#include "batch_plan.hpp"
#include "detail.hpp"

namespace achain {
namespace {

using namespace batch_detail;

static_assert(sizeof(SE3) == 12 * sizeof(double) && std::is_standard_layout<SE3>::value,
              "the kernels write SE3 as 9 + 3 doubles");
static_assert(std::is_trivially_copyable<JointPlan>::value && std::is_trivially_copyable<LegPlan>::value,
              "plans live in data.batch.buffer");

/// Lays out data.batch.buffer (lanes, then joint plans, then leg plans, then one block's M and bias for
/// forwardDynamicsSeries at *block_out) and fills the plan for a call. Every call lays out the same size,
/// so only the first batch call with a Data allocates.
Plan makePlan(const Model& model, Data& data, const DynamicsOptions* o, double** block_out = nullptr) {
  const int n = model.njoints();
  const int nlegs = o ? static_cast<int>(model.legs.size()) : 0;
  const long lane_doubles = scratchLanes(n, model.nv) * kLanes;
  const long plan_doubles = (static_cast<long>(n) * sizeof(JointPlan) + static_cast<long>(model.legs.size()) *
                             sizeof(LegPlan)) / sizeof(double) + 2;
  const long block_doubles = kLanes * (static_cast<long>(model.nv) * model.nv + model.nv);
  const long need = lane_doubles + plan_doubles + block_doubles + kLanes;  // + alignment slack
  std::vector<double>& buf = data.batch.buffer;
  if (static_cast<long>(buf.size()) < need) buf.assign(need, 0.0);  // the first call with this Data only
  const auto addr = reinterpret_cast<std::uintptr_t>(buf.data());
  constexpr std::uintptr_t kAlign = kLanes * sizeof(double);
  double* lanes = buf.data() + ((kAlign - addr % kAlign) % kAlign) / sizeof(double);
  auto* joints = reinterpret_cast<JointPlan*>(lanes + lane_doubles);
  auto* legs = reinterpret_cast<LegPlan*>(joints + n);
  if (block_out) *block_out = lanes + lane_doubles + plan_doubles;

  Plan p;
  p.nq = model.nq;
  p.nv = model.nv;
  p.njoints = n;
  p.nlegs = nlegs;
  p.tool_link = model.toolLink();
  p.joints = joints;
  p.legs = legs;
  p.scratch = lanes;
  p.base = FixedTransform::of(model.base);
  p.tool = FixedTransform::of(model.tool);
  const std::vector<DynBody>* bodies = o ? &model.bodies[static_cast<int>(o->legs)] : nullptr;
  for (int i = 0; i < n; ++i) {
    JointPlan& J = *new (joints + i) JointPlan();
    const Joint& j = model.joints[i];
    J.jm = &model.jmodels[i];
    J.parent = j.parent;
    J.coord = model.idx_q[i];
    if (!bodies) continue;
    const DynBody& b = (*bodies)[i];
    J.mass = b.mass;
    for (int k = 0; k < 3; ++k) J.com[k] = b.com[k];
    for (int k = 0; k < 9; ++k) J.inertia[k] = b.inertia.data()[k];
    const Motor& mo = j.motor;
    J.drive = mo.present && model.jmodels[i].independent;
    if (J.drive) {
      J.rotor = dyn_detail::reflectedInertia(mo);
      J.fric_visc = mo.gear_ratio * mo.gear_ratio * mo.viscous;
      J.fric_pos = std::abs(mo.gear_ratio) * mo.coulomb_pos;
      J.fric_neg = std::abs(mo.gear_ratio) * mo.coulomb_neg;
    }
  }
  for (int e = 0; e < nlegs; ++e) {
    const DynLeg& L = model.legs[e];
    LegPlan& G = *new (legs + e) LegPlan();
    G.joint = L.joint;
    G.parent = L.parent;
    for (int k = 0; k < 3; ++k) {
      G.B[k] = L.B[k];
      G.P[k] = L.P[k];
    }
    G.mass = L.mass;
  }
  if (o) {
    const Vec3 g = dyn_detail::gravityVector(model, *o);
    for (int k = 0; k < 3; ++k) p.g[k] = g[k];
    p.legs_full = o->legs == LegModel::Full;
    p.legs_weight = o->legs == LegModel::PotentialOnly;
    p.motors = o->motors;
    p.friction = o->friction;
    p.wrench = o->use_wrench;
    p.wrench_tool = o->wrench_frame == WrenchFrame::Tool;
    for (int k = 0; k < 6; ++k) p.wrench6[k] = o->wrench[k];
  }
  return p;
}

bool useAvx2(BatchPath path) {
  if (path == BatchPath::Baseline) return false;
  const bool have = batchAvx2Available();
  if (path == BatchPath::Avx2 && !have)
    throw Error("batch path: AVX2 was asked for, but this build or CPU has no AVX2+FMA kernel");
  return have;
}

}  // namespace

// The kernel `name` of the path the call runs (name##Avx2 only exists in an x86-64 build).
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
#define ACHAIN_KERNEL(name) (useAvx2(path) ? name##Avx2 : name##Base)
#else
#define ACHAIN_KERNEL(name) (useAvx2(path), name##Base)
#endif

bool batchAvx2Available() {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

void fkToolSeries(const Model& model, Data& data, int count, const double* q, SE3* tool, BatchPath path) {
  if (count <= 0) return;
  const Plan p = makePlan(model, data, nullptr);
  ACHAIN_KERNEL(fkToolBlocks)(p, count, q, reinterpret_cast<double*>(tool));
}

void inverseDynamicsSeries(const Model& model, Data& data, int count, const double* q, const double* qd,
                           const double* qdd, const DynamicsOptions& options, double* tau, BatchPath path) {
  if (count <= 0) return;
  const Plan p = makePlan(model, data, &options);
  ACHAIN_KERNEL(rneaBlocks)(p, count, q, qd, qdd, tau);
}

void massMatrixSeries(const Model& model, Data& data, int count, const double* q, const DynamicsOptions& options,
                      double* M, BatchPath path) {
  if (count <= 0) return;
  const Plan p = makePlan(model, data, &options);
  ACHAIN_KERNEL(massMatrixBlocks)(p, count, q, M);
}

void forwardDynamicsSeries(const Model& model, Data& data, int count, const double* q, const double* qd,
                           const double* tau, const DynamicsOptions& options, double* qdd, BatchPath path) {
  if (count <= 0) return;
  const int n = model.nv;
  const long nn = static_cast<long>(n) * n;
  double* out = nullptr;  // one block's M (kLanes·nv²), then its bias (kLanes·nv)
  const Plan p = makePlan(model, data, &options, &out);
  const auto block = ACHAIN_KERNEL(massBiasBlock);
  const auto solve = ACHAIN_KERNEL(solveBlock);
  double* f = out + kLanes * nn;  // the block's bias, then τ − b (+ the limit stops) in its place
  for (int k0 = 0; k0 < count; k0 += kLanes) {
    const int m = count - k0 < kLanes ? count - k0 : kLanes;
    block(p, k0, m, q, qd, out, f);
    for (int l = 0; l < m; ++l) {  // as forwardDynamics: M q̈ = τ − b (+ the limit stops)
      const long at = static_cast<long>(n) * (k0 + l);
      Eigen::Map<VecX> fl(f + static_cast<long>(n) * l, n);
      fl = Eigen::Map<const VecX>(tau + at, n) - fl;
      if (!options.limit_stops) continue;
      VecX& g = data.dyn.tmp_b;
      g = fl;
      dyn_detail::addLimitStops(model, Eigen::Map<const VecX>(q + at, n), Eigen::Map<const VecX>(qd + at, n),
                                Eigen::Map<const MatX>(out + l * nn, n, n), options, g);
      fl = g;
    }
    if (solve(p, m, f, qdd + static_cast<long>(n) * k0))
      throw Error("forward dynamics: the mass matrix is not positive definite (a joint moves no mass)");
  }
}

void pointJacobianSeries(const Model& model, Data& data, int count, const double* q, int link,
                         const Vec3& point_in_link, bool tool_frame, double* J, BatchPath path) {
  if (link < 0 || link >= model.njoints())
    throw Error("link: must be in [0, " + std::to_string(model.njoints() - 1) + "] (got " + std::to_string(link) + ")");
  if (count <= 0) return;
  const Plan p = makePlan(model, data, nullptr);
  const double point[3] = {point_in_link.x(), point_in_link.y(), point_in_link.z()};
  ACHAIN_KERNEL(jacobianBlocks)(p, count, q, link, point, tool_frame, J);
}

#undef ACHAIN_KERNEL

}  // namespace achain
