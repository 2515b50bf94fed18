// MJCF export (docs/robot-format.md, "MJCF export"): an achain model written as a MuJoCo XML file.
#pragma once
#include <string>
#include <vector>

#include <achain/model/model.hpp>

namespace achain {

/// Writes an achain model as MuJoCo's MJCF: one body per joint's link, nested as the tree and placed so that
/// MuJoCo's qpos equals achain's q (θ_f, d and the base folded into the body frames; qpos0 = 0); R joints as
/// hinges and P joints as slides with their axis, range and limited; fixed joints as bodies without a joint;
/// inertials (principal pos/quat, mass, diaginertia); the gravity; a site "tool" at the tool frame; simple
/// visual geoms (the model's box/cylinder/sphere shapes, or capsules along the links; meshes are warned) with
/// contype = conaffinity = 0 so that contacts never perturb the dynamics. A joint with an axial law (A, H,
/// law) becomes a hinge plus a slide "<name>_slide" on the same axis, tied by
/// <equality><joint joint1="<name>_slide" joint2="<name>" polycoef="…"/>: exact for H and polynomial laws
/// (degree ≤ 4), and for the A-pair's ρ·sin(u/2) a quartic least-squares fit over the joint's position range
/// (Chebyshev nodes), its maximum error reported in `warnings`. Mimic joints are tied to their leader by a
/// linear joint equality. What MJCF does not carry (velocity/effort/acceleration limits, motor data, A-pair
/// leg masses) is listed in `warnings` when given. An A-pair or sine law joint without a finite range, or a
/// one-sided position limit, throws achain::Error naming the joint.
std::string modelToMjcf(const Model& m, std::vector<std::string>* warnings = nullptr);

}  // namespace achain
