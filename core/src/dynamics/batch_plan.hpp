// The batch kernels' input (private): the model's constants for one call in plain numbers, so that the
// kernel translation units (batch_kernel_base.cpp, batch_kernel_avx2.cpp, compiled with different
// instruction sets) touch no Eigen or library inline code whose out-of-line copies the linker could
// share between them. Filled by batch.cpp; read by batch_kernel.hpp.
#pragma once
#include <achain/model/joint.hpp>

namespace achain::batch_detail {

constexpr int kLanes = 4;  ///< W: states per block (one lane of every number per state)

/// Placement of a joint's constant parts: identity, "x-form" (R = Rx(α), p = (a, 0, 0): the DH
/// constants, before the motion in the modified convention, after it in the standard one), general.
enum Placement : int { kIdentity = 0, kXForm = 1, kGeneral = 2 };

struct Frame12 {
  double R[9];  ///< column-major
  double p[3];
};

struct JointPlan {
  const JointModel* jm = nullptr;  ///< the joint's motion (JointModel::evaluateT on lanes)
  int parent = -1;
  int coord = -1;                  ///< coordinate the joint follows (−1: fixed)
  int pre = kIdentity, post = kIdentity;
  double pre_c = 1, pre_s = 0, pre_a = 0, post_c = 1, post_s = 0, post_a = 0;  ///< x-form: cos α, sin α, a
  Frame12 pre_T{}, post_T{};       ///< general placements
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
  Frame12 base{}, tool{};
  // dynamics options
  double g[3] = {0, 0, 0};
  bool legs_full = false;       ///< LegModel::Full: the legs' midpoint particles
  bool legs_weight = false;     ///< LegModel::PotentialOnly: the legs' weight
  bool motors = false, friction = false, wrench = false, wrench_tool = false;
  double wrench6[6] = {0, 0, 0, 0, 0, 0};
  void* scratch = nullptr;      ///< kLanes·8-byte aligned lane scratch of scratchLanes(njoints, nv) lanes
};

/// Lane scratch a plan needs (in lanes of kLanes doubles).
constexpr int kLanesPerJoint = 51;
inline long scratchLanes(int njoints, int nv) { return static_cast<long>(njoints) * kLanesPerJoint + nv + 12; }

// The kernels, one set per instruction set (batch_kernel_<isa>.cpp).
void fkToolBlocksBase(const Plan& p, int count, const double* q, double* tool);
void rneaBlocksBase(const Plan& p, int count, const double* q, const double* qd, const double* qdd, double* tau);
void fkToolBlocksAvx2(const Plan& p, int count, const double* q, double* tool);
void rneaBlocksAvx2(const Plan& p, int count, const double* q, const double* qd, const double* qdd, double* tau);

}  // namespace achain::batch_detail
