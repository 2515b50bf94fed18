#include <achain/trajectory/trajectory.hpp>
#include <achain/model/caps.hpp>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

namespace achain {



Trajectory samplePath(const Model& m, const JointPath& path, double rate) {
  if (!(rate > 0) || !std::isfinite(rate)) throw Error("rate: must be a finite number of samples per second > 0");
  if (path.dof() != m.nq) throw Error("trajectory: path has " + std::to_string(path.dof()) + " joints, robot '" + m.name + "' has " + std::to_string(m.nq));
  const double T = path.duration();
  const double dt = 1.0 / rate;
  const double count = std::floor(T / dt * (1 + 1e-12));
  if (!std::isfinite(T) || T < 0) throw Error("trajectory: path duration must be finite");
  if (count + 1 > kMaxTrajectorySamples)
    throw Error("rate: " + std::to_string(static_cast<long long>(count)) + " samples is too many (at most 1e6; lower the rate)");
  if ((count + 1) * m.nq > kMaxTrajectoryValues)
    throw Error("rate: " + std::to_string(static_cast<long long>(count + 1)) + " samples × " + std::to_string(m.nq) +
                " joints is too many values (at most 2e7 per trajectory; lower the rate)");
  int N = static_cast<int>(count) + 1;              // samples at k·dt, k = 0 … count
  const bool extra = T - (N - 1) * dt > 1e-12 * std::max(1.0, T);  // then add the exact end sample
  if (extra) ++N;
  Trajectory tr;
  tr.robot = m.name;
  for (const auto& j : m.joints) tr.joints.push_back(j.name);
  tr.profile = path.profile();
  tr.breakpoints = path.breakpoints();
  tr.t.resize(N);
  tr.q.resize(N, m.nq);
  tr.qd.resize(N, m.nq);
  tr.qdd.resize(N, m.nq);
  VecX q(m.nq), qd(m.nq), qdd(m.nq);
  for (int k = 0; k < N; ++k) {
    const double t = (k == N - 1) ? T : k * dt;
    tr.t[k] = t;
    path.evaluate(t, q, qd, qdd);
    tr.q.row(k) = q.transpose();
    tr.qd.row(k) = qd.transpose();
    tr.qdd.row(k) = qdd.transpose();
  }
  return tr;
}

MatX sampleDerivative(const std::vector<double>& t, const MatX& x) {
  const int N = static_cast<int>(t.size());
  if (x.rows() != N) throw Error("sampleDerivative: " + std::to_string(x.rows()) + " rows for " + std::to_string(N) + " times");
  MatX d = MatX::Zero(N, x.cols());
  if (N < 2) return d;
  if (N == 2) {
    d.row(0) = d.row(1) = (x.row(1) - x.row(0)) / (t[1] - t[0]);
    return d;
  }
  // the derivative at t[k] of the parabola through samples a, b, c (a = k - 1 inside; the nearest three at the ends)
  auto at = [&](int a, int k) {
    const double t0 = t[a], t1 = t[a + 1], t2 = t[a + 2], s = t[k];
    const double w0 = (2 * s - t1 - t2) / ((t0 - t1) * (t0 - t2));
    const double w1 = (2 * s - t0 - t2) / ((t1 - t0) * (t1 - t2));
    const double w2 = (2 * s - t0 - t1) / ((t2 - t0) * (t2 - t1));
    d.row(k) = w0 * x.row(a) + w1 * x.row(a + 1) + w2 * x.row(a + 2);
  };
  at(0, 0);
  for (int k = 1; k < N - 1; ++k) at(k - 1, k);
  at(N - 3, N - 1);
  return d;
}

std::string trajectoryToCsv(const Trajectory& tr) {
  std::ostringstream o;
  o << std::setprecision(std::numeric_limits<double>::max_digits10);
  o << "t";
  for (const char* p : {"q_", "qd_", "qdd_"})
    for (const auto& name : tr.joints) o << ',' << p << name;
  o << '\n';
  for (int k = 0; k < tr.samples(); ++k) {
    o << tr.t[k];
    for (const MatX* M : {&tr.q, &tr.qd, &tr.qdd})
      for (int i = 0; i < tr.dof(); ++i) o << ',' << (*M)(k, i);
    o << '\n';
  }
  return o.str();
}

}  // namespace achain
