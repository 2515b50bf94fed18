// Scratch workspace for the algorithms: sized once from a Model, reused every call.
#pragma once
#include <vector>

#include <achain/model/model.hpp>

namespace achain {

struct Data {
  explicit Data(const Model& m);

  std::vector<SE3> oMi;    ///< world ← link frame i (after FK)
  std::vector<SE3> oMj;    ///< world ← axis frame of joint i (z = joint axis, before its motion)
  SE3 oMtool;              ///< world ← tool frame
  std::vector<double> theta;  ///< total rotation about the joint axis (θ_f + s·q)
  std::vector<double> dz;     ///< total translation along the joint axis
  std::vector<double> rot_rate;    ///< ∂θ/∂q: s for R/H/A, 0 for P
  std::vector<double> axial_rate;  ///< ∂dz/∂q: 0 (R), s (P), pitch·s (H), (ρ/2)·cos(q/2) (A)
};

}  // namespace achain
