// Helpers of the firmware-bridge tests: hex, golden vectors, an in-process lossy link between the
// host engine and the virtual controller with virtual time.
#pragma once
#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "host/host_session.hpp"
#include "host/segments.hpp"
#include <catch2/catch.hpp>
#include "sim/virtual_controller.hpp"
#include "test_paths.hpp"

namespace bridge_test {

using namespace achain::bridge;

inline std::vector<uint8_t> fromHex(const std::string& h) {
  std::vector<uint8_t> v;
  for (size_t i = 0; i + 1 < h.size(); i += 2) v.push_back(static_cast<uint8_t>(std::stoi(h.substr(i, 2), nullptr, 16)));
  return v;
}
inline std::string toHex(const uint8_t* d, size_t n) {
  static const char* k = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += k[d[i] >> 4];
    s += k[d[i] & 15];
  }
  return s;
}
inline nlohmann::json golden() {
  std::ifstream f(achain::test::sourceDir() + "/tests/firmware-bridge/golden.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return nlohmann::json::parse(ss.str());
}

inline std::vector<JointLimitsF> profileLimits(const SimProfile& p) {
  std::vector<JointLimitsF> l;
  for (int j = 0; j < p.joints; ++j) l.push_back({p.config[j].q_min, p.config[j].q_max, p.config[j].v_max, p.config[j].a_max});
  return l;
}

/// Host engine ↔ virtual controller, 1 ms per step, with optional damage on the controller→host
/// direction (the host→controller direction is damaged by HostSession::injectFaults).
struct Rig {
  SimProfile profile = prototypeProfile();
  VirtualController vc{profile};
  HostSession host;
  std::mt19937 rng{7};
  double up_drop = 0, up_corrupt = 0;  // controller → host byte damage
  bool host_alive = true;
  uint64_t last_host_tx_us = 0;
  uint64_t now() const { return vc.hal().time_us; }
  std::function<void()> on_step;

  explicit Rig(SimProfile p = prototypeProfile(), HostOptions o = HostOptions()) : profile(p), vc(p), host(o) {}

  void step(int n = 1) {
    uint8_t buf[4096];
    for (int i = 0; i < n; ++i) {
      if (host_alive) {
        host.update(now());
        size_t k;
        while ((k = host.takeOutput(buf, sizeof buf)) > 0) {
          vc.write(buf, k);
          last_host_tx_us = now();
        }
      }
      vc.step(1);
      size_t k;
      while ((k = vc.read(buf, sizeof buf)) > 0) {
        std::uniform_real_distribution<double> u(0, 1);
        for (size_t b = 0; b < k; ++b) {
          if (up_drop > 0 && u(rng) < up_drop) buf[b] = 0x00;  // a lost byte: the frame breaks at a delimiter
          else if (up_corrupt > 0 && u(rng) < up_corrupt) buf[b] ^= 0x24;
        }
        if (host_alive) host.receive(buf, k, now());
      }
      if (on_step) on_step();
    }
  }
  template <class Pred>
  bool runUntil(Pred p, int max_ms) {
    for (int i = 0; i < max_ms; ++i) {
      if (p()) return true;
      step();
    }
    return p();
  }
  bool connectAndConfigure() {
    host.connect(now());
    if (!runUntil([&] { return host.connected(); }, 3000)) return false;
    host.configureGlobal(profile.global);
    for (int j = 0; j < profile.joints; ++j) host.configureJoint(profile.config[j]);
    return runUntil([&] { return host.backlog() == 0 && host.haveStatus() && host.status().state == State::Idle; }, 3000);
  }
};

/// One streamed plan measured against itself.
struct Run {
  double max_track = 0;      // max |plant − plan| during the motion, rad
  double max_cmd_dev = 0;    // max |commanded − plan|, rad
  double final_err = 0;      // max |measured − plan end| after settling, rad
  double residual = 0;       // vibration after the end: max |plant − its value 500 ms later| over those 500 ms, rad
  double link_offset = 0;    // max |plant − plan end| 500 ms after the end (a flexible link's static sag), rad
  bool ok = false;
  bool ids_monotonic = true;
};

/// Queues `segs`, waits until `prefill` of them are acknowledged (within timeout_ms), then starts.
inline void startAfterPrefill(Rig& rig, const std::vector<Segment>& segs, size_t prefill, int timeout_ms) {
  rig.host.queueSegments(segs);
  REQUIRE(rig.runUntil([&] { return rig.host.counters().segments_acked >= prefill; }, timeout_ms));
  rig.host.start();
}

/// Streams `segs`, starts after a prefill, runs to the end, settles; compares with the plan.
inline Run streamPlan(Rig& rig, const std::vector<Segment>& segs, int max_ms = 20000) {
  Run r;
  startAfterPrefill(rig, segs, std::min<size_t>(segs.size(), 32), 5000);
  bool have_t0 = false;
  double t0 = 0;
  uint32_t last_id = 0;
  const int nj = rig.vc.joints();
  rig.on_step = [&] {
    const Status& s = rig.host.status();
    if (!have_t0 && s.state == State::Running && s.traj_time_us > 0) {
      t0 = (s.time_us - s.traj_time_us) * 1e-6;
      have_t0 = true;
    }
    if (s.segment_id < last_id) r.ids_monotonic = false;
    last_id = s.segment_id;
    if (have_t0 && rig.vc.controller().state() == State::Running) {
      double plan[kMaxJoints];
      evaluateSegments(segs, rig.vc.timeSeconds() - t0, plan);
      double planc[kMaxJoints];
      evaluateSegments(segs, rig.vc.timeSeconds() - 1e-3 - t0, planc);  // the command of the tick just run
      for (int j = 0; j < nj; ++j) {
        r.max_track = std::max(r.max_track, std::fabs(rig.vc.position(j) - plan[j]));
        r.max_cmd_dev = std::max(r.max_cmd_dev, std::fabs(rig.vc.controller().commanded(j) - planc[j]));
      }
    }
  };
  const uint32_t end_id = segs.back().id;
  r.ok = rig.runUntil(
      [&] {
        const Status& s = rig.host.status();
        return rig.host.backlog() == 0 && s.state == State::Idle && s.segment_id == end_id && s.queue_fill == 0;
      },
      max_ms);
  std::vector<std::vector<double>> settle(nj);
  rig.on_step = [&] {
    for (int j = 0; j < nj; ++j) settle[j].push_back(rig.vc.position(j));
  };
  rig.step(500);
  rig.on_step = nullptr;
  for (int j = 0; j < nj; ++j) {
    for (double x : settle[j]) r.residual = std::max(r.residual, std::fabs(x - settle[j].back()));
    r.link_offset = std::max(r.link_offset, std::fabs(settle[j].back() - segs.back().b[j].q / kPosScale));
  }
  for (int j = 0; j < nj; ++j)
    r.final_err = std::max(r.final_err, std::fabs(rig.host.status().q[j] / kPosScale - segs.back().b[j].q / kPosScale));
  return r;
}

}  // namespace bridge_test
