// The firmware's hardware-abstraction layer: everything board-specific the controller touches.
// Implemented by the simulator (sim/sim_hal.hpp), the Cortex-M4 stub board (mcu/board_m4.cpp)
// and, on real hardware, by a board port (PWM/current loop, quadrature timer, UART).
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace achain {
namespace bridge {

class Hal {
 public:
  /// Motor torque command at the motor shaft, N·m (the board maps it to current/PWM).
  virtual void setMotorTorque(int joint, float torque_nm) = 0;
  /// Power stage enable; false also engages the brake where one is fitted.
  virtual void setDriveEnabled(bool enabled) = 0;
  /// Encoder count of the motor shaft (absolute or since power-up; wraps as int32).
  virtual int32_t readEncoder(int joint) = 0;
  /// Free-running microsecond clock (wraps at 2^32).
  virtual uint32_t micros() = 0;
  /// Non-blocking serial write; returns how many bytes were accepted.
  virtual size_t serialWrite(const uint8_t* data, size_t n) = 0;

 protected:
  ~Hal() = default;
};

}  // namespace bridge
}  // namespace achain
