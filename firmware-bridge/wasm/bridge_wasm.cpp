// C ABI of the standalone bridge module (web/src/controller/wasm/achain_bridge_wasm.mjs): the
// virtual controller (the unchanged firmware on the simulated prototype) and the host streaming
// engine, for the studio's Controller panel and the Node tests. Wrapped by web/src/controller/bridge.js.
#include <emscripten/emscripten.h>

#include <cmath>
#include <new>

#include "host/host_session.hpp"
#include "sim/virtual_controller.hpp"

using namespace achain::bridge;

extern "C" {

// ---------------- virtual controller ----------------
EMSCRIPTEN_KEEPALIVE VirtualController* vc_create(int servo_hz) {
  return new (std::nothrow) VirtualController(prototypeProfile(), static_cast<uint16_t>(servo_hz > 0 ? servo_hz : 1000));
}
EMSCRIPTEN_KEEPALIVE void vc_destroy(VirtualController* v) { delete v; }
EMSCRIPTEN_KEEPALIVE void vc_write(VirtualController* v, const uint8_t* d, int n) { v->write(d, n > 0 ? n : 0); }
EMSCRIPTEN_KEEPALIVE int vc_read(VirtualController* v, uint8_t* out, int cap) { return static_cast<int>(v->read(out, cap > 0 ? cap : 0)); }
EMSCRIPTEN_KEEPALIVE void vc_step(VirtualController* v, int n) { v->step(n); }
EMSCRIPTEN_KEEPALIVE double vc_time(VirtualController* v) { return v->timeSeconds(); }
EMSCRIPTEN_KEEPALIVE int vc_joints(VirtualController* v) { return v->joints(); }
EMSCRIPTEN_KEEPALIVE double vc_position(VirtualController* v, int j) { return v->position(j); }
EMSCRIPTEN_KEEPALIVE double vc_commanded(VirtualController* v, int j) { return v->controller().commanded(j); }
EMSCRIPTEN_KEEPALIVE int vc_state(VirtualController* v) { return static_cast<int>(v->controller().state()); }
EMSCRIPTEN_KEEPALIVE int vc_faults(VirtualController* v) { return v->controller().faults(); }
EMSCRIPTEN_KEEPALIVE int vc_estop(VirtualController* v) { return v->controller().estopEngaged() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE int vc_segments_done(VirtualController* v) { return static_cast<int>(v->controller().segmentsDone()); }

// ---------------- host engine ----------------
static uint64_t us(double ms) { return ms <= 0 ? 0 : static_cast<uint64_t>(std::llround(ms * 1000.0)); }
EMSCRIPTEN_KEEPALIVE HostSession* hs_create() { return new (std::nothrow) HostSession(); }
EMSCRIPTEN_KEEPALIVE void hs_destroy(HostSession* h) { delete h; }
EMSCRIPTEN_KEEPALIVE void hs_receive(HostSession* h, const uint8_t* d, int n, double now_ms) { h->receive(d, n > 0 ? n : 0, us(now_ms)); }
EMSCRIPTEN_KEEPALIVE void hs_update(HostSession* h, double now_ms) { h->update(us(now_ms)); }
EMSCRIPTEN_KEEPALIVE int hs_take(HostSession* h, uint8_t* out, int cap) { return static_cast<int>(h->takeOutput(out, cap > 0 ? cap : 0)); }
EMSCRIPTEN_KEEPALIVE void hs_connect(HostSession* h, double now_ms) { h->connect(us(now_ms)); }
EMSCRIPTEN_KEEPALIVE int hs_connected(HostSession* h) { return h->connected() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE int hs_link_lost(HostSession* h, double now_ms) { return h->linkLost(us(now_ms)) ? 1 : 0; }
/// g: [watchdog_ms, status_period_ms, accel_margin, following_error_max, start_tolerance]
EMSCRIPTEN_KEEPALIVE void hs_configure_global(HostSession* h, const double* g) {
  GlobalConfig c;
  c.watchdog_ms = static_cast<uint16_t>(g[0]);
  c.status_period_ms = static_cast<uint16_t>(g[1]);
  c.accel_margin = static_cast<float>(g[2]);
  c.following_error_max = static_cast<float>(g[3]);
  c.start_tolerance = static_cast<float>(g[4]);
  h->configureGlobal(c);
}
/// c: [joint, gear_ratio, counts_per_rev, zero_offset, q_min, q_max, v_max, a_max, torque_max, kp, ki, kd, inertia_ff, viscous_ff]
EMSCRIPTEN_KEEPALIVE void hs_configure_joint(HostSession* h, const double* c) {
  JointConfig k;
  k.joint = static_cast<uint8_t>(c[0]);
  k.gear_ratio = static_cast<float>(c[1]);
  k.counts_per_rev = static_cast<uint32_t>(c[2]);
  k.zero_offset = static_cast<int32_t>(c[3]);
  k.q_min = static_cast<float>(c[4]);
  k.q_max = static_cast<float>(c[5]);
  k.v_max = static_cast<float>(c[6]);
  k.a_max = static_cast<float>(c[7]);
  k.torque_max = static_cast<float>(c[8]);
  k.kp = static_cast<float>(c[9]);
  k.ki = static_cast<float>(c[10]);
  k.kd = static_cast<float>(c[11]);
  k.inertia_ff = static_cast<float>(c[12]);
  k.viscous_ff = static_cast<float>(c[13]);
  h->configureJoint(k);
}
/// The simulator's matching configuration (prototype profile), as hs_configure_joint's layout.
EMSCRIPTEN_KEEPALIVE void br_default_joint_config(int j, double* c) {
  const SimProfile p = prototypeProfile();
  const JointConfig& k = p.config[j < 0 || j >= p.joints ? 0 : j];
  const double v[14] = {static_cast<double>(j), k.gear_ratio, static_cast<double>(k.counts_per_rev),
                        static_cast<double>(k.zero_offset), k.q_min, k.q_max, k.v_max, k.a_max, k.torque_max,
                        k.kp, k.ki, k.kd, k.inertia_ff, k.viscous_ff};
  for (int i = 0; i < 14; ++i) c[i] = v[i];
}
/// knots: nj × [q0, v0, q1, v1] in µrad, µrad/s
EMSCRIPTEN_KEEPALIVE void hs_queue_segment(HostSession* h, double id, double t_start_us, double duration_us, int flags, int nj,
                                           const int32_t* knots) {
  Segment s;
  s.id = static_cast<uint32_t>(id);
  s.t_start_us = static_cast<uint32_t>(t_start_us);
  s.duration_us = static_cast<uint32_t>(duration_us);
  s.flags = static_cast<uint8_t>(flags);
  s.joints = static_cast<uint8_t>(nj > kMaxJoints ? kMaxJoints : (nj < 0 ? 0 : nj));
  for (int j = 0; j < s.joints; ++j) {
    s.a[j].q = knots[4 * j];
    s.a[j].v = knots[4 * j + 1];
    s.b[j].q = knots[4 * j + 2];
    s.b[j].v = knots[4 * j + 3];
  }
  h->queueSegments({s});
}
EMSCRIPTEN_KEEPALIVE void hs_start(HostSession* h) { h->start(); }
EMSCRIPTEN_KEEPALIVE void hs_pause(HostSession* h) { h->pause(); }
EMSCRIPTEN_KEEPALIVE void hs_resume(HostSession* h) { h->resume(); }
EMSCRIPTEN_KEEPALIVE void hs_clear_faults(HostSession* h) { h->clearFaults(); }
EMSCRIPTEN_KEEPALIVE void hs_stop(HostSession* h, double now_ms) { h->stop(us(now_ms)); }
EMSCRIPTEN_KEEPALIVE void hs_estop(HostSession* h, double now_ms) { h->estop(us(now_ms)); }
EMSCRIPTEN_KEEPALIVE void hs_stream_target(HostSession* h, const double* q, int n, double duration) { h->streamTarget(q, n, duration); }
EMSCRIPTEN_KEEPALIVE int hs_backlog(HostSession* h) { return static_cast<int>(h->backlog()); }
EMSCRIPTEN_KEEPALIVE int hs_segments_pending(HostSession* h) { return static_cast<int>(h->segmentsPending()); }
EMSCRIPTEN_KEEPALIVE int hs_credits(HostSession* h) { return h->credits(); }
EMSCRIPTEN_KEEPALIVE void hs_inject(HostSession* h, double drop, double corrupt, int seed) { h->injectFaults(drop, corrupt, static_cast<uint32_t>(seed)); }
/// caps: [version, schema, joints, servo_hz, queue_capacity, max_body, status_hz]
EMSCRIPTEN_KEEPALIVE void hs_caps(HostSession* h, double* o) {
  const Caps& c = h->caps();
  o[0] = c.version; o[1] = c.schema; o[2] = c.joints; o[3] = c.servo_hz; o[4] = c.queue_capacity; o[5] = c.max_body; o[6] = c.status_hz;
}
/// status: [have, time_us, state, estop, faults, fault_joint, queue_fill, credits, segment_id, segments_done,
///          traj_time_us, joints, q[6], v[6], q_cmd[6]] (SI for q, v, q_cmd)
EMSCRIPTEN_KEEPALIVE void hs_status(HostSession* h, double* o) {
  const Status& s = h->status();
  o[0] = h->haveStatus(); o[1] = s.time_us; o[2] = static_cast<int>(s.state); o[3] = s.estop; o[4] = s.faults;
  o[5] = s.fault_joint; o[6] = s.queue_fill; o[7] = s.credits; o[8] = s.segment_id; o[9] = s.segments_done;
  o[10] = s.traj_time_us; o[11] = s.joints;
  for (int j = 0; j < kMaxJoints; ++j) {
    o[12 + j] = s.q[j] / kPosScale;
    o[18 + j] = s.v[j] / kVelScale;
    o[24 + j] = s.q_cmd[j] / kPosScale;
  }
}
/// counters: [frames_sent, frames_resent, acks, naks, rx_crc_errors, rx_malformed, statuses, events, segments_sent, segments_acked]
EMSCRIPTEN_KEEPALIVE void hs_counters(HostSession* h, double* o) {
  const HostCounters& c = h->counters();
  const double v[10] = {double(c.frames_sent), double(c.frames_resent), double(c.acks), double(c.naks), double(c.rx_crc_errors),
                        double(c.rx_malformed), double(c.statuses), double(c.events), double(c.segments_sent), double(c.segments_acked)};
  for (int i = 0; i < 10; ++i) o[i] = v[i];
}
EMSCRIPTEN_KEEPALIVE int hs_event_count(HostSession* h) { return static_cast<int>(h->events().size()); }
/// event i: [fault, joint, segment_id, value]
EMSCRIPTEN_KEEPALIVE void hs_event(HostSession* h, int i, double* o) {
  const Event& e = h->events()[static_cast<size_t>(i)];
  o[0] = e.fault; o[1] = e.joint; o[2] = e.segment_id; o[3] = e.value;
}

// ---------------- codec (golden vectors, limit checks) ----------------
EMSCRIPTEN_KEEPALIVE int br_crc16(const uint8_t* d, int n) { return crc16(d, n > 0 ? n : 0); }
EMSCRIPTEN_KEEPALIVE int br_schema_id() { return schemaId(); }
EMSCRIPTEN_KEEPALIVE int br_protocol_version() { return kProtocolVersion; }
EMSCRIPTEN_KEEPALIVE int br_cobs_encode(const uint8_t* in, int n, uint8_t* out, int cap) { return static_cast<int>(cobsEncode(in, n, out, cap)); }
EMSCRIPTEN_KEEPALIVE int br_cobs_decode(const uint8_t* in, int n, uint8_t* out, int cap) { return cobsDecode(in, n, out, cap); }
EMSCRIPTEN_KEEPALIVE int br_build_frame(int type, int seq, const uint8_t* body, int n, uint8_t* out, int cap) {
  return static_cast<int>(buildFrame(static_cast<uint8_t>(type), static_cast<uint8_t>(seq), body, n, out, cap));
}
/// Decodes one complete wire frame (ending in 0x00): out = [type, seq, body…]; returns body length,
/// or −(FrameDecoder result) on error.
EMSCRIPTEN_KEEPALIVE int br_decode_frame(const uint8_t* in, int n, uint8_t* out) {
  FrameDecoder d;
  for (int i = 0; i < n; ++i) {
    const FrameDecoder::Result r = d.feed(in[i]);
    if (r == FrameDecoder::kFrame) {
      out[0] = d.type();
      out[1] = d.seq();
      for (int k = 0; k < d.bodyLength(); ++k) out[2 + k] = d.body()[k];
      return d.bodyLength();
    }
    if (r != FrameDecoder::kNone) return -static_cast<int>(r);
  }
  return -100;
}
/// limits: [q_min, q_max, v_max, a_max]; returns LimitViolation (0 = none), worst value in *worst.
EMSCRIPTEN_KEEPALIVE int br_check_piece(double q0, double v0, double q1, double v1, double T, const double* lim, double margin, double* worst) {
  const JointLimitsF L{lim[0], lim[1], lim[2], lim[3]};
  return static_cast<int>(checkPiece(q0, v0, q1, v1, T, L, margin, worst));
}
}

extern "C" {
// Names and user-facing texts, so every host shows the firmware's own words.
EMSCRIPTEN_KEEPALIVE const char* br_fault_name(int bit) { return faultName(static_cast<uint16_t>(bit)); }
EMSCRIPTEN_KEEPALIVE const char* br_fault_text(int bit) { return faultText(static_cast<uint16_t>(bit)); }
EMSCRIPTEN_KEEPALIVE const char* br_state_name(int s) { return stateName(static_cast<State>(s)); }
EMSCRIPTEN_KEEPALIVE const char* br_nak_reason_name(int r) { return nakReasonName(static_cast<uint8_t>(r)); }
EMSCRIPTEN_KEEPALIVE int br_fault_count() { return kFaultCount; }
EMSCRIPTEN_KEEPALIVE int br_queue_capacity() { return kQueueCapacity; }
}
