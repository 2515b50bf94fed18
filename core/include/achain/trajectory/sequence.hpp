// Several paths run one after another (rest-to-rest segments through via points).
#pragma once
#include <achain/trajectory/path.hpp>

namespace achain {

class SequencePath final : public JointPath {
 public:
  explicit SequencePath(std::vector<JointPathPtr> segments);
  int dof() const override { return segments_.front()->dof(); }
  double duration() const override { return start_.back(); }
  void evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const override;
  std::vector<std::vector<double>> breakpoints() const override;
  std::string profile() const override { return segments_.front()->profile(); }
  int continuity() const override;
  const std::vector<JointPathPtr>& segments() const { return segments_; }

 private:
  std::vector<JointPathPtr> segments_;
  std::vector<double> start_;  ///< segment start times, plus the total duration at the end
};

}  // namespace achain
