// Trajectory check against joint flexibility and input shaping (trajectory/flex_check.hpp): the residual
// vibration of a trapezoid on one flexible joint against its closed form, ZV/ZVD shapers removing it, the
// shaper formulas, the bandwidth against the closed-form spectrum, and the prototype's thesis trapezoid.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <memory>

#include <achain/dynamics/crba.hpp>
#include <achain/io/robot.hpp>
#include <achain/trajectory/flex_check.hpp>
#include <achain/trajectory/trapezoid.hpp>

#include "dynamics_helpers.hpp"

using namespace achain;

namespace {
/// The uniform 1 m, 2 kg rod (I = mL²/3 = 2/3 kg·m²) without gravity.
Model rod() {
  Model m = test::uniformRod();
  m.gravity = Vec3::Zero();
  return m;
}
constexpr double kI = 2.0 / 3.0;

JointFlexibility flexFor(double omega, double zeta) {
  JointFlexibility f;
  f.stiffness = VecX::Constant(1, omega * omega * kI);
  f.damping = VecX::Constant(1, 2 * zeta * omega * kI);
  return f;
}

std::shared_ptr<const JointPath> trapezoid(double vmax, double amax) {
  RateLimits L{VecX::Constant(1, vmax), VecX::Constant(1, amax)};
  return std::make_shared<TrapezoidPath>(VecX::Zero(1), VecX::Constant(1, 1.0), L);
}
}  // namespace

TEST_CASE("flex check: one flexible joint, the trapezoid's residual vibration equals the closed form", "[trajectory][flex]") {
  // e = q − θ obeys ë + ω²e = −θ̈; after a rest-to-rest trapezoid (accel a on [0, ta], −a on [td, T]) it rings
  // with amplitude 4a·|sin(ω·ta/2)·sin(ω·td/2)|/ω².
  const Model m = rod();
  const double w = 2 * M_PI * 3.3;
  const auto plan = trapezoid(2.0, 10.0);
  const auto& tz = static_cast<const TrapezoidPath&>(*plan).joints()[0];
  REQUIRE(tz.ta == Approx(0.2));
  REQUIRE(tz.td == Approx(0.5));
  FlexCheckOptions o;
  o.dt = 1e-4;
  const FlexCheckResult r = checkFlexibleTrajectory(m, flexFor(w, 0), *plan, DynamicsOptions(), o);
  const double closed = 4 * tz.a * std::fabs(std::sin(w * tz.ta / 2) * std::sin(w * tz.td / 2)) / (w * w);
  CHECK(r.residual_deflection == Approx(closed).epsilon(2e-3));
  CHECK(r.residual_tip_vibration == Approx(closed * 1.0).epsilon(3e-3));  // tip at 1 m: arc ≈ chord
  CHECK(r.first_hz_min == Approx(3.3).epsilon(1e-9));
  CHECK(r.first_hz_end == Approx(3.3).epsilon(1e-9));
  CHECK(r.static_tip_sag < 1e-12);  // no gravity
  // The first acceleration step alone swings the deflection to 2a/ω² within half a period (before td);
  // the ringing after the end is bounded by the peak.
  CHECK(r.peak_deflection >= 2 * tz.a / (w * w) * 0.999);
  CHECK(r.peak_deflection >= r.residual_deflection);
  WARN("closed form " << closed << " rad, simulated " << r.residual_deflection);
}

TEST_CASE("flex check: ZV and ZVD shapers at the predicted frequency remove the residual vibration", "[trajectory][flex]") {
  const Model m = rod();
  const double w = 2 * M_PI * 3.3;
  const auto plan = trapezoid(2.0, 10.0);
  FlexCheckOptions o;
  o.dt = 1e-4;
  for (double zeta : {0.0, 0.05}) {
    const JointFlexibility f = flexFor(w, zeta);
    const FlexCheckResult raw = checkFlexibleTrajectory(m, f, *plan, DynamicsOptions(), o);
    CHECK(raw.first_damping_ratio_end == Approx(zeta).margin(1e-12));
    for (ShaperKind k : {ShaperKind::ZV, ShaperKind::ZVD}) {
      const ShapedPath shaped(plan, makeShaper(k, w, zeta));
      const FlexCheckResult s = checkFlexibleTrajectory(m, f, shaped, DynamicsOptions(), o);
      INFO("zeta " << zeta << " shaper " << toString(k) << " residual " << raw.residual_deflection << " -> " << s.residual_deflection);
      CHECK(s.residual_deflection < raw.residual_deflection / 5);    // the acceptance: at least 5×
      CHECK(s.residual_deflection < raw.residual_deflection / 100);  // at the exact frequency: essentially gone
      CHECK(s.peak_deflection <= raw.peak_deflection * 1.0001);       // shaping also lowers the peak deflection here
    }
    // 20 % off the frequency: ZVD (flat at the design point) keeps more of its effect than ZV.
    const ShapedPath zv(plan, makeShaper(ShaperKind::ZV, w * 1.2, zeta));
    const ShapedPath zvd(plan, makeShaper(ShaperKind::ZVD, w * 1.2, zeta));
    const double r_zv = checkFlexibleTrajectory(m, f, zv, DynamicsOptions(), o).residual_deflection;
    const double r_zvd = checkFlexibleTrajectory(m, f, zvd, DynamicsOptions(), o).residual_deflection;
    CHECK(r_zvd < r_zv);
    CHECK(r_zv < raw.residual_deflection);
  }
}

TEST_CASE("flex check: shaper formulas and the shaped path", "[trajectory][flex]") {
  const double w = 10, z = 0.1;
  const double K = std::exp(-z * M_PI / std::sqrt(1 - z * z));
  const InputShaper zv = makeShaper(ShaperKind::ZV, w, z);
  REQUIRE(zv.amplitude.size() == 2);
  CHECK(zv.amplitude[0] == Approx(1 / (1 + K)));
  CHECK(zv.amplitude[1] == Approx(K / (1 + K)));
  CHECK(zv.time[1] == Approx(M_PI / (w * std::sqrt(1 - z * z))));
  const InputShaper zvd = makeShaper(ShaperKind::ZVD, w, z);
  REQUIRE(zvd.amplitude.size() == 3);
  CHECK(zvd.amplitude[0] + zvd.amplitude[1] + zvd.amplitude[2] == Approx(1).epsilon(1e-15));
  CHECK(zvd.amplitude[1] == Approx(2 * K / ((1 + K) * (1 + K))));
  CHECK(zvd.time[2] == Approx(2 * zv.time[1]));
  // The residual of a damped mode after the impulses, |Σ A_i e^{(ζω + iω_d) t_i}|, vanishes (ZV) with zero slope (ZVD).
  auto residual = [&](const InputShaper& s, double wt) {
    const double wd = wt * std::sqrt(1 - z * z);
    double c = 0, sn = 0;
    for (size_t i = 0; i < s.time.size(); ++i) {
      c += s.amplitude[i] * std::exp(z * wt * s.time[i]) * std::cos(wd * s.time[i]);
      sn += s.amplitude[i] * std::exp(z * wt * s.time[i]) * std::sin(wd * s.time[i]);
    }
    return std::hypot(c, sn);
  };
  CHECK(residual(zv, w) < 1e-14);
  CHECK(residual(zvd, w) < 1e-14);
  CHECK((residual(zvd, w * 1.001) - residual(zvd, w * 0.999)) / 0.002 == Approx(0).margin(1e-4));
  // The shaped path: same ends, later finish, speed and acceleration within the plan's bounds.
  const auto plan = trapezoid(2.0, 10.0);
  const ShapedPath sp(plan, zvd);
  CHECK(sp.duration() == Approx(plan->duration() + zvd.time[2]));
  CHECK(sp.profile() == "trapezoid+zvd");
  VecX q, qd, qdd;
  sp.evaluate(sp.duration(), q, qd, qdd);
  CHECK(q[0] == Approx(1.0).epsilon(1e-15));
  double vmax = 0, amax = 0;
  for (int i = 0; i <= 2000; ++i) {
    sp.evaluate(sp.duration() * i / 2000, q, qd, qdd);
    vmax = std::max(vmax, std::fabs(qd[0]));
    amax = std::max(amax, std::fabs(qdd[0]));
  }
  CHECK(vmax <= 2.0 + 1e-12);
  CHECK(amax <= 10.0 + 1e-12);
  CHECK(sp.breakpoints()[0].size() == 3 * 4);  // four trapezoid breakpoints, three shifted copies
  // Errors.
  CHECK_THROWS_WITH(makeShaper(ShaperKind::ZV, 0, 0), Catch::Contains("shaper frequency: must be positive"));
  CHECK_THROWS_WITH(makeShaper(ShaperKind::ZV, 1, 1), Catch::Contains("shaper damping ratio: must be in [0, 1)"));
  CHECK_THROWS_WITH(shaperKindFromString("zvdd"), Catch::Contains("expected none, zv or zvd"));
}

TEST_CASE("flex check: the bandwidth is the 95 % point of the closed-form acceleration spectrum", "[trajectory][flex]") {
  // Trapezoid acceleration: a on [0, ta], −a on [td, T]: |Q̈(f)|² = a²·16·sin²(πf·ta)·sin²(πf·td)/(2πf)².
  const auto plan = trapezoid(2.0, 10.0);
  const auto& tz = static_cast<const TrapezoidPath&>(*plan).joints()[0];
  const double total = 2 * tz.a * tz.a * tz.ta;
  auto density = [&](double f) {
    if (f == 0) return 0.0;
    const double s = std::sin(M_PI * f * tz.ta) * std::sin(M_PI * f * tz.td);
    return 2 * tz.a * tz.a * 16 * s * s / std::pow(2 * M_PI * f, 2);
  };
  double cum = 0, f = 0;
  const double df = 1e-4;
  while (cum < 0.95 * total) {
    cum += 0.5 * (density(f) + density(f + df)) * df;
    f += df;
  }
  const double bw = accelerationBandwidth(*plan, 10000, 0.95);
  INFO("closed form " << f << " Hz, computed " << bw << " Hz");
  CHECK(bw == Approx(f).epsilon(0.02));
}

TEST_CASE("flex check: the prototype's thesis trapezoid with the derived drive", "[trajectory][flex]") {
  const Model m = builtinModel("prototype-4a");
  const double deg = M_PI / 180;
  const auto plan = std::make_shared<TrapezoidPath>(VecX::Constant(4, 60 * deg), VecX::Constant(4, 300 * deg), rateLimitsFromModel(m));
  JointFlexibility f;
  f.stiffness = VecX::Constant(4, 5353.6);
  f.damping = VecX::Constant(4, 12.95);
  FlexCheckOptions o;
  const FlexCheckResult r = checkFlexibleTrajectory(m, f, *plan, DynamicsOptions(), o);
  // The frequency map agrees with jointFlexibilityModes at the samples, and moves along the path.
  Data d(m);
  const NaturalModes end = jointFlexibilityModes(m, d, VecX::Constant(4, 300 * deg), f, MotorSide::Locked, DynamicsOptions());
  CHECK(r.first_hz_end == Approx(end.omega[0] / (2 * M_PI)).epsilon(1e-12));
  CHECK(r.first_hz_max > r.first_hz_min * 1.05);
  CHECK(r.bandwidth_ratio == Approx(r.bandwidth_hz / r.first_hz_min));
  CHECK(r.peak_tip_error > r.static_tip_sag);
  CHECK(r.residual_tip_vibration > 0);
  // ZV at the end configuration's first frequency and damping lowers the residual vibration.
  const ShapedPath zv(plan, makeShaper(ShaperKind::ZV, 2 * M_PI * r.first_hz_end, r.first_damping_ratio_end));
  const FlexCheckResult s = checkFlexibleTrajectory(m, f, zv, DynamicsOptions(), o);
  CHECK(s.residual_tip_vibration < r.residual_tip_vibration);
  WARN("prototype: first " << r.first_hz_min << "-" << r.first_hz_max << " Hz, bandwidth " << r.bandwidth_hz << " Hz (ratio "
                           << r.bandwidth_ratio << "), peak tip " << r.peak_tip_error * 1e3 << " mm, sag " << r.static_tip_sag * 1e3
                           << " mm, residual " << r.residual_tip_vibration * 1e3 << " mm -> ZV " << s.residual_tip_vibration * 1e3
                           << " mm, zeta " << r.first_damping_ratio_end << ", dt " << r.dt);
}

TEST_CASE("flex check: the opt-in trace samples the tip error whose maximum is the peak", "[trajectory][flex]") {
  const Model m = rod();
  const double w = 2 * M_PI * 3.3;
  const auto plan = trapezoid(2.0, 10.0);
  FlexCheckOptions o;
  o.dt = 1e-3;
  const FlexCheckResult off = checkFlexibleTrajectory(m, flexFor(w, 0.02), *plan, DynamicsOptions(), o);
  CHECK(off.trace_t.empty());  // off by default
  CHECK(off.trace_tip_error.empty());
  CHECK(off.trace_deflection.empty());
  auto maxOf = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
  SECTION("every step: the maxima are the peaks, and the results do not change") {
    o.trace_samples = static_cast<int>(off.steps) + 7;  // more than the steps: each step once
    const FlexCheckResult r = checkFlexibleTrajectory(m, flexFor(w, 0.02), *plan, DynamicsOptions(), o);
    REQUIRE(r.trace_t.size() == static_cast<size_t>(off.steps) + 1);
    CHECK(r.trace_tip_error.size() == r.trace_t.size());
    CHECK(r.trace_deflection.size() == r.trace_t.size());
    CHECK(maxOf(r.trace_tip_error) == r.peak_tip_error);
    CHECK(maxOf(r.trace_deflection) == r.peak_deflection);
    CHECK(r.trace_t.front() == 0);
    CHECK(r.trace_t.back() == off.steps * off.dt);
    CHECK(r.peak_tip_error == off.peak_tip_error);  // bit-identical with the trace on
    CHECK(r.peak_tip_error_time == off.peak_tip_error_time);
    CHECK(r.residual_tip_vibration == off.residual_tip_vibration);
    CHECK(r.residual_deflection == off.residual_deflection);
    CHECK(r.static_tip_sag == off.static_tip_sag);
  }
  SECTION("200 samples: 201 points evenly spaced to a step, the last step included, the maximum within sampling of the peak") {
    o.trace_samples = 200;
    const FlexCheckResult r = checkFlexibleTrajectory(m, flexFor(w, 0.02), *plan, DynamicsOptions(), o);
    REQUIRE(r.trace_t.size() == 201);
    CHECK(r.trace_t.front() == 0);
    CHECK(r.trace_t.back() == Approx(off.steps * off.dt).epsilon(1e-12));
    double step = 0;
    for (size_t i = 1; i < r.trace_t.size(); ++i) {
      const double h = r.trace_t[i] - r.trace_t[i - 1];
      CHECK(std::fabs(h - off.steps * off.dt / 200) < off.dt);  // ⌊steps/200⌋ or ⌈steps/200⌉ steps
      step = std::max(step, h);
    }
    // |ė| ≤ ω·peak for the ringing: within half a sampling step of the peak the error drops by at most ω·step/2·peak
    CHECK(maxOf(r.trace_tip_error) <= r.peak_tip_error);
    CHECK(maxOf(r.trace_tip_error) >= r.peak_tip_error * (1 - w * step / 2));
  }
  SECTION("a negative count is an error") {
    o.trace_samples = -1;
    CHECK_THROWS_WITH(checkFlexibleTrajectory(m, flexFor(w, 0.02), *plan, DynamicsOptions(), o),
                      Catch::Contains("trace_samples"));
  }
}

TEST_CASE("flex check: checkShapedTrajectories is the unshaped check then each shaper at the end mode", "[trajectory][flex]") {
  const Model m = rod();
  const double w = 2 * M_PI * 3.3;
  const auto plan = trapezoid(2.0, 10.0);
  const JointFlexibility f = flexFor(w, 0.03);
  FlexCheckOptions o;
  o.dt = 1e-3;
  const FlexCheckResult base = checkFlexibleTrajectory(m, f, *plan, DynamicsOptions(), o);
  const ShapedCheckSet set = checkShapedTrajectories(m, f, plan, DynamicsOptions(), o, {ShaperKind::None, ShaperKind::ZV, ShaperKind::ZVD});
  CHECK(set.unshaped.residual_tip_vibration == base.residual_tip_vibration);
  CHECK(set.shaper_omega == 2 * M_PI * base.first_hz_end);
  CHECK(set.shaper_zeta == base.first_damping_ratio_end);
  REQUIRE(set.rows.size() == 3);
  CHECK(set.rows[0].shaper.kind == ShaperKind::None);
  CHECK(set.rows[0].shaper.amplitude.empty());
  CHECK(set.rows[0].result.peak_tip_error == base.peak_tip_error);
  CHECK(set.rows[0].residual_reduction == 1);
  const InputShaper zv = makeShaper(ShaperKind::ZV, set.shaper_omega, set.shaper_zeta);
  const FlexCheckResult shaped = checkFlexibleTrajectory(m, f, ShapedPath(plan, zv), DynamicsOptions(), o);
  CHECK(set.rows[1].shaper.time == zv.time);
  CHECK(set.rows[1].result.residual_tip_vibration == shaped.residual_tip_vibration);
  CHECK(set.rows[1].residual_reduction == base.residual_tip_vibration / shaped.residual_tip_vibration);
  CHECK(set.rows[2].result.residual_tip_vibration < set.rows[0].result.residual_tip_vibration / 5);
  // overrides: the frequency (Hz) and damping ratio shaped for
  const ShapedCheckSet at = checkShapedTrajectories(m, f, plan, DynamicsOptions(), o, {ShaperKind::ZV}, 3.0, 0.0);
  CHECK(at.shaper_omega == 2 * M_PI * 3.0);
  CHECK(at.rows[0].shaper.amplitude == std::vector<double>{0.5, 0.5});
  CHECK_THROWS_WITH(checkShapedTrajectories(m, f, plan, DynamicsOptions(), o, {ShaperKind::ZV}, 3.0, 1.0),
                    Catch::Contains("damping ratio"));
}
