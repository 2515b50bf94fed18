// A set of voxels on a global cubic lattice: voxel (i, j, k) is the cube
// origin + voxel·([i, i+1) × [j, j+1) × [k, k+1)) in the base (world) frame.
// Storage is a dense bitset over a box of lattice indices; two sets on the same lattice
// (same voxel size and origin) can be compared whatever their boxes.
#pragma once
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <achain/math/types.hpp>

namespace achain {

using Vec3i = Eigen::Vector3i;

namespace detail {
/// ⌊x⌋ as an integer, for |x| < 2⁶²: the value std::floor gives, without a libm call (baseline x86-64 has no
/// SSE4.1 round instruction, so std::floor is a function call in the voxel loops).
inline int64_t floorToInt(double x) {
  const int64_t i = int64_t(x);  // truncation toward zero
  return i - int64_t(double(i) > x);
}
}  // namespace detail

class VoxelSet {
 public:
  VoxelSet() = default;
  /// An empty set whose box covers [lo_point, hi_point] (plus one cell of margin).
  /// Throws achain::Error naming `voxel` if the box would exceed max_cells.
  VoxelSet(double voxel, const Vec3& origin, const Vec3& lo_point, const Vec3& hi_point, double max_cells);
  /// The cells such a set's box would have (allocates nothing): for estimates made before a job starts.
  static double cellsFor(double voxel, const Vec3& origin, const Vec3& lo_point, const Vec3& hi_point);

  double voxel() const { return voxel_; }
  const Vec3& origin() const { return origin_; }
  const Vec3i& lo() const { return lo_; }      ///< lattice index of the box's first cell
  const Vec3i& dims() const { return dims_; }  ///< box size in cells
  int64_t cells() const { return int64_t(dims_[0]) * dims_[1] * dims_[2]; }
  size_t count() const { return count_; }
  double volume() const { return double(count_) * voxel_ * voxel_ * voxel_; }

  /// Linear index in the box of the cell containing p, or −1 outside the box.
  int64_t cellOf(const Vec3& p) const {
    const double x = (p.x() - origin_.x()) * inv_, y = (p.y() - origin_.y()) * inv_, z = (p.z() - origin_.z()) * inv_;
    if (!(std::abs(x) < 4e18 && std::abs(y) < 4e18 && std::abs(z) < 4e18)) return -1;  // far outside (or NaN)
    const int64_t i = detail::floorToInt(x) - lo_[0], j = detail::floorToInt(y) - lo_[1], k = detail::floorToInt(z) - lo_[2];
    if (i < 0 || j < 0 || k < 0 || i >= dims_[0] || j >= dims_[1] || k >= dims_[2]) return -1;
    return i + int64_t(dims_[0]) * (j + int64_t(dims_[1]) * k);
  }
  /// The same cell as cellOf(p), also giving its box indices (i, j, k).
  int64_t cellOf(const Vec3& p, Vec3i& ijk) const {
    const double x = (p.x() - origin_.x()) * inv_, y = (p.y() - origin_.y()) * inv_, z = (p.z() - origin_.z()) * inv_;
    if (!(std::abs(x) < 4e18 && std::abs(y) < 4e18 && std::abs(z) < 4e18)) return -1;  // far outside (or NaN)
    const int64_t i = detail::floorToInt(x) - lo_[0], j = detail::floorToInt(y) - lo_[1], k = detail::floorToInt(z) - lo_[2];
    if (i < 0 || j < 0 || k < 0 || i >= dims_[0] || j >= dims_[1] || k >= dims_[2]) return -1;
    ijk = Vec3i(int(i), int(j), int(k));
    return i + int64_t(dims_[0]) * (j + int64_t(dims_[1]) * k);
  }
  bool test(int64_t c) const { return (bits_[size_t(c) >> 6] >> (c & 63)) & 1u; }
  /// Sets cell c; true if it was empty.
  bool insert(int64_t c) {
    uint64_t& w = bits_[size_t(c) >> 6];
    const uint64_t m = uint64_t(1) << (c & 63);
    if (w & m) return false;
    w |= m;
    ++count_;
    return true;
  }
  /// Thread-safe test, for use while other threads call insertAtomic.
  bool testRelaxed(int64_t c) const { return (__atomic_load_n(&bits_[size_t(c) >> 6], __ATOMIC_RELAXED) >> (c & 63)) & 1u; }
  /// Thread-safe set (atomic OR); true if this call set it. The count is not kept: after a parallel phase
  /// addCount() the cells the threads set (or recount()).
  bool insertAtomic(int64_t c) {
    const uint64_t m = uint64_t(1) << (c & 63);
    return !(__atomic_fetch_or(&bits_[size_t(c) >> 6], m, __ATOMIC_RELAXED) & m);
  }
  void addCount(size_t n) { count_ += n; }
  void recount();
  /// ORs another set with the same box into this one.
  void merge(const VoxelSet& o);
  void clear();

  Vec3i lattice(int64_t c) const;               ///< global lattice index of box cell c
  int64_t cellOfLattice(const Vec3i& ijk) const;  ///< box cell of a lattice index, or −1
  bool containsLattice(const Vec3i& ijk) const {
    const int64_t c = cellOfLattice(ijk);
    return c >= 0 && test(c);
  }
  Vec3 centre(int64_t c) const;
  Vec3 corner(int64_t c) const;  ///< the voxel's minimum corner

  /// Calls f(c) for every occupied cell, in increasing linear order.
  template <class F>
  void forEach(F&& f) const {
    for (size_t w = 0; w < bits_.size(); ++w) {
      uint64_t b = bits_[w];
      while (b) {
        const int t = __builtin_ctzll(b);
        f(int64_t(w) * 64 + t);
        b &= b - 1;
      }
    }
  }
  /// Occupied lattice-index bounds; false if empty.
  bool latticeBounds(Vec3i& min, Vec3i& max) const;
  /// Axis-aligned bounds of the occupied voxels (outer faces), metres.
  bool bounds(Vec3& min, Vec3& max) const;

  const std::vector<uint64_t>& words() const { return bits_; }

 private:
  double voxel_ = 0, inv_ = 0;
  Vec3 origin_ = Vec3::Zero();
  Vec3i lo_ = Vec3i::Zero(), dims_ = Vec3i::Zero();
  std::vector<uint64_t> bits_;
  size_t count_ = 0;
};

/// Overlap of two workspaces on the same lattice (e.g. an A-chain and its R twin, thesis §3.5).
struct VoxelOverlap {
  size_t a = 0, b = 0, both = 0, either = 0;
  double jaccard() const { return either ? double(both) / double(either) : 1.0; }
  size_t onlyA() const { return a - both; }
  size_t onlyB() const { return b - both; }
};
/// Throws achain::Error if the lattices differ (voxel size or origin).
VoxelOverlap voxelOverlap(const VoxelSet& a, const VoxelSet& b);
/// The shared voxels as a set on a's box.
VoxelSet voxelIntersection(const VoxelSet& a, const VoxelSet& b);
/// Voxels of a within `reach` lattice steps (Chebyshev) of some voxel of b: a measure of how far
/// two approximations of the same workspace disagree (1 = face/edge/corner neighbours).
size_t voxelsNear(const VoxelSet& a, const VoxelSet& b, int reach);

/// The slab of voxels crossed by the plane {axis = value}: a 2-D occupancy image.
struct VoxelSection {
  int axis = 2;          ///< 0 = x, 1 = y, 2 = z (the plane's normal)
  int layer = 0;         ///< lattice index along `axis`
  double coordinate = 0; ///< centre of that layer, metres
  int u_axis = 0, v_axis = 1;
  int u_lo = 0, v_lo = 0;  ///< lattice index of image column/row 0
  int nu = 0, nv = 0;
  std::vector<uint8_t> occupied;  ///< row-major: occupied[v·nu + u]
  size_t count = 0;
  double area() const;            ///< count · voxel², m²
  double voxel = 0;
};
VoxelSection voxelSection(const VoxelSet& s, int axis, double value);

/// Boundary surface of the voxel set (faces between occupied and empty voxels), as an indexed
/// triangle mesh with shared vertices, outward-facing (counter-clockwise seen from outside).
struct VoxelMesh {
  std::vector<float> positions;   ///< xyz per vertex, metres
  std::vector<uint32_t> indices;  ///< three per triangle
  size_t vertices() const { return positions.size() / 3; }
  size_t triangles() const { return indices.size() / 3; }
};
VoxelMesh voxelSurfaceMesh(const VoxelSet& s);

/// Voxel centres as xyz floats; surface_only keeps the voxels with an empty face neighbour.
std::vector<float> voxelCentres(const VoxelSet& s, bool surface_only);

/// The centres of voxelCentres(s, surface_only) whose voxel `other` (same lattice) contains (shared = true) or
/// does not contain (shared = false): an overlap's shared part and s's own part, drawn in two colours.
std::vector<float> voxelCentres(const VoxelSet& s, bool surface_only, const VoxelSet& other, bool shared);

/// Number of voxels with at least one empty face neighbour.
size_t surfaceVoxelCount(const VoxelSet& s);

/// Writers: ASCII PLY (the surface mesh, or the voxel centres as points when as_points).
void writeVoxelPly(const VoxelSet& s, const std::string& path, bool as_points = false);

}  // namespace achain
