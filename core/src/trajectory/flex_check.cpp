#include <achain/trajectory/flex_check.hpp>

#include <algorithm>
#include <cmath>
#include <complex>

#include <achain/flexibility/flexible_joint_sim.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/model/caps.hpp>

namespace achain {

ShaperKind shaperKindFromString(const std::string& s) {
  if (s == "none") return ShaperKind::None;
  if (s == "zv") return ShaperKind::ZV;
  if (s == "zvd") return ShaperKind::ZVD;
  throw Error("shaper: expected none, zv or zvd (got '" + s + "')");
}

const char* toString(ShaperKind k) { return k == ShaperKind::None ? "none" : k == ShaperKind::ZV ? "zv" : "zvd"; }

InputShaper makeShaper(ShaperKind kind, double omega, double zeta) {
  if (!std::isfinite(omega) || omega <= 0)
    throw Error("shaper frequency: must be positive and finite (got " + std::to_string(omega) + " rad/s)");
  if (!std::isfinite(zeta) || zeta < 0 || zeta >= 1)
    throw Error("shaper damping ratio: must be in [0, 1) (got " + std::to_string(zeta) + ")");
  InputShaper s;
  s.kind = kind;
  s.omega = omega;
  s.zeta = zeta;
  const double root = std::sqrt(1 - zeta * zeta);
  const double K = std::exp(-zeta * M_PI / root);
  const double half = M_PI / (omega * root);
  switch (kind) {
    case ShaperKind::None:
      s.amplitude = {1.0};
      s.time = {0.0};
      break;
    case ShaperKind::ZV:
      s.amplitude = {1 / (1 + K), K / (1 + K)};
      s.time = {0.0, half};
      break;
    case ShaperKind::ZVD: {
      const double n = (1 + K) * (1 + K);
      s.amplitude = {1 / n, 2 * K / n, K * K / n};
      s.time = {0.0, half, 2 * half};
      break;
    }
  }
  return s;
}

ShapedPath::ShapedPath(JointPathPtr path, InputShaper shaper) : path_(std::move(path)), shaper_(std::move(shaper)) {
  if (!path_) throw Error("ShapedPath: no path");
  if (shaper_.amplitude.empty() || shaper_.amplitude.size() != shaper_.time.size())
    throw Error("ShapedPath: the shaper needs as many amplitudes as times (at least one)");
  a_ = b_ = c_ = VecX::Zero(path_->dof());
}

void ShapedPath::evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const {
  const int n = dof();
  q.setZero(n);
  qd.setZero(n);
  qdd.setZero(n);
  for (size_t i = 0; i < shaper_.time.size(); ++i) {
    path_->evaluate(t - shaper_.time[i], a_, b_, c_);  // clamped: rests at the start before t_i
    q += shaper_.amplitude[i] * a_;
    qd += shaper_.amplitude[i] * b_;
    qdd += shaper_.amplitude[i] * c_;
  }
}

std::vector<std::vector<double>> ShapedPath::breakpoints() const {
  auto inner = path_->breakpoints();
  for (auto& row : inner) {
    std::vector<double> out;
    for (double ti : shaper_.time)
      for (double b : row) out.push_back(b + ti);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end(), [](double x, double y) { return std::fabs(x - y) < 1e-12; }), out.end());
    row = out;
  }
  return inner;
}

double accelerationBandwidth(const JointPath& path, double rate, double energy_fraction) {
  if (!std::isfinite(rate) || rate <= 0) throw Error("bandwidth: sample rate must be positive (got " + std::to_string(rate) + ")");
  if (!(energy_fraction > 0 && energy_fraction < 1)) throw Error("bandwidth: energy fraction must be in (0, 1)");
  const double T = path.duration();
  const int n = path.dof();
  const long N = static_cast<long>(std::ceil(T * rate)) + 1;
  if (N > kMaxTrajectorySamples) throw Error("bandwidth: too many samples (duration × rate above 1e6)");
  const double h = T / (N - 1 > 0 ? N - 1 : 1);
  MatX acc(N, n);
  VecX q(n), qd(n), qdd(n);
  double total = 0;
  for (long k = 0; k < N; ++k) {
    path.evaluate(k * h, q, qd, qdd);
    acc.row(k) = qdd.transpose();
    total += qdd.squaredNorm() * h;  // rectangle rule, as the transform below
  }
  if (!(total > 0)) throw Error("bandwidth: the plan has no acceleration");
  const double df = 1.0 / (8 * std::max(T, h));
  const double target = energy_fraction * total;
  double cum = 0, s_prev = 0;
  std::vector<std::complex<double>> A(n);
  for (long m = 0;; ++m) {
    const double f = m * df;
    if (f > 0.5 / h) throw Error("bandwidth: 95 % of the acceleration energy is not reached below the Nyquist frequency");
    std::fill(A.begin(), A.end(), std::complex<double>(0, 0));
    const std::complex<double> rot = std::polar(1.0, -2 * M_PI * f * h);
    std::complex<double> e(1, 0);
    for (long k = 0; k < N; ++k) {
      for (int j = 0; j < n; ++j) A[j] += acc(k, j) * e;
      e *= rot;
      if ((k & 1023) == 1023) e /= std::abs(e);  // keep |e| = 1 over long products
    }
    double s = 0;
    for (int j = 0; j < n; ++j) s += 2 * std::norm(A[j] * h);  // one-sided energy density
    if (m > 0) {
      const double add = 0.5 * (s + s_prev) * df;
      if (cum + add >= target) return f - df + df * (target - cum) / add;
      cum += add;
    }
    s_prev = s;
  }
}

FlexCheckResult checkFlexibleTrajectory(const Model& model, const JointFlexibility& flex, const JointPath& plan,
                                        const DynamicsOptions& options, const FlexCheckOptions& opt) {
  if (plan.dof() != model.nv)
    throw Error("flex check: the plan has " + std::to_string(plan.dof()) + " joints, the robot " + std::to_string(model.nv));
  if (opt.frequency_samples < 2) throw Error("flex check: frequency_samples must be at least 2");
  if (!(opt.dt >= 0) || !std::isfinite(opt.dt)) throw Error("flex check: dt must be zero (automatic) or positive");
  if (!(opt.settle >= 0) || !std::isfinite(opt.settle)) throw Error("flex check: settle must be zero (automatic) or positive");
  if (opt.trace_samples < 0) throw Error("flex check: trace_samples must be zero (no trace) or positive");
  FlexibleJointChain chain(model, flex, options, false);
  Data data(model);
  FlexCheckResult r;
  const int n = model.nv;
  const double T = plan.duration();
  r.duration = T;
  VecX q(n), qd(n), qdd(n), theta(n), thetad(n), thetadd(n);
  // First frequency along the path (the plan's configuration, links ≈ motors).
  r.first_hz_min = kInf;
  for (int i = 0; i < opt.frequency_samples; ++i) {
    const double t = T * i / (opt.frequency_samples - 1);
    plan.evaluate(t, theta, thetad, thetadd);
    const NaturalModes m = jointFlexibilityModes(model, data, theta, flex, MotorSide::Locked, chain.options());
    const double f = m.omega[0] / (2 * M_PI);
    r.frequency_t.push_back(t);
    r.first_hz.push_back(f);
    r.first_hz_min = std::min(r.first_hz_min, f);
    r.first_hz_max = std::max(r.first_hz_max, f);
    if (i == 0) r.highest_hz = m.omega.maxCoeff() / (2 * M_PI);
    if (i == opt.frequency_samples - 1) {
      r.first_hz_end = f;
      const VecX phi = m.shapes.col(0);
      r.first_damping_ratio_end = phi.dot(chain.flexibility().damping.cwiseProduct(phi)) / (2 * m.omega[0]);
    }
  }
  r.bandwidth_hz = accelerationBandwidth(plan, opt.sample_rate, opt.energy_fraction);
  r.bandwidth_ratio = r.bandwidth_hz / r.first_hz_min;
  // Simulation: motors on the plan, links from static equilibrium at rest.
  plan.evaluate(0, theta, thetad, thetadd);
  r.dt = opt.dt > 0 ? opt.dt : std::min(1e-3, chain.stableStep(data, theta, false));
  r.settle = opt.settle > 0 ? opt.settle : std::max(0.5, 5.0 / r.first_hz_min);
  const long steps = static_cast<long>(std::ceil((T + r.settle) / r.dt));
  if (steps > 100000000L) throw Error("flex check: more than 1e8 steps (raise dt or shorten settle)");
  r.steps = steps;
  // Trace: the steps round(j·steps/n), j = 0…n (n = trace_samples), each once.
  const long long trace_n = opt.trace_samples;
  long long trace_j = 0, trace_next = trace_n > 0 ? 0 : -1;
  if (trace_n > 0) {
    const size_t points = static_cast<size_t>(std::min<long long>(trace_n, steps)) + 1;
    r.trace_t.reserve(points);
    r.trace_tip_error.reserve(points);
    r.trace_deflection.reserve(points);
  }
  q = chain.staticEquilibrium(data, theta);
  qd.setZero();
  VecX theta_end(n), tmp1(n), tmp2(n);
  plan.evaluate(T, theta_end, tmp1, tmp2);
  const VecX q_star = chain.staticEquilibrium(data, theta_end);
  forwardKinematics(model, data, theta_end);
  const Vec3 p_plan_end = data.oMtool.p;
  forwardKinematics(model, data, q_star);
  const Vec3 p_star = data.oMtool.p;
  r.static_tip_sag = (p_star - p_plan_end).norm();
  const MotorMotion motor = [&plan, &thetadd](double t, VecX& th, VecX& thd) { plan.evaluate(t, th, thd, thetadd); };
  for (long k = 0; k <= steps; ++k) {
    const double t = k * r.dt;
    plan.evaluate(t, theta, thetad, thetadd);
    forwardKinematics(model, data, theta);
    const Vec3 p_plan = data.oMtool.p;
    forwardKinematics(model, data, q);
    const Vec3 p = data.oMtool.p;
    const double e = (p - p_plan).norm();
    if (e > r.peak_tip_error) {
      r.peak_tip_error = e;
      r.peak_tip_error_time = t;
    }
    const double deflection = (q - theta).cwiseAbs().maxCoeff();
    r.peak_deflection = std::max(r.peak_deflection, deflection);
    if (k == trace_next) {
      r.trace_t.push_back(t);
      r.trace_tip_error.push_back(e);
      r.trace_deflection.push_back(deflection);
      while (trace_next != -1 && trace_next <= k)
        trace_next = ++trace_j > trace_n ? -1 : (2 * trace_j * steps + trace_n) / (2 * trace_n);
    }
    if (t >= T) {
      r.residual_tip_vibration = std::max(r.residual_tip_vibration, (p - p_star).norm());
      r.residual_deflection = std::max(r.residual_deflection, (q - q_star).cwiseAbs().maxCoeff());
    }
    if (k == steps) break;
    chain.stepPrescribed(data, q, qd, motor, t, r.dt);
    if (!q.allFinite() || !qd.allFinite())
      throw Error("flex check: the state became non-finite at t = " + std::to_string(t) + " s; reduce dt");
  }
  return r;
}

ShapedCheckSet checkShapedTrajectories(const Model& model, const JointFlexibility& flex, const JointPathPtr& plan,
                                       const DynamicsOptions& options, const FlexCheckOptions& opt,
                                       const std::vector<ShaperKind>& kinds, double shaper_hz, double shaper_zeta) {
  if (!plan) throw Error("flex check: no plan");
  if (!std::isfinite(shaper_hz) || !std::isfinite(shaper_zeta)) throw Error("shaper frequency and damping ratio: must be finite");
  ShapedCheckSet set;
  set.unshaped = checkFlexibleTrajectory(model, flex, *plan, options, opt);
  const FlexCheckResult& base = set.unshaped;
  set.shaper_omega = 2 * M_PI * (shaper_hz > 0 ? shaper_hz : base.first_hz_end);
  set.shaper_zeta = shaper_zeta >= 0 ? shaper_zeta : base.first_damping_ratio_end;
  for (ShaperKind k : kinds) {
    ShapedCheck row;
    row.result = base;
    if (k != ShaperKind::None) {
      row.shaper = makeShaper(k, set.shaper_omega, set.shaper_zeta);
      row.result = checkFlexibleTrajectory(model, flex, ShapedPath(plan, row.shaper), options, opt);
    }
    row.residual_reduction = base.residual_tip_vibration > 0 ? base.residual_tip_vibration / row.result.residual_tip_vibration : 1.0;
    set.rows.push_back(std::move(row));
  }
  return set;
}

}  // namespace achain
