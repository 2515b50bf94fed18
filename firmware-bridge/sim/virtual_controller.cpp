#include "virtual_controller.hpp"

#include <math.h>

namespace achain {
namespace bridge {

namespace {
constexpr double kPi = 3.141592653589793;
constexpr double kDeg = kPi / 180.0;
}  // namespace

SimProfile prototypeProfile() {
  SimProfile p;
  p.joints = 4;
  // Table 3.11 (CRS A465 rows 1–4): speed, default acceleration, continuous stall torque (in-lb → N·m).
  const double vmax[4] = {180 * kDeg, 180 * kDeg, 180 * kDeg, 171 * kDeg};
  const double amax[4] = {720 * kDeg, 720 * kDeg, 720 * kDeg, 1430 * kDeg};
  const double stall[4] = {350 * 0.112984829, 350 * 0.112984829, 350 * 0.112984829, 61 * 0.112984829};
  const double link_inertia[4] = {0.30, 0.30, 0.20, 0.02};
  const double gravity[4] = {0.0, 12.0, 5.0, 0.0};  // N·m: shoulder and elbow carry the arm
  for (int j = 0; j < 4; ++j) {
    PlantParams& pl = p.plant[j];
    pl.link_inertia = link_inertia[j];
    pl.rotor_inertia = j < 3 ? 5e-5 : 1e-5;
    pl.gear_ratio = -50.0;  // spline drive 1:−1 (thesis Fig. 3.9) behind a 50:1 gearbox
    pl.viscous = j < 3 ? 0.5 : 0.05;
    pl.coulomb = j < 3 ? 1.0 : 0.1;
    pl.gravity = gravity[j];
    pl.gravity_phase = 0.0;
    pl.motor_torque_max = stall[j] / 50.0 * 1.2;
    pl.brake_torque = j < 3 ? 60.0 : 10.0;
    pl.counts_per_rev = 4096;
    pl.encoder_offset = 0;

    const double J = pl.link_inertia + pl.gear_ratio * pl.gear_ratio * pl.rotor_inertia;
    const double w = 2 * kPi * 15.0;  // position-loop bandwidth
    JointConfig& c = p.config[j];
    c.joint = static_cast<uint8_t>(j);
    c.gear_ratio = static_cast<float>(pl.gear_ratio);
    c.counts_per_rev = pl.counts_per_rev;
    c.zero_offset = 0;
    c.q_min = static_cast<float>(60 * kDeg);
    c.q_max = static_cast<float>(300 * kDeg);
    c.v_max = static_cast<float>(vmax[j]);
    c.a_max = static_cast<float>(amax[j]);
    c.torque_max = static_cast<float>(stall[j]);
    c.kp = static_cast<float>(J * w * w);
    c.kd = static_cast<float>(2.0 * 0.9 * w * J);
    c.ki = static_cast<float>(J * w * w * w / 10.0);
    c.inertia_ff = static_cast<float>(J);
    c.viscous_ff = static_cast<float>(pl.viscous);
    p.q_start[j] = 60 * kDeg;
  }
  p.global = GlobalConfig();
  return p;
}

SimProfile prototypeFlexibleProfile(double stiffness, double damping) {
  SimProfile p = prototypeProfile();
  for (int j = 0; j < p.joints; ++j) {
    p.plant[j].drive_stiffness = stiffness;
    p.plant[j].drive_damping = damping;
  }
  return p;
}

size_t SimHal::serialWrite(const uint8_t* data, size_t n) {
  size_t w = 0;
  while (w < n) {
    const int next = (out_head + 1) % kOutCapacity;
    if (next == out_tail) break;
    out[out_head] = data[w++];
    out_head = next;
  }
  return w;
}

size_t SimHal::takeOutput(uint8_t* dst, size_t cap) {
  size_t n = 0;
  while (n < cap && out_tail != out_head) {
    dst[n++] = out[out_tail];
    out_tail = (out_tail + 1) % kOutCapacity;
  }
  return n;
}

VirtualController::VirtualController(const SimProfile& p, uint16_t servo_hz)
    : profile_(p), hal_(), ctrl_(hal_, p.joints, servo_hz, "achain-sim"), servo_hz_(servo_hz ? servo_hz : 1000) {
  for (int j = 0; j < profile_.joints; ++j) q_[j] = th_[j] = profile_.q_start[j];
  updateEncoders();
}

void VirtualController::write(const uint8_t* data, size_t n) {
  for (size_t i = 0; i < n; ++i) ctrl_.onRxByte(data[i]);
}

void VirtualController::updateEncoders() {
  for (int j = 0; j < profile_.joints; ++j) {
    const PlantParams& pl = profile_.plant[j];
    const double counts = motorPosition(j) * pl.gear_ratio * pl.counts_per_rev / (2 * kPi);
    hal_.encoder[j] = pl.encoder_offset + static_cast<int32_t>(floor(counts + 0.5)) + (glitch_ticks_[j] > 0 ? glitch_counts_[j] : 0);
  }
}

namespace {
/// Semi-implicit Euler step of one body of inertia J at (x, v) under `drive` and Coulomb friction/brake `stick`
/// with stiction: a resting body stays put while |drive| ≤ stick, and friction cannot reverse the motion.
void frictionStep(double& x, double& v, double drive, double stick, double J, double dt) {
  if (fabs(v) < 1e-9 && fabs(drive) <= stick) {
    v = 0;
    return;
  }
  const double dir = v != 0 ? (v > 0 ? 1.0 : -1.0) : (drive > 0 ? 1.0 : -1.0);
  const double v_new = v + (drive - stick * dir) / J * dt;
  if (v != 0 && v_new * v < 0 && fabs(drive) <= stick) v = 0;
  else v = v_new;
  x += v * dt;
}
}  // namespace

void VirtualController::integrate(double dt) {
  for (int j = 0; j < profile_.joints; ++j) {
    const PlantParams& pl = profile_.plant[j];
    const bool flexible = pl.drive_stiffness > 0;
    if (stall_ticks_[j] > 0) {  // jammed: held where it is whatever the motor does
      qd_[j] = 0;
      thd_[j] = 0;
      continue;
    }
    const double Jm = pl.gear_ratio * pl.gear_ratio * pl.rotor_inertia;
    double tm = hal_.enabled ? hal_.torque[j] : 0.0;
    if (tm > pl.motor_torque_max) tm = pl.motor_torque_max;
    if (tm < -pl.motor_torque_max) tm = -pl.motor_torque_max;
    const double stick = pl.coulomb + (hal_.enabled ? 0.0 : pl.brake_torque);
    const double load = pl.gravity * cos(q_[j] - pl.gravity_phase);
    if (!flexible) {
      const double drive = pl.gear_ratio * tm - load - pl.viscous * qd_[j];
      frictionStep(q_[j], qd_[j], drive, stick, pl.link_inertia + Jm, dt);
      continue;
    }
    // Two masses through the drive spring: the motor side first (friction, brake), then the link with the
    // motor's new state (semi-implicit, stable for ω·dt < 2; ω·dt ≈ 0.07 at the prototype's values).
    const double spring = pl.drive_stiffness * (th_[j] - q_[j]) + pl.drive_damping * (thd_[j] - qd_[j]);
    frictionStep(th_[j], thd_[j], pl.gear_ratio * tm - pl.viscous * thd_[j] - spring, stick, Jm, dt);
    const double spring2 = pl.drive_stiffness * (th_[j] - q_[j]) + pl.drive_damping * (thd_[j] - qd_[j]);
    qd_[j] += (spring2 - load) / pl.link_inertia * dt;
    q_[j] += qd_[j] * dt;
  }
}

void VirtualController::step(int n) {
  const uint32_t period = 1000000u / servo_hz_;
  const int sub = 10;
  for (int i = 0; i < n; ++i) {
    ctrl_.tick();
    for (int k = 0; k < sub; ++k) {
      integrate(period * 1e-6 / sub);
    }
    hal_.time_us += period;
    for (int j = 0; j < kMaxJoints; ++j) {
      if (stall_ticks_[j] > 0) --stall_ticks_[j];
      if (glitch_ticks_[j] > 0) --glitch_ticks_[j];
    }
    updateEncoders();
    ctrl_.poll();
  }
}

}  // namespace bridge
}  // namespace achain
