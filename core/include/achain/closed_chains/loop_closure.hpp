// Single closed loops by model transfer (Freeman 1985, Ch. IV §A, pp. 116–126; reference digest
// freeman-influence.md §4.1, worked example App. C = §6.2).
//
// An open chain (the Model: M joint coordinates φ) has its free end e (the tool frame) tied to the
// ground. e holds the N components of the free end's motion in the chain's space and splits into
// the free part f (N−R) and the constrained part c (R), ċ = c̈ = 0 (4-10):
//   PlanarPin  N = 3, e = (X, Y, θz),      c = (X, Y),  f = θz           (a pin in the base xy-plane)
//   Point      N = 6, e = (x, y, z, ωx, ωy, ωz),  c = (x, y, z),  f = the three rotations (a ball joint)
//   Pose       N = 6, e as Point,          c = all six, f empty          (a weld)
// The joint coordinates split into α (M−N, kept as generalized coordinates) and β (N, dependent) (4-9);
// the intermediate coordinates are w = (α; e) (4-8) and the closed chain's coordinates y = (α; f) (4-30).
//
//   [G^w_φ] = [I 0; G^e_α G^e_β],  [H^w_φφ] = {0 (α planes); [H^e_φφ]}                (4-11)…(4-17)
//   [G^φ_w] = [G^w_φ]⁻¹ = [I 0; −(G^e_β)⁻¹G^e_α (G^e_β)⁻¹]                             (4-18), (4-19)
//   [H^φ_ww] = −[G^w_φ]⁻ᵀ([G^w_φ]⁻¹ ∘ [H^w_φφ])[G^w_φ]⁻¹                                (4-20)…(4-23)
//   I*_ww = [G^φ_w]ᵀ I*_φφ [G^φ_w],  P*_www, T^L_w  by the transfer (3-34)…(3-36)       (4-24)…(4-28)
//   (T_y; T_c) = [I*_yy; I*_cy] ÿ + ẏᵀ[P*_yyy; P*_cyy] ẏ − (T^L_y; T^L_c)              (4-30), (4-31)
// T_y are the loads the actuators at y must apply, T_c the loads the ground applies to the free end
// along c (the pin's bearing forces, in the world frame; moments for a Pose closure about the tool origin).
// Re-actuation at M−R other joints q (4-32)…(4-41): [G^q_y] takes the α rows as unit rows and the
// β rows from [G^β_w] (y columns), [H^q_yy] the β planes of [H^φ_ww] (y×y), then the transfer again.
//
// Units are SI like the rest of the library; angular components of e and f are quasi-coordinates
// (world angular-velocity components) except θz of the planar pin, which is an angle.
#pragma once
#include <string>
#include <vector>

#include <achain/dynamics/freeman.hpp>
#include <achain/dynamics/linearize.hpp>

namespace achain {

enum class ClosureKind { PlanarPin, Point, Pose };

/// "planar_pin" | "point" | "pose".
ClosureKind closureKindFromString(const std::string& s);
const char* toString(ClosureKind k);

/// The loop-closure constraint of a single loop: the model's tool frame is tied to `ground`.
struct LoopClosure {
  ClosureKind kind = ClosureKind::PlanarPin;
  SE3 ground;              ///< world pose the free end is tied to (PlanarPin: x, y; Point: p; Pose: p and R)
  std::vector<int> alpha;  ///< the coordinates (indices into q) kept as generalized coordinates, M − N of them
  VecX assembly;           ///< optional nq-vector: a configuration near the closed one (start of the closure)
  /// The constrained rows of the tool's influence (0–2: translation x, y, z; 3–5: rotation about x, y, z; world
  /// frame). Empty: the kind's rows (constrainedRows). Other rows (a slider on the z-axis: x, y, ωx, ωy, ωz) are
  /// for the null-space method of special loops (special_loop.hpp); the model transfer refuses them.
  std::vector<int> rows;
};

/// The loop's constrained rows: `rows`, or the kind's (planar pin x, y; point x, y, z; pose all six).
std::vector<int> constrainedRows(const LoopClosure& loop);

/// Shape of a closure: N, R and the rows of e in the 6-row (translation; rotation) influence order.
int closureSpaceSize(ClosureKind k);        ///< N
int closureConstraintCount(ClosureKind k);  ///< R

/// The closed chain's model at one assembled configuration φ (Freeman §4.1). Index lists are into φ (beta)
/// and into w (y_in_w, c_in_w).
struct ClosedChainModel {
  int M = 0, N = 0, R = 0;
  std::vector<int> alpha, beta;       ///< φ = (α; β)
  std::vector<int> y_in_w, c_in_w;    ///< positions of y = (α; f) and of c inside w = (α; e)
  MatX Ge;                            ///< [G^e_φ]  N×M  (open chain, free end)
  Tensor3 He;                         ///< [H^e_φφ] N×M×M
  MatX Gw_phi;                        ///< [G^w_φ]  M×M  (4-11)
  Tensor3 Hw_phiphi;                  ///< [H^w_φφ] M×M×M (4-17)
  MatX Gphi_w;                        ///< [G^φ_w]  M×M  (4-18)
  Tensor3 Hphi_ww;                    ///< [H^φ_ww] M×M×M (4-20)
  FreemanModel open;                  ///< I*_φφ, P*_φφφ, T^L_φ of the open chain (4-3…4-5)
  FreemanModel w;                     ///< I*_ww, P*_www, T^L_w (4-24…4-28)
  FreemanModel y;                     ///< I*_yy, P*_yyy, T^L_y: the closed chain's own model (4-30)
  MatX Icy;                           ///< I*_cy (R × (M−R))
  Tensor3 Pcyy;                       ///< P*_cyy (R × (M−R) × (M−R))
  VecX TLc;                           ///< T^L_c
};

/// Builds the closed chain's model at the assembled configuration q (the loop must be closed there;
/// closeLoop() does it). qd only enters friction loads. Throws achain::Error naming:
///  * a coordinate choice of the wrong size or not a joint coordinate;
///  * a mobility mismatch, with the Grübler/Kutzbach count M − R and the rank count M − rank[G^c_φ];
///  * a singular [G^e_β] at this configuration (its rank).
void closedChainModel(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q,
                      const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, ClosedChainModel& out);

/// Joint rates of the closed chain from the rates of its coordinates y = (α; f) (ċ = c̈ = 0):
/// φ̇ = [G^φ_w] ẇ, φ̈ = [G^φ_w] ẅ + ẇᵀ[H^φ_ww] ẇ  (3-14), (3-16).
void closedChainRates(const ClosedChainModel& cm, const Eigen::Ref<const VecX>& yd, const Eigen::Ref<const VecX>& ydd,
                      Eigen::Ref<VecX> qd, Eigen::Ref<VecX> qdd);

/// Actuator loads T_y and constraint loads T_c (4-30), (4-31).
void closedChainLoads(const ClosedChainModel& cm, const Eigen::Ref<const VecX>& yd, const Eigen::Ref<const VecX>& ydd,
                      Eigen::Ref<VecX> Ty, Eigen::Ref<VecX> Tc);

/// Closed-chain inverse dynamics in one pass: the same T_y and T_c as closedChainModel + closedChainLoads, from one
/// RNEA of the open chain at the closure's joint rates and the free end's first-order influence, without building
/// I*, P* or their transfer (issue 34). q: an assembled configuration (closeLoop); yd, ydd: rates of y = (α; f).
/// qd, qdd receive the joint rates (as closedChainRates gives them); T_c are the loads the closure carries (4-31).
/// Same checks and messages as closedChainModel. No allocation on the way (N ≤ 6 fixed-size solves, Data scratch).
void closedChainInverseDynamics(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& yd, const Eigen::Ref<const VecX>& ydd,
                                const DynamicsOptions& options, Eigen::Ref<VecX> qd, Eigen::Ref<VecX> qdd,
                                Eigen::Ref<VecX> Ty, Eigen::Ref<VecX> Tc);

/// Re-actuation at the joint coordinates `actuated` (M − R indices into q, any of α and β) (4-32…4-41):
/// Gq_y = [G^q_y], Hq_yy = [H^q_yy] and the model I*_qq, P*_qqq, T^L_q. Throws if [G^q_y] is singular.
void reactuate(const ClosedChainModel& cm, const std::vector<int>& actuated, MatX& Gq_y, Tensor3& Hq_yy,
               FreemanModel& out);

/// Forward dynamics of the closed chain (2-146): ÿ = I*_yy⁻¹ (T_y + T^L_y − ẏᵀP*_yyy ẏ).
void closedChainForwardDynamics(const ClosedChainModel& cm, const Eigen::Ref<const VecX>& yd,
                                const Eigen::Ref<const VecX>& Ty, Eigen::Ref<VecX> ydd);

/// Linearised dynamics of the closed chain in its own coordinates y = (α; f) about a closed configuration q moving
/// with (ẏ, ÿ) (Freeman 2-200…2-252 applied after the model transfer, so the state model is in the kept coordinates;
/// his 3-47 notes the third-order transfer that needs). With T_y = [G^φ_y]ᵀ T_φ(φ, φ̇, φ̈), φ̇ = G^φ_y ẏ and
/// φ̈ = G^φ_y ÿ + ẏᵀ H^φ_yy ẏ:
///   ∂T_y/∂y_k = (∂G^φ_y/∂y_k)ᵀ T_φ + [G^φ_y]ᵀ (∂T_φ/∂φ ∂φ/∂y_k + ∂T_φ/∂φ̇ ∂φ̇/∂y_k + I*_φφ ∂φ̈/∂y_k),
///   ∂T_y/∂ẏ = [G^φ_y]ᵀ (∂T_φ/∂φ̇ G^φ_y + 2 I*_φφ H^φ_yy ẏ),   ∂T_y/∂ÿ = I*_yy,
/// with the open chain's partials from linearizeDynamics and the closure's third order D^φ_yyy from the free end's
/// G, H, D by the inverse-function rule (exact; Freeman evaluates it numerically). out: dT_dq = ∂T_y/∂y,
/// dT_dqd = ∂T_y/∂ẏ, Istar = I*_yy, the state space x = (δy, δẏ), u = δT_y, C = [I 0] (y), D = 0, T = I, and the
/// poles. Throws achain::Error naming: DC motors, tool coordinates or outputs (not done for closed chains), an open
/// loop (q not closed), a loop whose free-end rotation rows are quasi-coordinates (their H is not symmetric:
/// rotations about non-parallel axes; a planar pin on a planar chain is fine), and what closedChainModel refuses.
void linearizeClosedChain(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q,
                          const Eigen::Ref<const VecX>& yd, const Eigen::Ref<const VecX>& ydd,
                          const DynamicsOptions& options, const LinearizeOptions& lin, Linearization& out);

/// Advances the closed chain by dt under constant loads T_y: classical Runge–Kutta steps with step control by step
/// doubling (a step is kept when one step and two half steps agree to 1e-10 in y and 1e-8 of the speed in ẏ; else
/// it is shortened, down to dt·1e-6, below which achain::Error says the motion is too fast to integrate). The
/// coordinates y = (α; θz) of a planar pin, or y = α of a pose closure, are integrated; the joints q are re-closed by
/// closeLoop at every stage (q enters closed and leaves closed at the new y). Where the loop's kept joints α describe it poorly
/// (σ_min/σ_max of [G^e_β] below 0.1: near a configuration where they cannot describe it, such as the five-bar's
/// stretched coupler), the step is integrated in the kept joints that describe it best there (the loads T_y carried
/// over by equal virtual work), and y, ẏ are read back in α: the motion passes through such configurations, and α's
/// angles, unwrapped, turn back or run on as the mechanism does. A point closure is refused: its free rotations are
/// quasi-coordinates. `cm` is scratch and holds the model at the new state on return.
void closedChainStep(const Model& model, Data& data, const LoopClosure& loop, Eigen::Ref<VecX> q, Eigen::Ref<VecX> y,
                     Eigen::Ref<VecX> yd, const Eigen::Ref<const VecX>& Ty, double dt, const DynamicsOptions& options,
                     ClosedChainModel& cm);

/// The coordinates y = (α; θz) (planar pin) or α (pose) of a closed configuration q.
VecX closedChainCoordinates(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q);

/// Loop closure by Newton on the constraint (Uicker's iteration in influence-coefficient form):
/// q holds α (kept) and a start for β (the previous solution, so dragging stays on its branch);
/// β is solved so that c matches the ground and, when `f_target` is non-empty (N − R values: θz for the
/// planar pin; not available for rotations of a spatial closure), f = f_target too; with f_target empty
/// each step is the minimum-norm change of β. Returns the iterations used; throws achain::Error
/// ("loop cannot close …", with the residual) when the closure does not converge.
int closeLoop(const Model& model, Data& data, const LoopClosure& loop, Eigen::Ref<VecX> q,
              const Eigen::Ref<const VecX>& f_target = VecX(), double tol = 1e-12, int max_iter = 50);

/// The free end's components e (PlanarPin: X, Y, θz; Point/Pose: x, y, z only, 3 values) after
/// forwardKinematics (used for reports and by closeLoop).
VecX closureEnd(const Model& model, const Data& data, ClosureKind kind);

}  // namespace achain
