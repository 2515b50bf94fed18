// Numeric IK for any R/P/H/A chain: Levenberg–Marquardt on the chain's own Jacobian (toolJacobian),
// joint limits enforced inside each step (bounded active-set step, not clamping afterwards),
// position/orientation weights, position-only mode, least squares for reduced-mobility chains
// (the nearest reachable pose and its residual), restarts from random seeds.
// Allocation-free per solve: the scratch is the Data's ik block (one Data per thread; FK results in
// the Data are those of the last configuration tried).
#pragma once
#include <random>

#include <achain/ik/ik.hpp>

namespace achain {

/// Solves from `seed` (size nq) with `data`'s scratch. Writes into `out` (out.q is resized once).
/// Analytic warm start (analytic_start, default on): a chain with a closed form (closed_form.hpp: prototype
/// class, wrist-partitioned 6R) first starts from its closed-form solution nearest the seed (inside the
/// limits when they are respected), which LM polishes with the weights; skipped in position-only mode and
/// with the continuity box (max_step > 0). ikAll's numeric multi-start turns it off (a purely numeric solve,
/// the peer the closed forms are checked against). Otherwise, or if that start fails, the seed's start runs
/// first and is returned if it reaches the target (continuity: no branch flips while dragging). With
/// options.restarts > 0, random starts follow only if it fails — first near the seed, then uniform
/// over the limits; a start stuck against a bound is retried without limits and its periodic joints
/// shifted by whole periods into the limits when that fits. The first success is returned.
/// Status: ok, unreachable (q = best least-squares configuration, residual = its weighted error),
/// limits (the target is reached only when limits are ignored; q is that configuration).
/// Throws Error for a malformed seed; the target must come from checkTarget().
void ikNumeric(const Model& model, Data& data, const SE3& target, const VecX& seed, const IkOptions& options,
                  IkResult& out, bool analytic_start = true);

/// Convenience overload (allocates a Data).
IkResult ikNumeric(const Model& model, const SE3& target, const VecX& seed, const IkOptions& options = {});

}  // namespace achain
