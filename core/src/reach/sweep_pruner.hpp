// The last sweep of Robinson's algorithm, pruned (internal to core/src/reach).
//
// The last sweep (the base joint) does nearly all the work: every source point x is moved by every step's
// motion M_k = A·Rz(Δθ_k)·Tz(Δd_k)·A⁻¹ and the voxel of M_k·x is marked. Only the output bits matter there,
// and almost every point lands in a voxel that is already set (98.6 % for the prototype at 1/8 in).
// The pruner skips the points that provably cannot add a voxel, without changing which voxels are set:
//
//  * Space around the joint axis (frame A) is cut into cylindrical bins (ρ and z of edge w = kBin voxels,
//    φ of arc ≤ w at the largest source radius).
//  * A bin is *full* when every voxel of the grid box that meets the bin's bounding box (grown by ε) is set.
//    The set only grows, so a full bin stays full, and a voxel row found full stays full: each bin keeps how
//    many rows of its box were found full and resumes there, so checking a bin costs O(1) amortised.
//    Bins are checked lazily, when a chunk of steps needs them.
//  * A source at cylindrical (ρ, φ, z) in frame A moves to (ρ, φ + Δθ_k, z + Δd_k) at step k. For a chunk of
//    steps the pruner bounds Δθ and Δd over the chunk; if every bin of that (ρ, φ, z) range is full, all the
//    chunk's points lie in set voxels and the chunk is skipped. Otherwise its points are moved and marked
//    exactly as the plain sweep does (same floating-point expression, so the same voxels).
//
// ε (far above the rounding of the motions and of the cylindrical coordinates) covers the difference
// between a computed point and its exact position. The voxel set, the `outside` count and the reported
// evaluations are those of the plain sweep; the pruner only saves time.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include <achain/math/types.hpp>
#include <achain/reach/voxel_set.hpp>

namespace achain::reach_detail {

/// A 3×4 rigid motion applied to many points (the per-step motions of a sweep).
struct Motion {
  Mat3 R;
  Vec3 t;
  Vec3 apply(const Vec3& x) const { return R * x + t; }
};

class SweepPruner {
 public:
  static constexpr int kBin = 3;      ///< bin edge (ρ, z), voxels
  static constexpr int kChunk = 8;    ///< steps per chunk
  static constexpr int kSuper = 8;    ///< chunks per super-chunk

  /// Prepares the pruner for a sweep about joint frame A (at the swept joint's lower limit) with the
  /// given per-step rotations and axial shifts (relative to the lower limit), for the sources
  /// reps[src_begin, src_end), on the output grid G. Allocates here, never in run().
  void start(const SE3& A, const std::vector<double>& dtheta, const std::vector<double>& dz,
             const std::vector<Vec3>& reps, size_t src_begin, size_t src_end, const VoxelSet& G);

  /// Moves source i (of the sources given to start, at x) by every step, skipping the chunks of steps that
  /// cannot add a voxel, and marks G. Returns the points actually moved; `outside` counts moved points that
  /// left the grid.
  ///
  /// Threads may call run at once on one pruner, each with a Share: voxels are then set with atomic ORs and the
  /// bins' states are read and written as whole atomic words. The set only grows, so whatever a bin's state
  /// says (even one another thread has since overtaken) holds: a bin read as full is full, and the voxels are
  /// those of one thread. Only how much is pruned varies from run to run; the caller adds it up (the points not
  /// moved) and reports it with addPruned, and adds the voxels set to G's count (G.addCount).
  struct Share {
    size_t part = 0, parts = 1;  ///< this thread's share of every source's steps: a contiguous run of super-chunks
    size_t inserted = 0;         ///< voxels this thread set
  };
  size_t run(size_t i, const Vec3& x, const std::vector<Motion>& motions, VoxelSet& G, size_t& outside,
             Share* share = nullptr);

  size_t pruned() const { return pruned_; }
  void addPruned(size_t n) { pruned_ += n; }
  /// Bytes the pruner holds for a sweep with this many bins (for the job's memory estimate).
  static double bytesPerBin() { return sizeof(BinState) + 1.0 / 8; }

 private:
  bool rangeFull(const VoxelSet& G, double rho, double phi0, double phi1, double z0, double z1);
  bool binFull(const VoxelSet& G, size_t row, long f);
  static bool rowSet(const uint64_t* words, int64_t c0, int64_t len);

  Mat3 R_, RT_, absR_;  // A.R, its transpose (world → local), |A.R| (for boxes)
  Vec3 p_;              // A.p
  double w_ = 0, inv_w_ = 0, dphi_ = 0, inv_dphi_ = 0, zlo_ = 0, eps_ = 0;
  long nr_ = 0, nz_ = 0, nphi_ = 0, words_ = 0;
  std::vector<uint64_t> full_;     // bit per bin, rows (zb, r) of nphi_ bits
  // Per bin, one word (read and written whole, atomically when shared): rows of its voxel box found full
  // (bits 32–47; kNever: the box meets the grid box's edge), and the first voxel (bits 0–31) and length
  // (bits 48–55; 0: the bin's box is not computed yet) of the row that was not: a retry tests that row alone
  // until it is full.
  using BinState = uint64_t;
  std::vector<BinState> bins_;
  std::vector<double> cos_, sin_;  // of the φ bin edges
  // per chunk (and super-chunk): the range of Δθ and Δd over its steps
  std::vector<double> cth_lo_, cth_hi_, cdz_lo_, cdz_hi_;
  std::vector<double> sth_lo_, sth_hi_, sdz_lo_, sdz_hi_;
  std::vector<Vec3> cyl_;          // per source: ρ, φ, z in frame A
  size_t src_begin_ = 0;
  size_t steps_ = 0;
  size_t pruned_ = 0;
};

}  // namespace achain::reach_detail
