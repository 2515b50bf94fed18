#include "posix_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include <achain/math/types.hpp>

namespace achain {
namespace bridge {

std::string serialBaudProblem(double baud, const std::string& what) {
  std::string list;
  for (uint32_t b : kSerialBauds) {
    if (baud == b) return "";
    list += (list.empty() ? "" : ", ") + std::to_string(b);
  }
  return what + ": " + std::to_string(static_cast<long long>(baud)) + " is not a supported rate (" + list + ")";
}

namespace {
speed_t baudConstant(int baud) {
  switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 2000000: return B2000000;
  }
  throw Error(serialBaudProblem(baud, "--baud"));
}
uint64_t monoUs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000u + static_cast<uint64_t>(ts.tv_nsec) / 1000u;
}
void makeRaw(int fd, speed_t speed) {
  termios tio;
  if (tcgetattr(fd, &tio) != 0) return;  // not a tty (a pipe in tests): nothing to set
  cfmakeraw(&tio);
  tio.c_cflag |= CLOCAL | CREAD;
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  cfsetispeed(&tio, speed);
  cfsetospeed(&tio, speed);
  tcsetattr(fd, TCSANOW, &tio);
}
}  // namespace

int openSerial(const std::string& path, int baud) {
  const speed_t sp = baudConstant(baud);
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) throw Error("--port " + path + ": cannot open (" + std::strerror(errno) + ")");
  makeRaw(fd, sp);
  return fd;
}

Pty openPty() {
  Pty p;
  p.master = posix_openpt(O_RDWR | O_NOCTTY);
  if (p.master < 0 || grantpt(p.master) != 0 || unlockpt(p.master) != 0)
    throw Error(std::string("controller-sim: cannot create a pseudo-terminal (") + std::strerror(errno) + ")");
  const char* name = ptsname(p.master);
  if (!name) throw Error("controller-sim: ptsname failed");
  p.path = name;
  p.slave = ::open(name, O_RDWR | O_NOCTTY | O_NONBLOCK);
  if (p.slave < 0) throw Error("controller-sim: cannot open " + p.path);
  makeRaw(p.slave, B115200);
  makeRaw(p.master, B115200);
  fcntl(p.master, F_SETFL, fcntl(p.master, F_GETFL) | O_NONBLOCK);
  return p;
}

void FdLink::write(const uint8_t* data, size_t n) {
  size_t off = 0;
  int spins = 0;
  while (off < n && spins < 2000) {
    const ssize_t w = ::write(fd_, data + off, n - off);
    if (w > 0) { off += static_cast<size_t>(w); continue; }
    if (w < 0 && errno != EAGAIN && errno != EINTR) throw Error(std::string("serial write failed: ") + std::strerror(errno));
    pollfd p{fd_, POLLOUT, 0};
    ::poll(&p, 1, 1);
    ++spins;
  }
}

size_t FdLink::read(uint8_t* out, size_t cap) {
  const ssize_t r = ::read(fd_, out, cap);
  if (r > 0) return static_cast<size_t>(r);
  return 0;
}

uint64_t FdLink::nowUs() { return monoUs(); }

void FdLink::wait(uint32_t us) {
  pollfd p{fd_, POLLIN, 0};
  timespec ts{static_cast<time_t>(us / 1000000u), static_cast<long>((us % 1000000u) * 1000u)};
  ::ppoll(&p, 1, &ts, nullptr);
}

namespace {
/// A simulator's output to its PTY: what `read` gives is appended to `pending`, then as much as the PTY takes is
/// written; above 64 KB nobody is reading, and it is dropped, as a UART or bus with no listener would.
template <class Read>
void forwardOutput(int fd, std::vector<uint8_t>& pending, uint8_t* buf, size_t cap, Read read) {
  size_t n;
  while ((n = read(buf, cap)) > 0) pending.insert(pending.end(), buf, buf + n);
  while (!pending.empty()) {
    const ssize_t w = ::write(fd, pending.data(), pending.size());
    if (w <= 0) break;
    pending.erase(pending.begin(), pending.begin() + w);
  }
  if (pending.size() > 65536) pending.clear();
}
}  // namespace

void FdServoLink::setBaud(uint32_t baud) {
  termios tio;
  if (tcgetattr(fd_, &tio) != 0) return;  // not a tty (a pipe in tests)
  const speed_t sp = baudConstant(static_cast<int>(baud));
  cfsetispeed(&tio, sp);
  cfsetospeed(&tio, sp);
  tcsetattr(fd_, TCSANOW, &tio);
}

void runServoBusSim(int fd, VirtualServoBus& bus, const BusSimRunOptions& opt) {
  const uint64_t t_begin = monoUs();
  uint8_t buf[1024];
  std::vector<uint8_t> pending;
  speed_t speed_seen = B0;
  while (!(opt.stop && *opt.stop)) {
    const uint64_t now = monoUs();
    if (opt.duration > 0 && (now - t_begin) * 1e-6 > opt.duration) break;
    termios tio;  // the rate the host set on its end of the PTY (shared by both ends), mapped when it changes
    if (tcgetattr(fd, &tio) == 0 && cfgetospeed(&tio) != speed_seen) {
      speed_seen = cfgetospeed(&tio);
      for (uint32_t b : kSerialBauds)
        if (baudConstant(static_cast<int>(b)) == speed_seen) bus.setPortBaud(b);
    }
    if (opt.each) opt.each(bus, static_cast<double>(now - t_begin) * 1e-6);
    bus.advance(static_cast<double>(now - t_begin));
    for (int k = 0; k < 16; ++k) {
      const ssize_t r = ::read(fd, buf, sizeof buf);
      if (r <= 0) break;
      bus.write(buf, static_cast<size_t>(r));
    }
    forwardOutput(fd, pending, buf, sizeof buf, [&](uint8_t* b, size_t cap) { return bus.read(b, cap); });
    pollfd p{fd, POLLIN, 0};
    timespec ts{0, 100000};  // 100 µs: ten bytes at 1 Mbit/s
    const int r = ::ppoll(&p, 1, &ts, nullptr);
    if (r > 0 && (p.revents & (POLLHUP | POLLERR)) && !(p.revents & POLLIN)) {
      timespec s{0, 1000000};  // no host on the other end yet: do not spin
      nanosleep(&s, nullptr);
    }
  }
}

void runSimulator(int fd, VirtualController& vc, const SimRunOptions& opt) {
  using nlohmann::json;
  const int nj = vc.joints();
  const uint64_t period = 1000000u / 1000u;
  const uint64_t t_begin = monoUs();
  uint64_t next_tick = t_begin;
  std::vector<uint8_t> pending;
  uint8_t buf[4096];
  // the log streams to disk: one line per sample or event, flushed every 50 ms and at each event
  std::FILE* log = nullptr;
  bool log_failed = false;
  uint64_t last_flush = t_begin;
  if (!opt.log_path.empty()) {
    // Non-blocking open: a FIFO nobody reads blocked open() for ever, before the SIGTERM handler could act.
    const int fd = ::open(opt.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0)
      throw Error("--log " + opt.log_path + ": cannot open for writing (" +
                  (errno == ENXIO ? std::string("a FIFO that no process reads") : std::string(std::strerror(errno))) + ")");
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // then written as a plain file
    log = ::fdopen(fd, "w");
    if (!log) {
      ::close(fd);
      throw Error("--log " + opt.log_path + ": cannot open for writing (" + std::strerror(errno) + ")");
    }
  }
  auto writeLine = [&](const json& j, bool flush) {
    if (!log || log_failed) return;
    const std::string line = j.dump() + "\n";
    if (std::fwrite(line.data(), 1, line.size(), log) != line.size()) log_failed = true;
    if (flush || monoUs() - last_flush >= 50000) {
      if (std::fflush(log) != 0) log_failed = true;
      last_flush = monoUs();
    }
  };
  writeLine({{"log", "achain-controller-sim"}, {"version", 2}, {"joints", nj}, {"servo_hz", 1000},
             {"log_period", opt.log_period}, {"mono_us", t_begin}}, true);
  double next_log = 0;
  bool estop_seen = false;
  uint32_t estop_rx_tick = 0, estop_halt_tick = 0;
  uint64_t last_rx_mono = t_begin;
  uint32_t last_rx_sim_us = 0;  // the controller's clock when the last byte arrived
  uint16_t faults_before = 0;
  uint64_t max_late_us = 0;  // the longest this loop woke after a tick was due
  const Controller& c = vc.controller();
  uint8_t obuf[4096];  // the controller's output on its way out (buf holds the input being fed)
  auto flushOutput = [&] {
    forwardOutput(fd, pending, obuf, sizeof obuf, [&](uint8_t* b, size_t cap) { return vc.read(b, cap); });
  };
  auto readInput = [&] {
    for (int k = 0; k < 64; ++k) {
      const ssize_t r = ::read(fd, buf, sizeof buf);
      if (r <= 0) break;
      const bool was = c.estopEngaged();
      // Bytes reach the firmware's RX path as they arrive, and its main loop (poll) runs between them, as on the
      // board, where a UART delivers a byte at a time and the loop drains the inbox far more often than the servo
      // tick. A PTY read can return a whole burst at once (after this process was descheduled: the host's window
      // and its resends), which fed without a poll overflowed the 20-frame inbox (inbox_full 15–58 in loaded runs),
      // so frames were dropped and resent again: a loaded npm test saw "the host resent 217 of 354 frames" and an
      // underrun. 32 bytes hold at most a few frames.
      uint8_t* chunk = buf;
      for (ssize_t left = r; left > 0;) {
        const size_t n = static_cast<size_t>(std::min<ssize_t>(left, 32));
        vc.write(chunk, n);
        vc.controller().poll();
        flushOutput();  // its replies leave as they are made, as a UART's TX would send them
        chunk += n;
        left -= static_cast<ssize_t>(n);
      }
      last_rx_mono = monoUs();
      last_rx_sim_us = vc.hal().time_us;
      if (!was && c.estopEngaged())  // engaged in the receive path: drive and torque already off
        writeLine({{"event", "estop"}, {"t", vc.timeSeconds()}, {"mono_us", last_rx_mono}, {"rx_tick", c.estopTick()},
                   {"drive_enabled", c.driveEnabled()}, {"ticks_to_halt", c.driveEnabled() ? -1 : 0}},
                  true);
    }
  };
  while (!(opt.stop && *opt.stop)) {
    const uint64_t now = monoUs();
    if (opt.duration > 0 && (now - t_begin) * 1e-6 > opt.duration) break;
    if (now >= next_tick) {
      int due = static_cast<int>((now - next_tick) / period) + 1;
      // This process ran late (the machine did not schedule it): logged, so a test can tell a loaded machine from
      // a fault of the code under test.
      const uint64_t late = now - next_tick;
      max_late_us = std::max(max_late_us, late);
      if (late >= 20000) writeLine({{"event", "late"}, {"t", vc.timeSeconds()}, {"mono_us", now}, {"late_ms", late * 1e-3}}, false);
      if (due > 200) {  // far behind (machine suspended or overloaded): resynchronise
        next_tick = now;
        due = 1;
      }
      for (int i = 0; i < due; ++i) {
        readInput();
        if (opt.stall_request && *opt.stall_request) {
          *opt.stall_request = 0;
          const int j = static_cast<int>(monoUs() % static_cast<uint64_t>(nj));
          vc.stall(j, 400);
          writeLine({{"event", "stall"}, {"t", vc.timeSeconds()}, {"joint", j + 1}, {"ticks", 400}}, true);
        }
        if (opt.glitch_request && *opt.glitch_request) {
          *opt.glitch_request = 0;
          const int j = static_cast<int>(monoUs() % static_cast<uint64_t>(nj));
          vc.encoderGlitch(j, 6000, 5);
          writeLine({{"event", "glitch"}, {"t", vc.timeSeconds()}, {"joint", j + 1}, {"counts", 6000}, {"ticks", 5}}, true);
        }
        const bool was_estop = c.estopEngaged();
        const uint32_t done_before = c.segmentsDone();
        vc.step(1);
        if (c.segmentsDone() != done_before)  // execution record: which segment finished (n > 1: several in one tick)
          writeLine({{"exec", c.lastDoneId()}, {"n", c.segmentsDone() - done_before}, {"t", vc.timeSeconds()}}, false);
        if (c.estopEngaged() && !estop_seen) {
          estop_seen = true;
          estop_rx_tick = c.estopTick();
          estop_halt_tick = c.ticks();
        }
        if (!was_estop && c.estopEngaged())  // engaged by the tick itself (not expected: the RX path acts first)
          writeLine({{"event", "estop"}, {"t", vc.timeSeconds()}, {"mono_us", monoUs()}, {"rx_tick", c.estopTick()},
                     {"drive_enabled", c.driveEnabled()}, {"ticks_to_halt", static_cast<int>(c.ticks() - c.estopTick())}},
                    true);
        if (c.faults() != faults_before) {
          const uint16_t added = static_cast<uint16_t>(c.faults() & ~faults_before);
          for (int b = 0; b < kFaultCount; ++b)
            if (added & (1u << b)) {
              json e = {{"event", "fault"}, {"fault", faultName(static_cast<uint16_t>(1u << b))}, {"t", vc.timeSeconds()},
                        {"mono_us", monoUs()}, {"state", stateName(c.state())}};
              if ((1u << b) == kFaultWatchdog) {  // on the controller's clock, and on the wall clock (+ scheduling)
                e["since_last_rx_ms"] = static_cast<uint32_t>(vc.hal().time_us - last_rx_sim_us) / 1000.0;
                e["since_last_rx_wall_ms"] = (monoUs() - last_rx_mono) * 1e-3;
              }
              writeLine(e, true);
            }
          faults_before = c.faults();
        }
        const double t = vc.timeSeconds();
        if (log && t >= next_log) {
          next_log = t + opt.log_period;
          json q = json::array(), qc = json::array();
          for (int j = 0; j < nj; ++j) {
            q.push_back(vc.position(j));
            qc.push_back(c.commanded(j));
          }
          writeLine({{"t", t}, {"q", q}, {"q_cmd", qc}, {"state", stateName(c.state())}, {"done", c.segmentsDone()}}, false);
        }
      }
      next_tick += static_cast<uint64_t>(due) * period;
      flushOutput();
    } else {
      pollfd p{fd, POLLIN, 0};
      const uint64_t dt = next_tick - now;
      timespec ts{0, static_cast<long>(dt * 1000u)};
      const int r = ::ppoll(&p, 1, &ts, nullptr);
      if (r > 0 && (p.revents & POLLIN)) readInput();
      else if (r > 0 && (p.revents & (POLLHUP | POLLERR))) {
        timespec s{0, static_cast<long>(dt * 1000u)};
        nanosleep(&s, nullptr);
      }
    }
  }
  if (!log) return;
  const ControllerCounters& k = c.counters();
  json fq = json::array(), fqc = json::array();
  for (int j = 0; j < nj; ++j) {
    fq.push_back(vc.position(j));
    fqc.push_back(c.commanded(j));
  }
  json faults = json::array();
  for (int b = 0; b < kFaultCount; ++b)
    if (c.faults() & (1u << b)) faults.push_back(faultName(static_cast<uint16_t>(1u << b)));
  writeLine({{"summary",
              {{"counters",
                {{"frames_ok", k.frames_ok}, {"crc_errors", k.crc_errors}, {"malformed", k.malformed}, {"overruns", k.overruns},
                 {"naks_sent", k.naks_sent}, {"duplicates", k.duplicates}, {"out_of_order", k.out_of_order},
                 {"segments_accepted", k.segments_accepted}, {"segments_rejected", k.segments_rejected},
                 {"segments_done", c.segmentsDone()}, {"inbox_full", k.inbox_full}}},
               {"max_late_ms", max_late_us * 1e-3},
               {"estop", {{"engaged", c.estopEngaged()}, {"rx_tick", estop_rx_tick}, {"halt_tick", estop_halt_tick},
                          {"seen", estop_seen}, {"drive_enabled", c.driveEnabled()}}},
               {"final", {{"q", fq}, {"q_cmd", fqc}, {"state", stateName(c.state())}, {"faults", faults}, {"time", vc.timeSeconds()}}}}}},
            true);
  const bool failed = log_failed || std::fclose(log) != 0;
  if (failed) throw Error("--log " + opt.log_path + ": writing the log failed (disk full?)");
}

}  // namespace bridge
}  // namespace achain
