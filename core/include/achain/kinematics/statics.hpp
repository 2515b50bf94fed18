// Statics (handbook §1.13, Eq. H-57/H-58): joint efforts that balance a tool wrench, τ = Jᵀ·F,
// and the velocity / force ellipsoids of the (linear part of the) Jacobian.
#pragma once
#include <achain/kinematics/jacobian.hpp>

namespace achain {

/// τ = Jᵀ·F for the wrench F = (f; m) that the tool exerts on its environment (= −external load,
/// Eq. H-58), at the tool origin, in the base frame (or the tool frame). τ_i is N·m for R/H/A joints
/// (the generalized force conjugate to θ_v for an A-pair, including its axial screw term ρ/2·cos(θ_v/2)·f_z)
/// and N for P joints. Allocation-free except for the returned vector.
VecX staticTorques(const Model& model, const Data& data, const Vec6& wrench, Frame frame = Frame::Base);

/// The same with a Jacobian already at hand: τ = Jᵀ F. tau must have J.cols() entries.
void staticTorques(const MatX& J, const Vec6& wrench, Eigen::Ref<VecX> tau);

/// An ellipsoid { x = Σ r_i·c_i·axes.col(i) : Σ c_i² ≤ 1 } (radii descending for the velocity one).
struct Ellipsoid {
  MatX axes;   ///< unit principal directions (columns), task space
  VecX radii;  ///< semi-axis lengths (+inf where the direction costs no joint effort)
};

/// Velocity ellipsoid of J (m×n): task velocities reachable with ‖q̇‖ ≤ 1. radii = σ_i.
Ellipsoid velocityEllipsoid(const MatX& J);

/// Force ellipsoid of J: task forces balanced by ‖τ‖ ≤ 1, {F : Fᵀ(J Jᵀ)F ≤ 1}. Same axes, radii 1/σ_i
/// (+inf along directions the structure bears alone: the singular directions).
Ellipsoid forceEllipsoid(const MatX& J);

}  // namespace achain
