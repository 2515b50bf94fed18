// The rows of a closure's free end e in the influence order (0–2 translation, 3–5 rotation), constrained ones first
// within e's own order: e = (X, Y, θz) for the planar pin, (x, y, z, ωx, ωy, ωz) in space. Shared by the loop
// transfer (loop_closure.cpp) and its linearisation (closed_linearize.cpp).
#pragma once
#include <achain/closed_chains/loop_closure.hpp>

namespace achain::detail {

inline int closureEndRow(ClosureKind k, int i) {
  constexpr int planar[3] = {0, 1, 5};
  return k == ClosureKind::PlanarPin ? planar[i] : i;
}

}  // namespace achain::detail
