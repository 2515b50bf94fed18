// `achain send --bus`: a trajectory streamed to a servo-bus arm (cmd_bus.cpp), called from cmd_bridge.cpp's send.
#pragma once
#include <string>

#include <achain/model/model.hpp>

#include "host/segments.hpp"

namespace achain::cli {

/// The port options of every bus subcommand and of `send --bus` (cmd_bus.cpp's addPortOptions): --reply-timeout-ms,
/// how long past a reply's expected end the host waits before it calls the servo silent, and --echo, the adapter
/// returns every byte sent (ServoHostOptions::echo).
struct PortArgs {
  double reply_timeout_ms = 50;
  bool echo = false;
};

struct BusSendArgs {
  std::string bus;           // dynamixel | feetech
  std::string calibration;   // the calibration file (bus calibrate)
  std::string port;          // or virt: an in-process simulated bus with the calibration's servos
  bool virt = false;
  std::string estop_action = "torque-off";
  bool torque_off_at_end = false;
  double settle = 0.5, timeout = 60;
  PortArgs port_args;  // reply_timeout_ms applies on a port; echo also makes the --virtual bus echo
  bool quiet = false;
};

/// Streams `tr` (already read and checked against the robot's joint count) to the bus; prints the report JSON.
/// Exit 1 (an Error) when refused before anything moved; exit 2 when a bus error or a stop ended it in the safe state.
void sendToBus(const BusSendArgs& a, const bridge::SampledTrajectory& tr, const Model& m);

}  // namespace achain::cli
