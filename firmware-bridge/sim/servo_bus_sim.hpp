// Simulated servo buses for tests (and later the CLI's PTY and the studio's virtual port): a virtual Dynamixel
// Protocol 2.0 bus of X-series servos and a virtual Feetech STS bus of STS3215s, driven like the virtual
// controller: write(bytes) from the host, advance(t)/step(dt) the clock, read() the servos' replies.
//
// Each servo has a byte control table at the vendor's addresses (the registers a host uses, below), a
// position-servo model (first-order tracking of the goal, speed-capped, 4096 counts per turn), its own baud
// rate and return delay, and answers ping, read, write, sync write, sync read (and, on Dynamixel, bulk read)
// with status packets built by the codecs in servo/.
//
// Wire model (half duplex, 8N1): every byte takes 10 bit times at the port's baud rate, host → servos and back;
// an instruction is acted on when its last byte has arrived; a reply starts after the servo's return delay
// (Return Delay Time × 2 µs) and, in a sync or bulk read, after the previous servo's reply has ended. A servo
// whose baud rate is not the port's sees only garbage: it never answers (a scan at the wrong baud finds nothing).
//
// Control tables (address, size in bytes):
//   Dynamixel X series (ROBOTIS e-Manual, XM430-W350 control table, https://emanual.robotis.com/docs/en/dxl/x/xm430-w350/;
//   source ROBOTIS-GIT/emanual docs/en/dxl/x/xm430-w350.md; the XL430-W250 and XL330-M288 tables have the same
//   addresses for these items):
//     Model Number 0 (2), Firmware Version 6 (1), ID 7 (1), Baud Rate 8 (1: 0 = 9600, 1 = 57600, 2 = 115200,
//     3 = 1M, 4 = 2M, 5 = 3M, 6 = 4M, 7 = 4.5M), Return Delay Time 9 (1, × 2 µs, initial 250), Operating Mode 11
//     (1), Max Position Limit 48 (4), Min Position Limit 52 (4), Shutdown 63 (1, initial 52), Torque Enable 64
//     (1), Hardware Error Status 70 (1), Goal Position 116 (4), Present Current/Load 126 (2), Present Velocity
//     128 (4, × 0.229 rev/min), Present Position 132 (4), Present Input Voltage 144 (2, × 0.1 V), Present
//     Temperature 146 (1, °C). EEPROM items (below 64) can be written only with torque off (else access error).
//     A goal outside Min/Max Position Limit gets a "data limit error" and is not written.
//   Feetech STS3215 (Feetech STS/SMS memory table, as tabulated in lerobot's
//   src/lerobot/motors/feetech/tables.py, STS_SMS_SERIES_CONTROL_TABLE, and the Juxi Tech republication of
//   Feetech's STS memory table cited in servo/feetech.hpp):
//     Model Number 3 (2; 777 for the STS3215 in lerobot's MODEL_NUMBER_TABLE), ID 5 (1), Baud Rate 6 (1: 0 = 1M,
//     1 = 500k, 2 = 250k, 3 = 128k, 4 = 115200, 5 = 57600, 6 = 38400, 7 = 19200), Return Delay Time 7 (1, × 2 µs),
//     Min Angle Limit 9 (2), Max Angle Limit 11 (2), Operating Mode 33 (1), Torque Enable 40 (1), Goal Position
//     42 (2), Goal Speed 46 (2), Present Position 56 (2), Present Speed 58 (2, sign bit 15), Present Load 60 (2,
//     sign bit 10), Present Voltage 62 (1, × 0.1 V), Present Temperature 63 (1, °C), Status 65 (1: the reply's
//     error bits). A goal outside the angle limits is clamped to them.
//
// Hardware errors (injectHardwareError): Dynamixel sets Hardware Error Status bits (bit 0 input voltage, 2
// overheating, 3 motor encoder, 4 electrical shock, 5 overload; e-Manual "Shutdown(63)"); a bit also present in
// Shutdown (initial 52 = overheating | electrical shock | overload) turns torque off and sets the alert bit of
// every status packet. Feetech sets the Status bits (servo/feetech.hpp); overload, overcurrent and overheat
// release torque (as modelled here), voltage and angle-sensor errors are only reported.
//
// Heap-free (fixed arrays), no exceptions: runs natively and in wasm like VirtualController.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace achain {
namespace bridge {

enum class ServoProtocol : uint8_t { Dynamixel = 0, Feetech = 1 };

/// Where a protocol's servos keep the registers a host uses.
struct ServoRegisterMap {
  uint16_t model, id, baud, return_delay, min_limit, max_limit, torque, goal, load, velocity, position, voltage,
      temperature, hw_error;
  uint8_t limit_size, goal_size, velocity_size, position_size, voltage_size;
  uint16_t eeprom_end;  // items below are EEPROM (Dynamixel: written only with torque off)
  uint16_t table_size;
};
const ServoRegisterMap& servoRegisters(ServoProtocol p);
/// Baud rate of a Baud Rate register value (0 if undefined), and the register value of a baud rate (-1 if none).
uint32_t servoBaudOf(ServoProtocol p, uint8_t code);
int servoBaudCode(ServoProtocol p, uint32_t baud);

/// Model numbers (Model Number register).
constexpr uint16_t kModelXM430W350 = 1020, kModelXL430W250 = 1060, kModelXL330M288 = 1200;
constexpr uint16_t kModelSTS3215 = 777;

/// Dynamixel Hardware Error Status bits (e-Manual, Shutdown(63) / Hardware Error Status(70)).
enum DxlHardwareError : uint8_t {
  kDxlInputVoltage = 0x01,
  kDxlOverheating = 0x04,
  kDxlMotorEncoder = 0x08,
  kDxlElectricalShock = 0x10,
  kDxlOverload = 0x20,
};

struct SimServoParams {
  uint8_t id = 1;
  uint16_t model = kModelXM430W350;
  uint32_t baud = 1000000;
  uint8_t return_delay = 0;        // Return Delay Time register (× 2 µs)
  double max_speed = 3000;         // counts/s (XM430-W350 at 12 V: 46 rev/min ≈ 3140 counts/s)
  double time_constant = 0.02;     // s, of the first-order tracking of the goal
  int32_t start_position = 2048;   // counts
  int32_t min_limit = 0, max_limit = 4095;  // the servo's own position limits (counts)
  double voltage = 12.0;           // V
  uint8_t temperature = 32;        // °C
};

/// The protocol's usual servo with ID `id`, as `achain bus-sim`, `send --bus --virtual` and the wasm ServoBusSim make
/// it: an XM430-W350 at 12 V (Dynamixel) or an STS3215 at 7.4 V (Feetech); the other fields as SimServoParams has them.
inline SimServoParams usualSimServo(ServoProtocol p, int id) {
  SimServoParams s;
  s.id = static_cast<uint8_t>(id);
  s.model = p == ServoProtocol::Dynamixel ? kModelXM430W350 : kModelSTS3215;
  s.voltage = p == ServoProtocol::Dynamixel ? 12.0 : 7.4;
  return s;
}

class VirtualServoBus {
 public:
  static constexpr int kMaxServos = 16;
  static constexpr int kTableSize = 160;
  static constexpr int kQueue = 1024;  // bytes on the wire each way (a 6-servo period is < 300): 16 KB each

  explicit VirtualServoBus(ServoProtocol p);
  /// Adds a servo; false when the bus is full or the ID is taken.
  bool addServo(const SimServoParams& s);
  ServoProtocol protocol() const { return protocol_; }

  // ---- the port ----
  /// The host side's baud rate (the USB adapter's setting): bytes travel at it; a servo at another rate ignores them.
  void setPortBaud(uint32_t baud) { port_baud_ = baud; }
  uint32_t portBaud() const { return port_baud_; }
  /// The adapter echoes (TX and RX tied, no direction control): every byte the host sends comes back to it as it
  /// crosses the line, ahead of any reply.
  void setEcho(bool on) { echo_ = on; }
  bool echo() const { return echo_; }
  /// Host → servos bytes, sent from the current time on (after bytes still on the wire).
  void write(const uint8_t* data, size_t n);
  /// Servos → host bytes that have arrived by now.
  size_t read(uint8_t* dst, size_t cap);
  /// Runs the clock to t_us (µs since the start): bytes arrive, instructions are carried out, servos move.
  void advance(double t_us);
  void step(double dt_us) { advance(now_us_ + dt_us); }
  double now() const { return now_us_; }

  // ---- fault injection ----
  /// The next `count` replies of servo `id` carry a wrong CRC/checksum.
  void injectCorruptReplies(uint8_t id, int count);
  /// Servo `id` does not answer the next `count` instructions addressed to it (-1: never again).
  void injectSilence(uint8_t id, int count);
  /// Hardware fault bits (Dynamixel: DxlHardwareError; Feetech: feetech::StatusBit) appear now (0 clears them).
  void injectHardwareError(uint8_t id, uint8_t bits);

  /// A hand turns servo `id` (torque off) to `counts`: its present position reads that from now on. False when
  /// there is no such servo, or when its torque is on (it holds against the hand).
  bool moveByHand(uint8_t id, int32_t counts);

  // ---- inspection (tests) ----
  int servoCount() const { return count_; }
  /// Index of the servo with this ID, -1 if none.
  int find(uint8_t id) const;
  double position(int i) const { return servo_[i].pos; }
  int32_t goal(int i) const;
  bool torqueOn(int i) const;
  uint8_t reg8(int i, uint16_t address) const { return servo_[i].table[address]; }
  /// Instructions received intact / instructions with a bad CRC or checksum (dropped) / sync writes received.
  uint32_t instructions() const { return instructions_; }
  uint32_t badInstructions() const { return bad_instructions_; }
  uint32_t syncWrites() const { return sync_writes_; }
  /// Time (µs) the last sync write of `address` completed, or -1.
  double lastSyncWriteAt(uint16_t address) const { return address == last_sync_write_addr_ ? last_sync_write_us_ : -1; }
  /// The address and completion time (µs) of the last sync write of any address (time -1 when none yet).
  uint16_t lastSyncWriteAddress() const { return last_sync_write_addr_; }
  double lastSyncWriteTime() const { return last_sync_write_us_; }

 private:
  struct Servo {
    uint8_t table[kTableSize];
    double pos = 0, vel = 0;
    double max_speed = 3000, tau = 0.02;
    int corrupt = 0, silent = 0;
  };
  struct Timed {
    uint8_t b;
    double t;
  };
  uint32_t get(const Servo& s, uint16_t a, int size) const;
  void put(Servo& s, uint16_t a, int size, uint32_t v);
  double byteUs() const { return 10e6 / static_cast<double>(port_baud_ ? port_baud_ : 1); }
  bool listening(const Servo& s) const;
  int match(uint8_t id) const;  // a listening servo with this ID, -1 if none
  void feed(uint8_t b, double t);
  bool drop();  // a damaged or impossible instruction: counted, parsing starts again
  bool take(uint8_t id, const uint8_t* body, int n);  // an intact instruction: body = INST, PARAM…
  bool parseDxl(uint8_t b);
  bool parseFeetech(uint8_t b);
  void execute(double t);
  void reply(int i, uint8_t err, const uint8_t* params, size_t n, double t);
  void replyRead(int i, uint16_t address, uint16_t length, double t);
  uint8_t writeItem(int i, uint16_t address, const uint8_t* data, uint16_t n);  // error (Dxl number / 0)
  uint8_t statusByte(const Servo& s) const;
  void publish(Servo& s);
  void integrate(double dt_s);
  void releaseTorqueOnFault(Servo& s);

  ServoProtocol protocol_;
  const ServoRegisterMap& reg_;
  Servo servo_[kMaxServos];
  int count_ = 0;
  uint32_t port_baud_ = 1000000;
  bool echo_ = false;
  double now_us_ = 0;
  // host → servos bytes on the wire, and servos → host bytes (with the time each has fully arrived)
  Timed in_[kQueue];
  int in_head_ = 0, in_tail_ = 0;
  double in_free_us_ = 0;
  Timed out_[kQueue];
  int out_head_ = 0, out_tail_ = 0;
  double out_free_us_ = 0;  // when the servos' side of the line is free again
  // the instruction being received
  uint8_t pkt_[400];
  int pkt_len_ = 0;
  uint8_t id_ = 0, inst_ = 0;
  uint8_t params_[400];
  int nparams_ = 0;
  uint32_t instructions_ = 0, bad_instructions_ = 0, sync_writes_ = 0;
  uint16_t last_sync_write_addr_ = 0xFFFF;
  double last_sync_write_us_ = -1;
};

}  // namespace bridge
}  // namespace achain
