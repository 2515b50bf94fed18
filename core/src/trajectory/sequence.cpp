#include <achain/trajectory/sequence.hpp>

#include <algorithm>

namespace achain {

SequencePath::SequencePath(std::vector<JointPathPtr> segments) : segments_(std::move(segments)) {
  if (segments_.empty()) throw Error("sequence: needs at least one segment");
  start_.push_back(0);
  for (const auto& s : segments_) {
    if (!s || s->dof() != segments_.front()->dof()) throw Error("sequence: segments must have the same joints");
    start_.push_back(start_.back() + s->duration());
  }
}

void SequencePath::evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const {
  const int K = static_cast<int>(segments_.size());
  int k = static_cast<int>(std::upper_bound(start_.begin(), start_.end(), t) - start_.begin()) - 1;
  k = std::clamp(k, 0, K - 1);
  segments_[k]->evaluate(t - start_[k], q, qd, qdd);
}

std::vector<std::vector<double>> SequencePath::breakpoints() const {
  std::vector<std::vector<double>> out(dof());
  for (size_t k = 0; k < segments_.size(); ++k) {
    const auto b = segments_[k]->breakpoints();
    for (int j = 0; j < dof(); ++j)
      for (double t : b[j]) {
        const double tt = start_[k] + t;
        if (out[j].empty() || tt > out[j].back() + 1e-12) out[j].push_back(tt);
      }
  }
  return out;
}

int SequencePath::continuity() const {
  // Rest-to-rest segments join at rest; a degree-(2c+1) polynomial also has zero derivatives up to
  // order c at its ends, so the sequence keeps the smallest continuity of its segments.
  int c = 3;
  for (const auto& s : segments_) c = std::min(c, s->continuity());
  return c;
}

}  // namespace achain
