// The simulated prototype: four (up to kMaxJoints) motor + transmission + link plants driven by the
// unchanged firmware Controller through a simulated HAL. Heap-free too, so the same object runs
// natively (achain controller-sim, tests) and in WebAssembly (the studio's virtual controller).
//
// Plant per joint (joint side, q = θ_v of the A-pair):
//   (J_link + N²·J_rotor)·q̈ = N·τ_motor − b·q̇ − c·sign(q̇) − G·cos(q − q_g)  [− brake when disabled]
// with N the signed motor-to-joint ratio (prototype drive: spline 1 : −1 times a gearbox), τ_motor
// clamped to the motor's peak torque, and an absolute encoder on the motor shaft.
// With drive_stiffness k > 0 the drive is flexible (Spong's two-mass model, docs/flexible.md, "Controller simulator with flexible drives"):
//   N²·J_rotor·θ̈ = N·τ_motor − b·θ̇ − c·sign(θ̇) − k·(θ − q) − d·(θ̇ − q̇)   [− brake]   (motor side, θ on the joint side)
//   J_link·q̈    = k·(θ − q) + d·(θ̇ − q̇) − G·cos(q − q_g)                                 (link)
// the friction and brake act on the motor side and the encoder reads θ; position() is the link's q.
#pragma once
#include "../mcu/controller.hpp"

namespace achain {
namespace bridge {

struct PlantParams {
  double link_inertia = 0.3;      // kg·m², joint side
  double rotor_inertia = 5e-5;    // kg·m², motor side
  double gear_ratio = -50;        // motor turns per joint turn (signed)
  double viscous = 0.5;           // N·m·s/rad, joint side
  double coulomb = 1.0;           // N·m, joint side
  double gravity = 0.0;           // N·m amplitude of the G·cos(q − q_g) load
  double gravity_phase = 0.0;     // rad
  double motor_torque_max = 0.8;  // N·m at the motor
  double brake_torque = 60.0;     // N·m joint side, when the drive is disabled
  uint32_t counts_per_rev = 4096; // encoder counts per motor revolution
  int32_t encoder_offset = 0;     // encoder count at q = 0 (the true one; the host configures its belief)
  double drive_stiffness = 0.0;   // N·m/rad joint side between motor and link; 0 = rigid drive
  double drive_damping = 0.0;     // N·m·s/rad, the damper beside the drive spring
};

struct SimProfile {
  int joints = 4;
  PlantParams plant[kMaxJoints];
  JointConfig config[kMaxJoints];  // matching controller configuration (gains tuned for the plant)
  GlobalConfig global;
  double q_start[kMaxJoints] = {0};
};

/// The prototype 4A-chain with the thesis's Table 3.11 speed/acceleration limits (joints 1–4),
/// 60°..300° θ_v limits, spline drive 1:−1 behind a 50:1 gearbox, 4096-count motor encoders, and
/// PID + feed-forward gains for a 15 Hz position bandwidth. Starts at θ_v = 60° on every joint.
SimProfile prototypeProfile();

/// The prototype with a flexible drive on every joint: k = 5354 N·m/rad (docs/flexible.md#prototype-drive:
/// gearbox, gear mesh and spline in series) and damping d N·m·s/rad; the controller's gains are unchanged.
SimProfile prototypeFlexibleProfile(double stiffness = 5354.0, double damping = 12.95);

class SimHal final : public Hal {
 public:
  void setMotorTorque(int joint, float t) override {
    if (joint >= 0 && joint < kMaxJoints) torque[joint] = t;
  }
  void setDriveEnabled(bool e) override { enabled = e; }
  int32_t readEncoder(int joint) override { return joint >= 0 && joint < kMaxJoints ? encoder[joint] : 0; }
  uint32_t micros() override { return time_us; }
  size_t serialWrite(const uint8_t* data, size_t n) override;

  float torque[kMaxJoints] = {0};
  int32_t encoder[kMaxJoints] = {0};
  bool enabled = false;
  uint32_t time_us = 0;
  // controller → host bytes
  static constexpr int kOutCapacity = 16384;
  uint8_t out[kOutCapacity];
  int out_head = 0, out_tail = 0;
  size_t takeOutput(uint8_t* dst, size_t cap);
};

class VirtualController {
 public:
  explicit VirtualController(const SimProfile& p, uint16_t servo_hz = 1000);
  /// Host → controller bytes: each goes through the firmware's receive path now.
  void write(const uint8_t* data, size_t n);
  /// Controller → host bytes produced so far.
  size_t read(uint8_t* dst, size_t cap) { return hal_.takeOutput(dst, cap); }
  /// Runs n servo periods: tick, plant integration over the period, main-loop poll.
  void step(int n = 1);

  /// Plant faults (soak tests): joint j jams where it is for `ticks` servo periods (a stalled motor: the
  /// controller sees a following error), or its encoder reads `counts` off for `ticks` periods (a glitch).
  void stall(int j, int ticks) {
    if (j >= 0 && j < kMaxJoints) stall_ticks_[j] = ticks;
  }
  void encoderGlitch(int j, int32_t counts, int ticks) {
    if (j >= 0 && j < kMaxJoints) { glitch_counts_[j] = counts; glitch_ticks_[j] = ticks; }
  }

  Controller& controller() { return ctrl_; }
  const SimHal& hal() const { return hal_; }
  double position(int j) const { return q_[j]; }
  /// Motor angle on the joint side (θ); equals position() for a rigid drive.
  double motorPosition(int j) const { return profile_.plant[j].drive_stiffness > 0 ? th_[j] : q_[j]; }
  double velocity(int j) const { return qd_[j]; }
  double timeSeconds() const { return hal_.time_us * 1e-6; }
  int joints() const { return profile_.joints; }
  const SimProfile& profile() const { return profile_; }

 private:
  void integrate(double dt);
  void updateEncoders();
  SimProfile profile_;
  SimHal hal_;
  Controller ctrl_;
  uint16_t servo_hz_;
  double q_[kMaxJoints] = {0}, qd_[kMaxJoints] = {0};
  double th_[kMaxJoints] = {0}, thd_[kMaxJoints] = {0};  // motor side of a flexible drive
  int stall_ticks_[kMaxJoints] = {0}, glitch_ticks_[kMaxJoints] = {0};
  int32_t glitch_counts_[kMaxJoints] = {0};
};

}  // namespace bridge
}  // namespace achain
