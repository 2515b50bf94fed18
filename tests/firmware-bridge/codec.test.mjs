// The bridge codec as the JS hosts use it (the C++ codec through wasm), pinned to the same golden
// vectors as the Catch2 tests; the JS segment builder; engine ↔ virtual controller in-process.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadBridge, thesisTrapezoid, SegmentFlags } from '../../web/src/controller/bridge.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const golden = JSON.parse(fs.readFileSync(path.join(here, 'golden.json'), 'utf8'));
const hex = (u8) => Buffer.from(u8).toString('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const bridge = await loadBridge();

test('CRC-16/CCITT-FALSE golden values', () => {
  for (const v of golden.crc16) assert.equal(bridge.codec.crc16(unhex(v.data)), v.crc);
  assert.equal(bridge.codec.crc16(new TextEncoder().encode('123456789')), 0x29b1);
});

test('COBS golden vectors, both directions', () => {
  for (const v of golden.cobs) {
    assert.equal(hex(bridge.codec.cobsEncode(unhex(v.raw))), v.encoded);
    assert.equal(hex(bridge.codec.cobsDecode(unhex(v.encoded))), v.raw);
  }
});

test('message frames: build and decode match the golden bytes', () => {
  for (const m of golden.messages) {
    assert.equal(hex(bridge.codec.buildFrame(m.type, m.seq, unhex(m.body))), m.frame, m.name);
    const d = bridge.codec.decodeFrame(unhex(m.frame));
    assert.equal(d.type, m.type, m.name);
    assert.equal(d.seq, m.seq, m.name);
    assert.equal(hex(d.body), m.body, m.name);
  }
});

test('property: frame(decode(frame(x))) = x on random bodies; damage is detected', () => {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
  for (let it = 0; it < 500; it++) {
    const body = Uint8Array.from({ length: Math.floor(rand() * 113) }, () => (rand() < 0.2 ? 0 : Math.floor(rand() * 256)));
    const type = 1 + Math.floor(rand() * 15);
    const seq = Math.floor(rand() * 256);
    const f = bridge.codec.buildFrame(type, seq, body);
    assert.equal(f.indexOf(0), f.length - 1, 'the only zero is the delimiter');
    const d = bridge.codec.decodeFrame(f);
    assert.deepEqual([d.type, d.seq, hex(d.body)], [type, seq, hex(body)]);
    const bad = f.slice();
    const k = Math.floor(rand() * (f.length - 1));
    bad[k] ^= 1 + Math.floor(rand() * 255);
    if (bad[k] === 0) bad[k] = 0x5a;
    const r = bridge.codec.decodeFrame(bad);
    assert.ok(r.error, 'a damaged frame is refused');
  }
});

test('segments from the thesis trapezoid: contiguous, limited, last flagged', () => {
  const traj = thesisTrapezoid(0.001);
  const limits = [0, 1, 2, 3].map((j) => bridge.defaultJointConfig(j));
  const segs = bridge.segmentsFromTrajectory(traj, { segmentDt: 0.01, limits });
  assert.ok(segs.length > 150 && segs.length < 170, `${segs.length} segments`);
  for (let i = 1; i < segs.length; i++) {
    assert.equal(segs[i].tStartUs, segs[i - 1].tStartUs + segs[i - 1].durationUs);
    for (let j = 0; j < 4; j++) {
      assert.equal(segs[i].knots[4 * j], segs[i - 1].knots[4 * j + 2]);
      assert.equal(segs[i].knots[4 * j + 1], segs[i - 1].knots[4 * j + 3]);
    }
  }
  assert.equal(segs.at(-1).flags & SegmentFlags.last, SegmentFlags.last);
  assert.equal(segs.at(-1).knots[2], Math.round((300 * Math.PI) / 180 * 1e6));
  // 25 % too fast: refused by the host, naming the joint
  const fast = structuredClone(traj);
  fast.t = fast.t.map((t) => t / 1.25);
  fast.qd = fast.qd.map((r) => r.map((v) => v * 1.25));
  assert.throws(() => bridge.segmentsFromTrajectory(fast, { segmentDt: 0.01, limits }), /joint 1: (velocity|acceleration)/);
});

test('engine ↔ virtual controller in-process: trapezoid to < 0.1°, e-stop reported', () => {
  const vc = new bridge.VirtualControllerCore();
  const host = new bridge.HostEngine();
  const limits = [0, 1, 2, 3].map((j) => bridge.defaultJointConfig(j));
  let t = 0;
  const step = (n = 1) => {
    for (let i = 0; i < n; i++) {
      host.update(t);
      const out = host.takeOutput();
      if (out.length) vc.write(out);
      vc.step(1);
      t += 1;
      const back = vc.read();
      if (back.length) host.receive(back, t);
    }
  };
  host.connect(t);
  for (let i = 0; i < 2000 && !host.connected; i++) step();
  assert.ok(host.connected);
  assert.equal(host.caps.joints, 4);
  assert.equal(host.caps.servoHz, 1000);
  host.configureGlobal(bridge.defaultGlobalConfig());
  limits.forEach((c) => host.configureJoint(c));
  step(100);
  assert.equal(host.status.state, 'idle');
  const segs = bridge.segmentsFromTrajectory(thesisTrapezoid(0.001), { limits });
  segs.forEach((s) => host.queueSegment(s));
  step(100);
  host.start();
  for (let i = 0; i < 5000 && !(host.status.state === 'idle' && host.status.segmentId === segs.at(-1).id); i++) step();
  step(500);
  const err = host.status.q.map((q) => Math.abs(q - (300 * Math.PI) / 180));
  assert.ok(Math.max(...err) < (0.1 * Math.PI) / 180, `final error ${err.map((e) => (e * 180) / Math.PI)}°`);
  assert.equal(vc.segmentsDone, segs.length);
  host.estop(t);
  vc.write(host.takeOutput());
  assert.equal(vc.estop, true, 'engaged as the bytes arrive');
  step(50);
  assert.equal(host.status.estop, true);
  assert.ok(host.status.faultNames.includes('estop'));
  host.dispose();
  vc.dispose();
});
