// Batch (series) calls: one kinematics or dynamics algorithm over N states in one call.
//
// Layout: state-major and contiguous. State k's q is q[k·nq … k·nq + nq), its q̇, q̈, τ likewise with
// nv (= nq) numbers; results are written the same way (τ and q̈: nv per state; M: nv² per state,
// column-major as Eigen's MatX; tool poses: one SE3 per state; Jacobians: 6·nv per state, column-major).
//
// Vectorised across states: every series runs one kernel (core/src/dynamics/batch_kernel.hpp) on W = 4
// states at once — one FK pass per block feeding the tool pose, RNEA, the point Jacobian or CRBA (and, for
// forwardDynamicsSeries, CRBA + the RNEA bias, the limit stops per state in batch.cpp, then a Cholesky
// solve on lanes) — every number a lane of four doubles
// (the joint model's one formula, JointModel::evaluateT, on lanes; sin/cos on all lanes at once by a
// Cody–Waite reduction and fdlibm's kernels, libm per lane beyond |angle| > 1e5). The kernel source
// is compiled twice on x86-64 — baseline flags and -mavx2 -mfma — and the path is chosen per call from
// the CPU (BatchPath::Auto) or forced (tests, benchmarks); in wasm it is compiled once with -msimd128.
// A count that is not a multiple of W fills the last block's spare lanes with the last state (their
// results are dropped). Results agree with the single calls to rounding (≈1e-15 relative: the kernel
// associates some sums differently and may contract them into FMAs; q̈ of forwardDynamicsSeries to
// ≈1e-16·κ(M) relative, the solve amplifying those differences by M's condition number).
//
// Like the single calls they do not validate (sizes are the caller's: count·nq numbers behind q, …); the
// wasm layer checks its inputs. The batch calls use data's scratch (data.batch, sized on the first batch
// call with that Data; later calls do not allocate) and leave data.oMi/oMtool/… unspecified.
#pragma once
#include <achain/dynamics/options.hpp>

namespace achain {

/// Which compiled kernel a vectorised batch call runs. Auto: AVX2+FMA when the CPU has them and the
/// library was built for x86-64, the baseline kernel otherwise.
enum class BatchPath { Auto, Baseline, Avx2 };

/// True when BatchPath::Avx2 can run here (x86-64 build and a CPU with AVX2 and FMA).
bool batchAvx2Available();

/// Tool pose (data.oMtool of forwardKinematics) of count states: tool[k] for q + k·nq.
void fkToolSeries(const Model& model, Data& data, int count, const double* q, SE3* tool,
                  BatchPath path = BatchPath::Auto);

/// τ of inverseDynamics (the same options: leg model, motors, friction, gravity, tool wrench) for count
/// states (q, q̇, q̈) → tau, each nv per state. qd or qdd may be null (zero).
void inverseDynamicsSeries(const Model& model, Data& data, int count, const double* q, const double* qd,
                           const double* qdd, const DynamicsOptions& options, double* tau,
                           BatchPath path = BatchPath::Auto);

/// M(q) of massMatrix (the same options: leg model, motors) for count states → M, nv² numbers per state
/// (column-major).
void massMatrixSeries(const Model& model, Data& data, int count, const double* q, const DynamicsOptions& options,
                      double* M, BatchPath path = BatchPath::Auto);

/// q̈ of forwardDynamics (the same options, limit stops included) for count states (q, q̇, τ) → qdd, nv per
/// state. Throws forwardDynamics's error when a state's M is not positive definite (qdd is then unspecified).
void forwardDynamicsSeries(const Model& model, Data& data, int count, const double* q, const double* qd,
                           const double* tau, const DynamicsOptions& options, double* qdd,
                           BatchPath path = BatchPath::Auto);

/// pointJacobian of link `link` at point_in_link for count states → J, 6·nv numbers per state
/// (column-major 6×nv), in the base frame, or the tool frame when tool_frame (rotateJacobian by the
/// state's tool orientation). Throws pointJacobian's error for a link out of range.
void pointJacobianSeries(const Model& model, Data& data, int count, const double* q, int link,
                         const Vec3& point_in_link, bool tool_frame, double* J, BatchPath path = BatchPath::Auto);

}  // namespace achain
