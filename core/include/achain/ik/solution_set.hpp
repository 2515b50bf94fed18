// The solutions of one IK solve, for every method (IkSolutionSet), and the one collector that fills it
// (ik_detail::IkCollector): each candidate is verified (the caller's pose errors, or FK), its periodic
// representative inside the limits nearest the seed is chosen, duplicates are removed; inside the limits
// first, then outside, each block nearest the seed first. toIkAllResult turns a set into an IkAllResult
// (status ok / limits / singular / unreachable with the nearest least-squares pose).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <achain/ik/closed_common.hpp>
#include <achain/ik/ik.hpp>

namespace achain {

/// Configuration flags of a closed-form solution (bits). Wrist-partitioned 6R only; 0 for the prototype class.
enum ClosedIkFlag : std::uint8_t {
  kIkArmRight = 1,       ///< arm right (else left)
  kIkElbowUp = 2,        ///< elbow up (else down)
  kIkWristNoflip = 4,    ///< wrist noflip (else flip)
  kIkWristSingular = 8,  ///< wrist singular (sin θ5 = 0)
  kIkHasFlags = 16,      ///< the flags above are meaningful
};

/// Which case of the closed form produced the set (ikAll turns it into IkAllResult::note).
enum class ClosedIkCase : std::uint8_t {
  Regular,                 ///< the regular closed form
  OrientationUnreachable,  ///< prototype class: the orientation is not reachable by the axis geometry
  ShoulderOutOfReach,      ///< 6R: the wrist centre is out of reach of the shoulder offset
  ScannedApproach,         ///< prototype class, approach ∥ axis 1: isolated solutions found by scanning θ₁
  Family,                  ///< prototype class, approach ∥ axis 1: a one-parameter family (status singular)
  FreeAngle,               ///< 6R: wrist centre on axis 1 or sin θ₅ = 0; the free angle from the seed
};

namespace ik_detail {

/// N elements inside the object, on the heap beyond: allocates only when asked for more than it holds.
template <class T, int N>
class SmallBuffer {
 public:
  T* data() { return heap_.empty() ? small_.data() : heap_.data(); }
  const T* data() const { return heap_.empty() ? small_.data() : heap_.data(); }
  int size() const { return heap_.empty() ? N : static_cast<int>(heap_.size()); }
  /// Room for n elements; the first `keep` are kept.
  void grow(int n, int keep) {
    if (n <= size()) return;
    std::vector<T> h(static_cast<size_t>(n));
    std::copy(data(), data() + keep, h.begin());
    heap_.swap(h);
  }

 private:
  std::array<T, N> small_{};
  std::vector<T> heap_;
};

class IkCollector;

}  // namespace ik_detail

/// Every solution of one IK solve: q stored flat (nq per solution), inside the limits first (nearest the seed
/// first), then outside. Holds 64 solutions of up to 6 coordinates without allocating; beyond, reserve()
/// (or the collector, when the set is full) allocates, and a set reused at that size allocates no more.
class IkSolutionSet {
 public:
  static constexpr int kRejected = 6;  ///< the nearest misses kept (least-squares starts)

  /// Solution k as stored: a view, valid until the set is filled again.
  struct Solution {
    Eigen::Map<const VecX> q;      ///< nq coordinates
    double position_error;         ///< m (the verification's |Δp|)
    double orientation_error;      ///< rad
    bool within_limits;
    std::uint8_t flags;            ///< ClosedIkFlag bits (closed-form 6R; 0 otherwise)
  };

  IkStatus status = IkStatus::Unreachable;
  int count = 0;       ///< solutions sol(0 .. count)
  int n_inside = 0;    ///< sol(0 .. n_inside) inside the limits, then outside
  int n_rejected = 0;  ///< candidates that missed the target, rejected(0 .. n_rejected), nearest first

  /// Closed form: the case, and the family (status singular) q(t) = family_q0 + t·family_dir (first nq used).
  struct Closed {
    ClosedIkCase kase = ClosedIkCase::Regular;
    std::array<double, 6> family_q0{}, family_dir{};
  } closed;
  /// General 6R (ikGeneral6R).
  struct General6R {
    bool degenerate = false;  ///< no formulation was regular: nothing was solved (route elsewhere)
    int formulation = -1;     ///< which of the 12 loop formulations was used (0: the Raghavan–Roth split 3-4-5 | 1-2)
    int real_roots = 0;       ///< eigenvalues taken as real (candidates before polishing and merging)
  } general6r;
  /// Orientation sweep (ikSweep).
  struct Sweep {
    int sweep_joint = -1;  ///< the joint held and sampled
    int samples = 0;       ///< values of it visited
    int branches = 0;      ///< orientation branches followed (2 × the period branches of the other joints)
    int candidates = 0;    ///< local minima polished
  } sweep;
  /// 3R3P (ikThreeRThreeP).
  struct ThreeRThreeP {
    bool degenerate = false;  ///< no isolated solutions for this arm or target: nothing was solved (route elsewhere)
    const char* why = "";     ///< the degenerate case (a static string)
    int orientation_roots = 0;  ///< real roots of A cos φ₂ + B sin φ₂ = C (0, 1 or 2)
  } three_r_three_p;

  /// Room for `capacity` solutions of nq coordinates (and the rejected ones); allocates only when growing.
  /// A change of nq empties the set.
  void reserve(int nq, int capacity);
  int nq() const { return nq_; }
  int capacity() const { return nq_ > 0 ? std::min(q_.size() / nq_, meta_.size()) : meta_.size(); }

  Solution sol(int k) const {
    const int r = order_.data()[k];
    const Meta& m = meta_.data()[r];
    return {Eigen::Map<const VecX>(q_.data() + r * nq_, nq_), m.position_error, m.orientation_error, m.within_limits, m.flags};
  }
  /// Rejected candidate k (as offered, not a representative) and its error |Δp| + angle.
  Eigen::Map<const VecX> rejected(int k) const { return Eigen::Map<const VecX>(rejected_q_.data() + k * nq_, nq_); }
  double rejectedError(int k) const { return rejected_err_[k]; }

 private:
  friend class ik_detail::IkCollector;
  struct Meta {
    double position_error = 0, orientation_error = 0;
    double dist2 = 0;  ///< squared distance to the seed (0 without one): the order
    bool within_limits = false;
    std::uint8_t flags = 0;
  };
  int nq_ = 0;
  ik_detail::SmallBuffer<double, 64 * 6> q_;  ///< kept solutions in the order offered, nq each
  ik_detail::SmallBuffer<Meta, 64> meta_;
  ik_detail::SmallBuffer<int, 64> order_;     ///< sol(k) is stored solution order_[k]
  ik_detail::SmallBuffer<double, kRejected * 6> rejected_q_;
  std::array<double, kRejected> rejected_err_{};
};

inline void IkSolutionSet::reserve(int nq, int capacity) {
  if (nq != nq_) {
    nq_ = nq;
    count = n_inside = n_rejected = 0;
  }
  q_.grow(capacity * nq, count * nq);
  meta_.grow(capacity, count);
  order_.grow(capacity, count);
  rejected_q_.grow(kRejected * nq, n_rejected * nq);
}

namespace ik_detail {

/// Fills an IkSolutionSet by the rules every IK method shares. A candidate is kept when its pose error
/// (|Δp| + angle) is within the tolerance; its coordinates are replaced by the representative (whole periods
/// added) inside the limits nearest the seed (pickRepresentative); a candidate whose representative lies within
/// 1e-7 of a kept one in every coordinate (modulo the period) is a duplicate and dropped (the first kept: both
/// reproduce the target within the tolerance). A miss is kept among the kRejected nearest (least-squares starts).
/// finish() orders the set: inside the limits first, then outside, each by distance to the seed (ties in the
/// order offered); status ok, limits or unreachable. No allocation while the set has room; a full set grows.
class IkCollector {
 public:
  /// Each coordinate's limits and period from the model (its owner joint).
  IkCollector(IkSolutionSet& out, const Model& model, const double* seed, double tolerance)
      : out_(out), model_(&model), seed_(seed), tol_(tolerance), nq_(model.nq) {
    start();
  }
  /// Per coordinate: limits[i], period[i] (the closed form's standard-DH chain).
  IkCollector(IkSolutionSet& out, int nq, const JointLimits* limits, const double* period, const double* seed,
              double tolerance)
      : out_(out), limits_(limits), period_(period), seed_(seed), tol_(tolerance), nq_(nq) {
    start();
  }

  double tolerance() const { return tol_; }

  /// Offers a candidate with its pose errors (m, rad), verified by the caller.
  void offer(const double* q, double pe, double oe, std::uint8_t flags = 0) {
    if (!(pe + oe <= tol_)) return reject(q, pe + oe);
    bool inside = false;
    if (represent(q, inside)) keep(pe, oe, inside, flags);
  }

  /// Offers a candidate not yet verified: checked by the model's FK (in data) against the target; a candidate
  /// repeating a kept solution is dropped before the FK. Needs the model constructor.
  void offerChecked(Data& data, const SE3& target, const VecX& q) {
    bool inside = false;
    if (!represent(q.data(), inside)) return;
    double pe, oe;
    poseErrorAt(*model_, data, q, target, pe, oe);
    if (!(pe + oe <= tol_)) return reject(q.data(), pe + oe);
    keep(pe, oe, inside, 0);
  }

  /// Orders the set and sets its status.
  void finish() {
    IkSolutionSet& s = out_;
    int* order = s.order_.data();
    const IkSolutionSet::Meta* meta = s.meta_.data();
    int n = 0;
    for (int k = 0; k < s.count; ++k)
      if (meta[k].within_limits) order[n++] = k;
    s.n_inside = n;
    for (int k = 0; k < s.count; ++k)
      if (!meta[k].within_limits) order[n++] = k;
    if (seed_) {  // each block by the distance to the seed, ties in the order offered
      auto nearer = [meta](int a, int b) { return meta[a].dist2 < meta[b].dist2 || (meta[a].dist2 == meta[b].dist2 && a < b); };
      std::sort(order, order + s.n_inside, nearer);
      std::sort(order + s.n_inside, order + s.count, nearer);
    }
    s.status = s.n_inside > 0 ? IkStatus::Ok : s.count > 0 ? IkStatus::Limits : IkStatus::Unreachable;
  }

 private:
  IkSolutionSet& out_;
  const Model* model_ = nullptr;
  const JointLimits* limits_ = nullptr;
  const double* period_ = nullptr;
  const double* seed_;
  double tol_;
  int nq_;
  int capacity_ = 0;  ///< out_.capacity()

  void start() {
    IkSolutionSet& s = out_;
    s.reserve(nq_, 0);
    capacity_ = s.capacity();
    s.status = IkStatus::Unreachable;
    s.count = s.n_inside = s.n_rejected = 0;
    s.closed = {};
    s.general6r = {};
    s.sweep = {};
    s.three_r_three_p = {};
  }

  const JointLimits& limitsOf(int i) const { return model_ ? model_->joints[model_->coord_joint[i]].limits : limits_[i]; }
  double periodOf(int i) const { return model_ ? model_->jmodels[model_->coord_joint[i]].period : period_[i]; }

  /// Writes q's representative into the next free row; false if it repeats a kept solution.
  bool represent(const double* q, bool& inside) {
    IkSolutionSet& s = out_;
    if (s.count == capacity_) {
      s.reserve(nq_, std::max(8, 2 * s.count));
      capacity_ = s.capacity();
    }
    const double* rows = s.q_.data();
    double* r = s.q_.data() + s.count * nq_;
    inside = true;
    for (int i = 0; i < nq_; ++i) {
      bool in = false;
      r[i] = pickRepresentative(limitsOf(i), q[i], periodOf(i), seed_ ? seed_ + i : nullptr, in);
      inside = inside && in;
    }
    const IkSolutionSet::Meta* meta = s.meta_.data();
    for (int k = 0; k < s.count; ++k) {
      if (meta[k].within_limits != inside) continue;  // the same representative has the same side
      const double* o = rows + k * nq_;
      int i = 0;
      while (i < nq_ && same(o[i], r[i], i)) ++i;  // stops at the first coordinate that differs
      if (i == nq_) return false;
    }
    return true;
  }

  /// Within 1e-7, or whole periods apart within 1e-7 (two representatives of one value, e.g. at ±π).
  bool same(double a, double b, int i) const {
    double d = std::abs(a - b);
    if (d < 1e-7) return true;
    const double P = periodOf(i);
    if (!(P > 0) || d < P - 1e-7) return false;
    d = std::fmod(d, P);
    return std::min(d, P - d) < 1e-7;
  }

  /// Keeps the row represent() wrote.
  void keep(double pe, double oe, bool inside, std::uint8_t flags) {
    IkSolutionSet& s = out_;
    const double* r = s.q_.data() + s.count * nq_;
    double d2 = 0;
    if (seed_)
      for (int i = 0; i < nq_; ++i) d2 += (r[i] - seed_[i]) * (r[i] - seed_[i]);
    s.meta_.data()[s.count] = {pe, oe, d2, inside, flags};
    ++s.count;
  }

  /// Keeps a miss among the kRejected nearest (a non-finite error is no start).
  void reject(const double* q, double err) {
    IkSolutionSet& s = out_;
    if (!std::isfinite(err)) return;
    auto& e = s.rejected_err_;
    double* rq = s.rejected_q_.data();
    int n = s.n_rejected;
    if (n == IkSolutionSet::kRejected && !(err < e[n - 1])) return;
    if (n < IkSolutionSet::kRejected) ++n;
    int k = n - 1;
    while (k > 0 && err < e[k - 1]) {
      e[k] = e[k - 1];
      std::copy(rq + (k - 1) * nq_, rq + k * nq_, rq + k * nq_);
      --k;
    }
    std::copy(q, q + nq_, rq + k * nq_);
    e[k] = err;
    s.n_rejected = n;
  }
};

/// Unreachable target: the nearest reachable configuration inside the limits by weighted least squares
/// (numeric IK, 4 restarts), started from the seed and the given near misses (or mid-limits); fills
/// res.nearest, res.has_nearest and res.residual.
void nearestLeastSquares(const Model& m, Data& data, const SE3& target, const VecX* seed,
                         const std::vector<VecX>& misses, IkAllResult& res);

/// The set as ikAll reports it: solutions and outside_limits in the set's order, the flags as strings
/// (closedIkFlagStrings), the status, the note, the family (closed form); when unreachable, the nearest
/// least-squares pose started from the seed and the set's rejected candidates. Uses data for the solves.
IkAllResult toIkAllResult(const Model& m, Data& data, const SE3& target, const VecX* seed, const IkSolutionSet& set,
                          IkMethod method, const std::string& note);

}  // namespace ik_detail

}  // namespace achain
