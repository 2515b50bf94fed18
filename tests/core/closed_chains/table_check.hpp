// Comparing computed arrays with printed tables (Freeman's App. C/E): every entry within a tolerance, the
// differing entries reported; a plane's symmetric part (P* planes are compared symmetrized).
#pragma once
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <initializer_list>

#include <achain/math/tensor3.hpp>

namespace achain::test {

/// Entry (i, j) of the computed array given by a function (e.g. converted to the table's units).
inline bool withinAt(const std::function<double(int, int)>& A, std::initializer_list<std::initializer_list<double>> ref,
                   double tol) {
  int i = 0;
  bool ok = true;
  for (const auto& row : ref) {
    int j = 0;
    for (double v : row) {
      if (std::abs(A(i, j) - v) > tol) {
        UNSCOPED_INFO("(" << i << "," << j << ") = " << A(i, j) << ", expected " << v);
        ok = false;
      }
      ++j;
    }
    ++i;
  }
  return ok;
}

inline bool within(const MatX& A, std::initializer_list<std::initializer_list<double>> ref, double tol) {
  return withinAt([&A](int i, int j) { return A(i, j); }, ref, tol);
}

inline MatX symPlane(const Tensor3& T, int p) { return 0.5 * (T.plane(p) + T.plane(p).transpose()); }

}  // namespace achain::test
