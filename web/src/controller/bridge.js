// The bridge's C++ core in the browser and in Node, through one small WebAssembly module
// (firmware-bridge/wasm/bridge_wasm.cpp → ./wasm/achain_bridge_wasm.mjs, wasm embedded):
//   HostEngine        the host streaming engine (sequencing, resend, credit, heartbeats, stop/e-stop)
//   VirtualControllerCore  the unchanged firmware on the simulated prototype (the virtual controller)
//   codec             CRC, COBS, frames, limit check — the C++ codec itself, no JS re-implementation
// plus segmentsFromTrajectory(): the achain-trajectory JSON → cubic Hermite segments (fixed point).
import createBridgeModule from './wasm/achain_bridge_wasm.mjs';

export const SegmentFlags = Object.freeze({ blend: 1, last: 2, stream: 4 });
export const States = Object.freeze(['unconfigured', 'idle', 'running', 'paused', 'stopping', 'estop', 'fault']);
export const LimitViolation = Object.freeze(['none', 'position', 'velocity', 'acceleration', 'duration']);
const POS = 1e6; // µrad per rad
const VEL = 1e6;

let modulePromise = null;

/** Loads (once) the bridge module and returns {module, codec, HostEngine, VirtualControllerCore, ...}. */
export async function loadBridge() {
  if (!modulePromise) modulePromise = createBridgeModule();
  const M = await modulePromise;
  return makeApi(M);
}

function makeApi(M) {
  const scratchBytes = M._malloc(1 << 16);
  const scratchF64 = M._malloc(64 * 8);
  const scratchI32 = M._malloc(64 * 4);
  const u8 = () => M.HEAPU8;
  const f64 = (n) => new Float64Array(M.HEAPF64.buffer, scratchF64, n);
  const cstr = (ptr) => {
    const h = M.HEAPU8;
    let e = ptr;
    while (h[e]) e++;
    return new TextDecoder().decode(h.subarray(ptr, e));
  };
  const putBytes = (bytes, at = scratchBytes) => {
    if (bytes.length > 1 << 16) throw new RangeError('bridge: at most 65536 bytes per call');
    u8().set(bytes, at);
    return at;
  };
  const takeBytes = (fn) => {
    const n = fn(scratchBytes, 1 << 16);
    return n > 0 ? u8().slice(scratchBytes, scratchBytes + n) : new Uint8Array(0);
  };

  const faultCount = M._br_fault_count();
  const faults = [];
  for (let b = 0; b < faultCount; b++) {
    faults.push({ bit: 1 << b, name: cstr(M._br_fault_name(1 << b)), text: cstr(M._br_fault_text(1 << b)) });
  }
  /** Fault bits → [{bit, name, text}] with the firmware's own words. */
  const describeFaults = (bits) => faults.filter((f) => bits & f.bit);

  const codec = {
    protocolVersion: M._br_protocol_version(),
    schemaId: M._br_schema_id(),
    queueCapacity: M._br_queue_capacity(),
    crc16(bytes) {
      return M._br_crc16(putBytes(bytes), bytes.length);
    },
    cobsEncode(bytes) {
      const out = scratchBytes + 32768;
      const n = M._br_cobs_encode(putBytes(bytes), bytes.length, out, 32768);
      return u8().slice(out, out + n);
    },
    cobsDecode(bytes) {
      const out = scratchBytes + 32768;
      const n = M._br_cobs_decode(putBytes(bytes), bytes.length, out, 32768);
      return n < 0 ? null : u8().slice(out, out + n);
    },
    buildFrame(type, seq, body = new Uint8Array(0)) {
      const out = scratchBytes + 32768;
      const n = M._br_build_frame(type, seq, putBytes(body), body.length, out, 32768);
      return u8().slice(out, out + n);
    },
    /** One wire frame → {type, seq, body} or {error}. */
    decodeFrame(bytes) {
      const out = scratchBytes + 32768;
      const n = M._br_decode_frame(putBytes(bytes), bytes.length, out);
      if (n < 0) return { error: ['', 'frame', 'crc', 'malformed', 'overrun'][-n] ?? 'incomplete' };
      const h = u8();
      return { type: h[out], seq: h[out + 1], body: h.slice(out + 2, out + 2 + n) };
    },
    /** The same limit check the firmware runs: → {violation, worst}. */
    checkPiece(q0, v0, q1, v1, T, lim, margin = 1.5) {
      const L = f64(5);
      L.set([lim.qMin, lim.qMax, lim.vMax, lim.aMax]);
      const worstPtr = scratchF64 + 8 * 4;
      const v = M._br_check_piece(q0, v0, q1, v1, T, scratchF64, margin, worstPtr);
      return { violation: LimitViolation[v], worst: M.HEAPF64[worstPtr / 8] };
    },
  };

  /** The simulator's matching joint configuration (prototype profile) for joint j. */
  function defaultJointConfig(j) {
    M._br_default_joint_config(j, scratchF64);
    const c = Array.from(f64(14));
    return {
      joint: c[0], gearRatio: c[1], countsPerRev: c[2], zeroOffset: c[3], qMin: c[4], qMax: c[5], vMax: c[6],
      aMax: c[7], torqueMax: c[8], kp: c[9], ki: c[10], kd: c[11], inertiaFf: c[12], viscousFf: c[13],
    };
  }
  const defaultGlobalConfig = () => ({
    watchdogMs: 200, statusPeriodMs: 20, accelMargin: 1.5, followingErrorMax: 0.1, startTolerance: 0.01,
  });

  class HostEngine {
    constructor() {
      this.ptr = M._hs_create();
    }
    dispose() {
      if (this.ptr) M._hs_destroy(this.ptr);
      this.ptr = 0;
    }
    receive(bytes, nowMs) {
      M._hs_receive(this.ptr, putBytes(bytes), bytes.length, nowMs);
    }
    update(nowMs) {
      M._hs_update(this.ptr, nowMs);
    }
    takeOutput() {
      return takeBytes((p, n) => M._hs_take(this.ptr, p, n));
    }
    connect(nowMs) {
      M._hs_connect(this.ptr, nowMs);
    }
    get connected() {
      return M._hs_connected(this.ptr) === 1;
    }
    linkLost(nowMs) {
      return M._hs_link_lost(this.ptr, nowMs) === 1;
    }
    configureGlobal(g) {
      f64(5).set([g.watchdogMs, g.statusPeriodMs, g.accelMargin, g.followingErrorMax, g.startTolerance]);
      M._hs_configure_global(this.ptr, scratchF64);
    }
    configureJoint(c) {
      f64(14).set([c.joint, c.gearRatio, c.countsPerRev, c.zeroOffset, c.qMin, c.qMax, c.vMax, c.aMax, c.torqueMax,
        c.kp, c.ki, c.kd, c.inertiaFf, c.viscousFf]);
      M._hs_configure_joint(this.ptr, scratchF64);
    }
    /** seg: {id, tStartUs, durationUs, flags, knots: Int32Array(4·nj) [q0,v0,q1,v1 per joint] µrad, µrad/s} */
    queueSegment(seg) {
      const nj = seg.knots.length / 4;
      new Int32Array(M.HEAP32.buffer, scratchI32, seg.knots.length).set(seg.knots);
      M._hs_queue_segment(this.ptr, seg.id, seg.tStartUs, seg.durationUs, seg.flags, nj, scratchI32);
    }
    start() { M._hs_start(this.ptr); }
    pause() { M._hs_pause(this.ptr); }
    resume() { M._hs_resume(this.ptr); }
    clearFaults() { M._hs_clear_faults(this.ptr); }
    stop(nowMs) { M._hs_stop(this.ptr, nowMs); }
    estop(nowMs) { M._hs_estop(this.ptr, nowMs); }
    streamTarget(q, duration = 0.1) {
      f64(q.length).set(q);
      M._hs_stream_target(this.ptr, scratchF64, q.length, duration);
    }
    inject(drop, corrupt, seed = 1) { M._hs_inject(this.ptr, drop, corrupt, seed); }
    get backlog() { return M._hs_backlog(this.ptr); }
    get segmentsPending() { return M._hs_segments_pending(this.ptr); }
    get credits() { return M._hs_credits(this.ptr); }
    get caps() {
      M._hs_caps(this.ptr, scratchF64);
      const c = f64(7);
      return { version: c[0], schema: c[1], joints: c[2], servoHz: c[3], queueCapacity: c[4], maxBody: c[5], statusHz: c[6] };
    }
    /** Latest controller status (SI), or null before the first one. */
    get status() {
      M._hs_status(this.ptr, scratchF64);
      const o = f64(30);
      if (!o[0]) return null;
      const nj = o[11];
      return {
        time: o[1] * 1e-6, state: States[o[2]], estop: o[3] === 1, faults: o[4], faultNames: describeFaults(o[4]).map((f) => f.name),
        faultJoint: o[5] === 255 ? null : o[5], queueFill: o[6], credits: o[7], segmentId: o[8], segmentsDone: o[9],
        trajTime: o[10] * 1e-6, q: Array.from(o.subarray(12, 12 + nj)), v: Array.from(o.subarray(18, 18 + nj)),
        qCmd: Array.from(o.subarray(24, 24 + nj)),
      };
    }
    get counters() {
      M._hs_counters(this.ptr, scratchF64);
      const c = f64(10);
      return { framesSent: c[0], framesResent: c[1], acks: c[2], naks: c[3], rxCrcErrors: c[4], rxMalformed: c[5],
        statuses: c[6], events: c[7], segmentsSent: c[8], segmentsAcked: c[9] };
    }
    get events() {
      const n = M._hs_event_count(this.ptr);
      const out = [];
      for (let i = 0; i < n; i++) {
        M._hs_event(this.ptr, i, scratchF64);
        const e = f64(4);
        out.push({ fault: describeFaults(e[0])[0]?.name ?? String(e[0]), joint: e[1] === 255 ? null : e[1], segmentId: e[2], value: e[3] });
      }
      return out;
    }
  }

  class VirtualControllerCore {
    constructor(servoHz = 1000) {
      this.ptr = M._vc_create(servoHz);
      this.joints = M._vc_joints(this.ptr);
    }
    dispose() {
      if (this.ptr) M._vc_destroy(this.ptr);
      this.ptr = 0;
    }
    write(bytes) { M._vc_write(this.ptr, putBytes(bytes), bytes.length); }
    read() { return takeBytes((p, n) => M._vc_read(this.ptr, p, n)); }
    step(n = 1) { M._vc_step(this.ptr, n); }
    get time() { return M._vc_time(this.ptr); }
    get state() { return States[M._vc_state(this.ptr)]; }
    get faults() { return M._vc_faults(this.ptr); }
    get estop() { return M._vc_estop(this.ptr) === 1; }
    get segmentsDone() { return M._vc_segments_done(this.ptr); }
    positions() { return Array.from({ length: this.joints }, (_, j) => M._vc_position(this.ptr, j)); }
    commanded() { return Array.from({ length: this.joints }, (_, j) => M._vc_commanded(this.ptr, j)); }
  }

  /**
   * achain-trajectory JSON (t, q, qd in SI) → segments: cubic Hermite pieces through the samples,
   * each ≥ segmentDt long, shortened where the cubic would leave `limits` (as the C++ buildSegments);
   * throws naming the segment and joint when even consecutive samples violate a limit.
   */
  function segmentsFromTrajectory(traj, { segmentDt = 0.01, limits = null, accelMargin = 1.5, blendFirst = false, firstId = 1 } = {}) {
    validateTrajectory(traj);
    const n = traj.t.length;
    const dof = traj.q[0].length;
    const t0 = traj.t[0];
    const us = (t) => Math.round((t - t0) * 1e6);
    const fx = (x, s) => Math.max(-2147483647, Math.min(2147483647, Math.round(x * s)));
    const make = (a, b) => {
      const knots = new Int32Array(4 * dof);
      for (let j = 0; j < dof; j++) {
        knots[4 * j] = fx(traj.q[a][j], POS);
        knots[4 * j + 1] = fx(traj.qd[a][j], VEL);
        knots[4 * j + 2] = fx(traj.q[b][j], POS);
        knots[4 * j + 3] = fx(traj.qd[b][j], VEL);
      }
      return { id: 0, tStartUs: us(traj.t[a]), durationUs: us(traj.t[b]) - us(traj.t[a]), flags: 0, knots };
    };
    const violation = (s) => {
      if (!limits) return null;
      for (let j = 0; j < dof; j++) {
        const k = s.knots;
        const r = codec.checkPiece(k[4 * j] / POS, k[4 * j + 1] / VEL, k[4 * j + 2] / POS, k[4 * j + 3] / VEL,
          s.durationUs * 1e-6, limits[j], accelMargin);
        if (r.violation !== 'none') return { joint: j, ...r };
      }
      return null;
    };
    const segs = [];
    let a = 0;
    while (a < n - 1) {
      let b = a + 1;
      while (b < n - 1 && traj.t[b] - traj.t[a] < segmentDt - 1e-9) b++;
      let s = make(a, b);
      while (b > a + 1 && violation(s)) s = make(a, --b);
      const v = violation(s);
      if (v) {
        throw new RangeError(`segment ${segs.length} (t = ${traj.t[a].toFixed(4)} s), joint ${v.joint + 1}: ${v.violation} ` +
          `${v.worst.toPrecision(6)} outside the limits; refusing to send (re-plan within the limits)`);
      }
      s.id = firstId + segs.length;
      segs.push(s);
      a = b;
    }
    if (blendFirst) segs[0].flags |= SegmentFlags.blend;
    segs[segs.length - 1].flags |= SegmentFlags.last;
    return segs;
  }

  return { module: M, codec, HostEngine, VirtualControllerCore, segmentsFromTrajectory, defaultJointConfig,
    defaultGlobalConfig, describeFaults, faults };
}

/** Checks the shared trajectory format; throws naming the field. */
export function validateTrajectory(traj) {
  if (!traj || traj.schema !== 'achain-trajectory') throw new TypeError('schema: must be "achain-trajectory"');
  if (traj.version !== 1) throw new TypeError('version: only version 1 is supported');
  const { t, q, qd } = traj;
  if (!Array.isArray(t) || t.length < 2) throw new TypeError('t: must be an array of at least 2 times');
  for (const [name, m] of [['q', q], ['qd', qd]]) {
    if (!Array.isArray(m) || m.length !== t.length) throw new TypeError(`${name}: must have one row per time sample`);
    const dof = q[0]?.length;
    m.forEach((row, i) => {
      if (!Array.isArray(row) || row.length !== dof) throw new TypeError(`${name}[${i}]: must have ${dof} entries`);
      row.forEach((x, k) => {
        if (!Number.isFinite(x)) throw new TypeError(`${name}[${i}][${k}]: not a finite number`);
      });
    });
  }
  for (let i = 1; i < t.length; i++) if (!(t[i] > t[i - 1])) throw new TypeError(`t[${i}]: times must increase strictly`);
}

/** Limits from an achain model JSON-ish description or the default config. */
export function limitsFromConfigs(configs) {
  return configs.map((c) => ({ qMin: c.qMin, qMax: c.qMax, vMax: c.vMax, aMax: c.aMax }));
}

/** The thesis's trapezoid (Robinson 2012, Sec. 3.8.7): θ_v 60° → 300°, joints 1–3 at 720°/s² and 180°/s,
 *  joint 4 at 1430°/s² and 171°/s — a stand-in until `achain traj` provides plans. */
export function thesisTrapezoid(dt = 0.001) {
  const deg = Math.PI / 180;
  const prof = (a, v) => {
    const d = 240 * deg;
    a *= deg; v *= deg;
    let ta = v / a;
    if (a * ta * ta > d) { ta = Math.sqrt(d / a); v = a * ta; }
    const tc = (d - a * ta * ta) / v;
    return { a, v, ta, tc, T: 2 * ta + tc, d };
  };
  const P = [prof(720, 180), prof(720, 180), prof(720, 180), prof(1430, 171)];
  const T = Math.max(...P.map((p) => p.T));
  const n = Math.ceil(T / dt - 1e-9);
  const out = { schema: 'achain-trajectory', version: 1, robot: 'prototype-4a', joints: ['waist', 'shoulder', 'elbow', 'wrist'], t: [], q: [], qd: [], qdd: [] };
  for (let i = 0; i <= n; i++) {
    const t = i * dt;
    const row = P.map((p) => {
      if (t <= 0) return [0, 0, 0];
      if (t < p.ta) return [0.5 * p.a * t * t, p.a * t, p.a];
      if (t < p.ta + p.tc) return [0.5 * p.a * p.ta * p.ta + p.v * (t - p.ta), p.v, 0];
      if (t < p.T) { const r = p.T - t; return [p.d - 0.5 * p.a * r * r, p.a * r, -p.a]; }
      return [p.d, 0, 0];
    });
    out.t.push(t);
    out.q.push(row.map((r) => 60 * deg + r[0]));
    out.qd.push(row.map((r) => r[1]));
    out.qdd.push(row.map((r) => r[2]));
  }
  return out;
}
