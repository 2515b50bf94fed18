// DH extraction: a standard-DH description of a chain whose joints are placed by origin/axis (URDF), where the
// chain admits one — the form the closed-form IK solvers read (ik/closed_form.hpp).
//
// Construction (the common-normal construction of the standard convention, Corke's / Spong's):
//   * the moving joints on the path from the base to the tool link, in order, are the DH joints; fixed joints
//     on that path are rigid offsets and vanish into the neighbouring DH constants (or the base/tool transform);
//   * frame k−1 has z along joint k's axis (the joint's own direction, so the direction sign is kept);
//     frame k sits where the common normal of axes k and k+1 meets axis k+1, x along that normal (from axis k
//     to axis k+1); intersecting axes: x = z_{k−1} × z_k; parallel axes: the normal through frame k−1's origin
//     (d_k = 0); coincident axes: x kept from frame k−1;
//   * frame 0 (the DH base) is on axis 1 at the foot of the perpendicular from the model's base origin, its
//     x along the base's x (or y) projected off the axis; the last frame is on the last axis at the foot of
//     the perpendicular from the last link's origin, α_n = a_n = 0; base and tool transforms absorb the rest;
//   * θ_f and d absorb the joint's value at q = 0, so the DH chain and the model agree at every q.
// The result is verified: FK of the DH chain equals FK of the model (the tool and every moving link, by the
// constant link-frame offset) at q = 0 and 8 pseudo-random configurations, to 1e-12 relative to the chain's size.
//
// Not admissible (the reason names the joint): a moving joint off the path to the tool (a tree with more than
// one moving branch), a mimic coupling on the path (DH has one coordinate per joint), constants outside the
// physical range (nearly parallel axes put the common normal kilometres away). Every rigid offset between two
// joints is expressible: the common-normal construction plus base and tool transforms always exists.
//
// The DH chain is a kinematic description (no inertials, no geometry): the model itself stays the reference
// for dynamics and drawing.
#pragma once
#include <string>
#include <vector>

#include <achain/model/model.hpp>

namespace achain {

struct DHExtraction {
  bool ok = false;
  std::string reason;      ///< why the chain admits no DH description (ok = false)
  Model model;             ///< ok: the standard-DH chain (has_dh), one joint per moving joint of the path
  std::vector<int> joints; ///< ok: DH joint k is the model's joint joints[k]
  double fk_error = 0;     ///< ok: the largest FK difference of the check (rad; positions relative to the chain's size)
};

/// The standard-DH description of m (m itself when every joint is already placed by standard DH constants).
DHExtraction extractDH(const Model& m);

/// "given" (placed by DH constants), "extracted" (extractDH succeeds), or "none (reason)".
std::string dhStatus(const Model& m);

}  // namespace achain
