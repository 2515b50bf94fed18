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
};

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

/// Re-actuation at the joint coordinates `actuated` (M − R indices into q, any of α and β) (4-32…4-41):
/// Gq_y = [G^q_y], Hq_yy = [H^q_yy] and the model I*_qq, P*_qqq, T^L_q. Throws if [G^q_y] is singular.
void reactuate(const ClosedChainModel& cm, const std::vector<int>& actuated, MatX& Gq_y, Tensor3& Hq_yy,
               FreemanModel& out);

/// Forward dynamics of the closed chain (2-146): ÿ = I*_yy⁻¹ (T_y + T^L_y − ẏᵀP*_yyy ẏ).
void closedChainForwardDynamics(const ClosedChainModel& cm, const Eigen::Ref<const VecX>& yd,
                                const Eigen::Ref<const VecX>& Ty, Eigen::Ref<VecX> ydd);

/// One classical Runge–Kutta step of the closed chain under constant loads T_y. The coordinates y = (α; θz) of a
/// planar pin, or y = α of a pose closure, are integrated; the joints q are re-closed by closeLoop at every stage
/// (q enters closed and leaves closed at the new y). A point closure is refused: its free rotations are
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

namespace achain {

// ---- Parallel mechanisms: legs summed into a platform (Freeman §IV.B, 4-42…4-64; digest §4.3, App. E) ----
// Every leg r is an open chain (its own Model) with as many coordinates as the platform has freedoms
// (N = 3 in the plane: w = (x, y, θz) of the leg's tool; N = 6 in space: (x, y, z, ωx, ωy, ωz)), all
// legs' tools being the same platform point and frame. Each leg's model is transferred to w and summed:
//   [_rG^φ_w] = [_rG^w_φ]⁻¹, [_rH^φ_ww] (4-43…4-45);  I*_ww = I_ww + Σ_r _rI*_ww,  P*_www = P_www + Σ_r _rP*_www,
//   T^L_w = T^L_platform + Σ_r _rT^L_w  (4-46…4-49)
// with the platform's own terms (4-50…4-54) for a platform whose centroid is the w point: I_ww = diag(m, m, Izz)
// in the plane (P_www = 0), diag(m I₃, II) in space with planes 4–6 of P_www giving ω × IIω; its weight
// T^L_platform = (m g; 0), g the first leg's gravity (or the options' override).
// Actuated at one joint per row, q_n = _rφ_m: [G^q_w] row n = [_rG^φ_w] row m, [H^q_ww] plane n = [_rH^φ_ww]
// plane m (4-55…4-60); then I*_qq, P*_qqq, T^L_q by the transfer (4-61…4-64).

/// The platform's mass and centroidal inertia (world frame), centroid at the legs' common tool point.
struct PlatformInertia {
  double mass = 0;
  Mat3 inertia = Mat3::Zero();
};

struct ParallelModel {
  int N = 0;                          ///< platform freedoms (3 planar, 6 spatial)
  std::vector<MatX> Gphi_w;           ///< per leg [_rG^φ_w]  N×N
  std::vector<Tensor3> Hphi_ww;       ///< per leg [_rH^φ_ww] N×N×N
  std::vector<FreemanModel> legs_w;   ///< per leg _rI*_ww, _rP*_www, _rT^L_w
  std::vector<MatX> Gw_phi;           ///< per leg [_rG^w_φ]  N×N (the leg's own influence of w, 4-42)
  std::vector<Tensor3> Hw_phiphi;     ///< per leg [_rH^w_φφ] N×N×N
  std::vector<FreemanModel> legs_phi; ///< per leg _rI*_φφ, _rP*_φφφ, _rT^L_φ in its own joints
  FreemanModel w;                     ///< the summed model in w, platform included
};

/// Builds the parallel model. legs[r] with its Data datas[r] at coordinates q[r]; `planar` selects w = (x, y, θz).
/// Throws achain::Error naming the leg: a leg whose coordinate count is not N, a singular [_rG^w_φ].
void parallelModel(const std::vector<const Model*>& legs, std::vector<Data>& datas, const std::vector<VecX>& q,
                   bool planar, const PlatformInertia& platform, const DynamicsOptions& options, ParallelModel& out);

/// The rows of [G^q_w] and planes of [H^q_ww] for actuators at (leg r, coordinate m of that leg), any number Q of
/// them (4-56…4-60): Q = N for parallelActuate, Q > N for an over-constrained split (overconstrainedTransfer).
/// Throws achain::Error naming the entry ("actuated[2]: no joint 7 on leg 1").
void parallelActuationRows(const ParallelModel& pm, const std::vector<std::pair<int, int>>& actuated, MatX& Gq_w,
                           Tensor3& Hq_ww);

/// Actuation at one joint per entry (leg r, coordinate m of that leg), N entries (4-55…4-64).
void parallelActuate(const ParallelModel& pm, const std::vector<std::pair<int, int>>& actuated, MatX& Gq_w,
                     Tensor3& Hq_ww, FreemanModel& out);

}  // namespace achain

namespace achain {

// ---- Redundant and over-constrained actuation (Freeman §IV.C, §IV.D; digest §4.4, §4.5) ----

/// Redundant system (M inputs q drive N < M task coordinates u, u̇ = [G^u_q] q̇): the kinetic-energy-weighted
/// right pseudo-inverse [G^q_u] = I*⁻¹Gᵀ(G I*⁻¹ Gᵀ)⁻¹ (4-70), [H^q_uu] = −[G^q_u]ᵀ([G^q_u] ∘ [H^u_qq])[G^q_u] (4-72),
/// and the partial transfer of the loads, T_q = I*_qu ü + u̇ᵀP*_quu u̇ − T^L_q (4-73…4-75):
/// I*_qu = I*_qq [G^q_u] (M×N), P*_quu = [G^q_u]ᵀ{P*_qqq − (I*_qu ∘ [H^u_qq])}[G^q_u] (M×N×N, plane-wise).
struct RedundantTransfer {
  MatX Gq_u;      ///< M×N
  Tensor3 Hq_uu;  ///< M×N×N
  MatX Iqu;       ///< M×N
  Tensor3 Pquu;   ///< M×N×N
};
void redundantTransfer(const MatX& Gu_q, const Tensor3& Hu_qq, const FreemanModel& model_q, RedundantTransfer& out);

/// Over-constrained system (Q > N actuators q hold a body whose model is in u, q̇ = [G^q_u] u̇): the minimum-norm
/// load split T_q = [G^u_q]^{-LT} T_u with [G^u_q]^{-LT} = [G^q_u]([G^q_u]ᵀ[G^q_u])⁻¹ (4-85, 4-86) and the partial
/// transfer I*_qu = [G^u_q]^{-LT} I*_uu, P*_quu = [G^u_q]^{-LT} ∘ P*_uuu, T^L_q = [G^u_q]^{-LT} T^L_u (4-87…4-90).
/// `out` holds I*_qu (Q×N), P*_quu (Q×N×N), T^L_q (Q).
void overconstrainedTransfer(const MatX& Gq_u, const FreemanModel& model_u, FreemanModel& out);

}  // namespace achain
