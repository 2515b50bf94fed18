// Chosen rows of a frame's influence coefficients (0–2 translation, 3–5 rotation): the free end e of a closure,
// a leg's platform coordinates w, the constrained rows c of a special loop.
#pragma once
#include <achain/kinematics/influence.hpp>
#include <achain/model/model.hpp>

#include <algorithm>

namespace achain::detail {

/// G (n × nv) and H (n × nv × nv) take rows row(0…n−1) of inf.G and planes of inf.H; resized as needed.
template <class RowOf>
void influenceRows(const Influence& inf, int n, RowOf row, MatX& G, Tensor3& H) {
  const int nv = static_cast<int>(inf.G.cols());
  G.resize(n, nv);
  H.resize(n, nv, nv);
  for (int i = 0; i < n; ++i) {
    G.row(i) = inf.G.row(row(i));
    H.plane(i) = inf.H.plane(row(i));
  }
}

/// A loop's length scale for relative closure residuals: the chain's constant offsets (joint frames and tool). A
/// closed loop's tool may sit on its base, so the tool's distance from the base is no scale.
inline double chainReach(const Model& model) {
  double s = model.tool.p.norm();
  for (size_t i = 0; i < model.jmodels.size(); ++i) s += model.jmodels[i].pre.toSE3().p.norm() + model.jmodels[i].post.toSE3().p.norm();
  return std::max(1e-9, s);
}

}  // namespace achain::detail
