// The batch kernels' input (private): the model's constants for one call in plain numbers, so that the
// kernel translation units (batch_kernel_base.cpp, batch_kernel_avx2.cpp, compiled with different
// instruction sets) touch no Eigen or library inline code whose out-of-line copies the linker could
// share between them. Filled by batch.cpp; read by batch_kernel.hpp.
#pragma once
#include <achain/model/joint.hpp>

namespace achain::batch_detail {

constexpr int kLanes = 4;  ///< W: states per block (one lane of every number per state)

struct JointPlan {
  const JointModel* jm = nullptr;  ///< the joint's motion and placement (evaluateT, placeLink on lanes)
  int parent = -1;
  int coord = -1;                  ///< coordinate the joint follows (−1: fixed)
  // the body for the call's leg model (link frame)
  double mass = 0;
  double com[3] = {0, 0, 0};
  double inertia[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};  ///< column-major, about the CoM
  // drive terms (independent joints with a motor; zero otherwise)
  double rotor = 0;                ///< J_m·G²
  double fric_visc = 0;            ///< G²·B
  double fric_pos = 0, fric_neg = 0;  ///< |G|·Tc+, |G|·Tc−
  bool drive = false;
};

struct LegPlan {
  int joint = -1, parent = -1;
  double B[3], P[3];
  double mass = 0;
};

struct Plan {
  int nq = 0, nv = 0, njoints = 0, nlegs = 0, tool_link = 0;
  const JointPlan* joints = nullptr;
  const LegPlan* legs = nullptr;
  FixedTransform base, tool;
  // dynamics options
  double g[3] = {0, 0, 0};
  bool legs_full = false;       ///< LegModel::Full: the legs' midpoint particles
  bool legs_weight = false;     ///< LegModel::PotentialOnly: the legs' weight
  bool motors = false, friction = false, wrench = false, wrench_tool = false;
  double wrench6[6] = {0, 0, 0, 0, 0, 0};
  void* scratch = nullptr;      ///< kLanes·8-byte aligned lane scratch of scratchLanes(njoints, nv) lanes
};

/// Lane scratch a plan needs (in lanes of kLanes doubles): per joint the FK/RNEA lanes and a composite
/// inertia; τ (nv); the tool frame (12); a Jacobian (6·nv); M (nv²); the legs' midpoint Jacobian (3·nv).
constexpr int kLanesPerJoint = 51;
constexpr int kCompositeLanes = 13;
inline long scratchLanes(int njoints, int nv) {
  return static_cast<long>(njoints) * (kLanesPerJoint + kCompositeLanes) + nv + 12 + 6L * nv +
         static_cast<long>(nv) * nv;
}

/// One instruction set's kernels (batch_kernel_<isa>.cpp). Each runs count states in blocks of kLanes;
/// massBiasBlock runs the one block of states k0 … k0 + m − 1 (m ≤ kLanes) and writes M (nv² per state)
/// and the bias τ(q, q̇, q̈ = 0) (nv per state) for those m states, state-major from M and bias; solveBlock
/// then solves that block's M·x = f (f, x: nv per state, m states) by Cholesky on lanes and returns the
/// states (bit l: state k0 + l) whose M is not positive definite.
#define ACHAIN_BATCH_KERNELS(isa)                                                                              \
  void fkToolBlocks##isa(const Plan& p, int count, const double* q, double* tool);                            \
  void rneaBlocks##isa(const Plan& p, int count, const double* q, const double* qd, const double* qdd,         \
                       double* tau);                                                                         \
  void jacobianBlocks##isa(const Plan& p, int count, const double* q, int link, const double* point,         \
                           bool tool_frame, double* J);                                                      \
  void massMatrixBlocks##isa(const Plan& p, int count, const double* q, double* M);                          \
  void massBiasBlock##isa(const Plan& p, int k0, int m, const double* q, const double* qd, double* M,        \
                          double* bias);                                                                     \
  int solveBlock##isa(const Plan& p, int m, const double* f, double* x);
ACHAIN_BATCH_KERNELS(Base)
ACHAIN_BATCH_KERNELS(Avx2)
#undef ACHAIN_BATCH_KERNELS

}  // namespace achain::batch_detail
