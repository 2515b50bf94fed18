// A sampled trajectory (the interchange format shared with the dynamics and firmware areas):
// sampling a JointPath at a rate, and CSV. Its JSON reader and writer are in io/trajectory_json.hpp.
#pragma once
#include <string>
#include <vector>

#include <achain/trajectory/path.hpp>

namespace achain {

/// Samples t[k] with q, q̇, q̈ as rows (samples × joints), SI units.
struct Trajectory {
  std::string robot;
  std::vector<std::string> joints;
  std::string profile;                              ///< optional, e.g. "trapezoid"
  std::vector<double> t;                            ///< s, increasing, t[0] = 0
  MatX q, qd, qdd;                                  ///< samples × joints
  std::vector<std::vector<double>> breakpoints;     ///< optional, per joint (s)
  std::vector<std::string> notes;                   ///< what the reader derived, e.g. rates a file left out
  int samples() const { return static_cast<int>(t.size()); }
  int dof() const { return static_cast<int>(q.cols()); }
  double duration() const { return t.empty() ? 0.0 : t.back(); }
};

/// Samples `path` every 1/rate s from 0; the last sample is always at the path's end (exact
/// endpoint), so the last interval may be shorter. rate in Hz, > 0. Names come from the model.
Trajectory samplePath(const Model& m, const JointPath& path, double rate);

/// The time derivative of samples x (samples × columns) at times t: second-order finite differences on the
/// (possibly uneven) grid, three-point one-sided at the ends; exact for quadratics in t. One sample: zero;
/// two: the slope.
MatX sampleDerivative(const std::vector<double>& t, const MatX& x);

/// CSV: header "t,q_<joint>…,qd_<joint>…,qdd_<joint>…", one row per sample, full precision.
std::string trajectoryToCsv(const Trajectory& tr);

}  // namespace achain
