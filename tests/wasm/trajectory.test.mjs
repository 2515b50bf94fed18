// The trajectory area through wasm: planning/sampling parity with the native CLI, thesis breakpoints,
// torque/power/work parity, the shared JSON format, errors.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { jointSeries } from '../../wasm/js/trajectory.mjs';
import { cli, cliFails, loadAchain, maxAbsDiff } from './helpers.mjs';

const achain = await loadAchain();
const deg = Math.PI / 180;
const flat = (rows) => Float64Array.from(rows.flat());

describe('trajectory (wasm)', () => {
  test('thesis trapezoid: 0.25 / 1.3333 / 1.5833 s (joints 1-3) and 0.11958 / 1.4035 / 1.5231 s (joint 4)', () => {
    const m = achain.loadModel('prototype-4a');
    const tr = m.planJointPath([60, 60, 60, 60].map((x) => x * deg), [300, 300, 300, 300].map((x) => x * deg), { rate: 100 });
    for (let j = 0; j < 3; j++) {
      assert.ok(Math.abs(tr.breakpoints[j][1] - 0.25) < 1e-12);
      assert.ok(Math.abs(tr.breakpoints[j][2] - 4 / 3) < 1e-12);
      assert.ok(Math.abs(tr.breakpoints[j][3] - 19 / 12) < 1e-12);
    }
    assert.ok(Math.abs(tr.breakpoints[3][1] - 0.11958) < 5e-6);
    assert.ok(Math.abs(tr.breakpoints[3][2] - 1.40351) < 5e-6);
    assert.ok(Math.abs(tr.breakpoints[3][3] - 1.52309) < 5e-6);
    assert.equal(tr.samples, 160);
    assert.equal(tr.t[tr.samples - 1], tr.duration);
    const last = tr.q.subarray((tr.samples - 1) * 4, tr.samples * 4);
    for (const v of last) assert.equal(v, 300 * deg);
    const qd1 = jointSeries(tr.qd, 4, 0);
    assert.ok(Math.abs(Math.max(...qd1) - 180 * deg) < 1e-12);
    m.dispose();
  });

  test('native CLI and wasm agree sample by sample (every profile)', () => {
    const m = achain.loadModel('prototype-4a');
    const cases = [
      ['--profile', 'trapezoid', '--sync'],
      ['--profile', 'quintic'],
      ['--profile', 'septic', '--vel-scale', '0.5'],
      ['--via', '120,200,90,150;200,240,180,100'],
    ];
    for (const extra of cases) {
      const nat = cli('traj', '--robot', 'prototype-4a', '--from', '60,100,250,300', '--to', '300,80,90,61', '--deg', '--rate', '50', ...extra);
      const opts = { rate: 50 };
      for (let k = 0; k < extra.length; k++) {
        if (extra[k] === '--profile') opts.profile = extra[k + 1];
        if (extra[k] === '--sync') opts.sync = true;
        if (extra[k] === '--vel-scale') opts.velocityScale = Number(extra[k + 1]);
        if (extra[k] === '--via') opts.via = extra[k + 1].split(';').map((p) => p.split(',').map((x) => Number(x) * deg));
      }
      const w = m.planJointPath([60, 100, 250, 300].map((x) => x * deg), [300, 80, 90, 61].map((x) => x * deg), opts);
      assert.equal(w.samples, nat.t.length, extra.join(' '));
      assert.equal(w.profile, nat.profile);
      assert.ok(maxAbsDiff(w.t, nat.t) <= 1e-12);
      assert.ok(maxAbsDiff(w.q, flat(nat.q)) <= 1e-12, extra.join(' '));
      assert.ok(maxAbsDiff(w.qd, flat(nat.qd)) <= 1e-12);
      assert.ok(maxAbsDiff(w.qdd, flat(nat.qdd)) <= 1e-12);
      assert.equal(w.continuity, nat.continuity);
    }
    m.dispose();
  });

  test('torque, power and work agree with `achain analyze`; JSON round trip through the CLI', () => {
    const m = achain.loadModel('prototype-4a');
    const tr = m.planJointPath([60, 60, 60, 60].map((x) => x * deg), [300, 300, 300, 300].map((x) => x * deg), { rate: 200 });
    const a = m.analyzeTrajectory(tr, { legs: 'full' });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'achain-traj-')), 'traj.json');
    fs.writeFileSync(file, JSON.stringify(m.trajectoryToJson(tr)));
    const nat = cli('analyze', '--traj', file, '--series');
    assert.ok(maxAbsDiff(a.tau, flat(nat.tau)) <= 1e-9 * Math.max(...nat.peak_tau));
    assert.ok(maxAbsDiff(a.work, nat.work) <= 1e-9 * nat.total_work);
    assert.ok(Math.abs(a.totalWork - nat.total_work) <= 1e-9 * nat.total_work);
    assert.equal(a.withinEffort, nat.within_effort);
    for (let i = 0; i < 4 * tr.samples; i++) assert.equal(a.power[i], a.tau[i] * tr.qd[i]);
    // torque-limited planning brings every peak within the effort limits
    const slow = m.planJointPath([60, 60, 60, 60].map((x) => x * deg), [300, 300, 300, 300].map((x) => x * deg), { rate: 500, torqueLimits: true });
    assert.ok(slow.torqueScaling.factor > 1);
    const b = m.analyzeTrajectory(slow);
    assert.ok(Math.max(...b.effortRatio) <= 1 + 1e-9);
    assert.ok(Math.max(...b.effortRatio) > 0.99);
    m.dispose();
  });

  test('single-A-pair study: lumped/massless = 4.825/4.135', () => {
    const r = achain.apairStudy({ duration: 10, profile: 'quintic', rhoIn: 4 * Math.SQRT2, exactLegInertia: true });
    assert.ok(Math.abs(r.rows[1].vertical / r.rows[0].vertical - 4.825 / 4.135) < 1e-9);
    const nat = cli('apair-study', '--duration', '10');
    assert.ok(Math.abs(nat.rows[2].vertical_J - r.rows[2].vertical) < 1e-12);
  });

  test('Cartesian line and arc agree with the native CLI', () => {
    const m = achain.loadModel('prototype-4a');
    const from = [100, 200, 120, 150].map((x) => x * deg);
    const goal = m.forwardKinematics([140, 230, 100, 170].map((x) => x * deg)).tool;
    const line = m.planCartesianPath(from, goal, { rate: 50 });
    const nat = cli('traj', '--robot', 'prototype-4a', '--from', '100,200,120,150', '--to', '140,230,100,170', '--deg', '--cartesian', 'line', '--rate', '50');
    assert.equal(line.samples, nat.t.length);
    assert.ok(maxAbsDiff(line.q, flat(nat.q)) <= 1e-12);
    assert.ok(Math.abs(line.cartesian.length - nat.cartesian.length) < 1e-15);
    assert.ok(line.cartesian.maxDeviation < 2e-4);
    const endT = m.forwardKinematics(line.q.subarray((line.samples - 1) * 4)).tool;
    assert.ok(Math.hypot(endT[3] - goal[3], endT[7] - goal[7], endT[11] - goal[11]) < 1e-9);
    const p0 = m.forwardKinematics(from).tool;
    const via = [(p0[3] + goal[3]) / 2, (p0[7] + goal[7]) / 2, (p0[11] + goal[11]) / 2 + 0.05];
    const arc = m.planCartesianPath(from, goal, { kind: 'arc', arcVia: via, rate: 50 });
    const natArc = cli('traj', '--robot', 'prototype-4a', '--from', '100,200,120,150', '--to', '140,230,100,170', '--deg',
      '--cartesian', 'arc', '--arc-via', via.join(','), '--rate', '50');
    assert.ok(maxAbsDiff(arc.q, flat(natArc.q)) <= 1e-12);
    assert.ok(arc.cartesian.length > line.cartesian.length);
    assert.throws(() => m.planCartesianPath(from, goal, { kind: 'arc', arcVia: [(p0[3] + goal[3]) / 2, (p0[7] + goal[7]) / 2, (p0[11] + goal[11]) / 2] }), /collinear/);
    m.dispose();
  });

  test('errors name the option', () => {
    const m = achain.loadModel('prototype-4a');
    assert.throws(() => m.planJointPath([1, 1, 1, 1], [2, 2, 2], {}), /to: expected 4 values, got 3/);
    assert.throws(() => m.planJointPath([1, 1, 1, 1], [2, 2, 2, 2], { profile: 'bang' }), /options.profile/);
    assert.throws(() => m.planJointPath([1, 1, 1, 1], [2, 2, 2, 2], { rate: 0 }), /rate/);
    const D = Math.PI / 180;
    assert.throws(() => m.planJointPath([60 * D, 60 * D, 60 * D, 60 * D], [300 * D, 300 * D, 40 * D, 300 * D]), { message: "goal: q3 (joint 'elbow') = 40° is outside its limits [60°, 300°]; choose a pose within the limits" });
    assert.throws(() => m.analyzeTrajectory({ t: [0, 0], q: new Float64Array(8), qd: new Float64Array(8), qdd: new Float64Array(8) }), /times must increase/);
    const puma = achain.loadModel('puma560');
    assert.throws(() => puma.planJointPath(new Float64Array(6), new Float64Array(6).fill(0.5)),
      { message: "q1 (joint 'j1') has no speed limit, and the plan has no duration: give the joint a speed limit (vmax) or the plan a duration" });
    assert.throws(() => puma.planJointPath(new Float64Array(6), new Float64Array(6).fill(0.5), { vmax: new Float64Array(6).fill(1) }), /^Error: q1 \(joint 'j1'\) has no acceleration limit, .*give the joint an acceleration limit \(amax\)/);
    assert.throws(() => puma.planJointPath(new Float64Array(6), new Float64Array(6).fill(0.5), { profile: 'quintic' }), /^Error: q1 \(joint 'j1'\) has no speed or acceleration limit, .*give the joint a speed or acceleration limit \(vmax or amax\) or the plan a duration$/);
    puma.dispose();
    m.dispose();
    const f = cliFails('traj', '--robot', 'puma560', '--from', '0,0,0,0,0,0', '--to', '0.5,0.5,0.5,0.5,0.5,0.5');
    assert.equal(f.status, 1);
    assert.match(f.stderr, /^achain traj: error: q1 \(joint 'j1'\) has no speed limit, and the plan has no duration/);
  });
});

describe('jtraj and ctraj (wasm)', () => {
  test('planJointPath with v0/v1/a0/a1 (jtraj) = native CLI, boundary rates exact', () => {
    const m = achain.loadModel('puma560');
    const from = [0.1, -0.4, 0.3, 0, 0.5, -0.2], to = [1.2, 0.3, -0.6, 0.8, -0.1, 0.4];
    const v0 = [0.5, -0.2, 0, 0.1, 0, 0.3], v1 = [-0.3, 0.1, 0.2, 0, -0.4, 0], a1 = [0, 0, 1, 0, 0, -0.5];
    const w = m.planJointPath(from, to, { profile: 'quintic', duration: 2.5, v0, v1, a1, rate: 40 });
    const c = cli('traj', '--robot', 'puma560', '--profile', 'quintic', '--duration', '2.5', '--from', from.join(','),
      '--to', to.join(','), '--v0', v0.join(','), '--v1', v1.join(','), '--a1', a1.join(','), '--rate', '40');
    assert.equal(w.samples, c.t.length);
    assert.ok(maxAbsDiff(w.q, flat(c.q)) <= 1e-12);
    assert.ok(maxAbsDiff(w.qd, flat(c.qd)) <= 1e-12);
    assert.ok(maxAbsDiff(w.qdd, flat(c.qdd)) <= 1e-12);
    const N = w.samples;
    assert.deepEqual(Array.from(w.qd.subarray(0, 6)), v0);
    assert.deepEqual(Array.from(w.qd.subarray((N - 1) * 6)), v1);
    assert.deepEqual(Array.from(w.qdd.subarray((N - 1) * 6)), a1);
    assert.deepEqual(Array.from(w.q.subarray((N - 1) * 6)), to);
    assert.throws(() => m.planJointPath(from, to, { profile: 'quintic', v0 }), /duration: required/);
    assert.throws(() => m.planJointPath(from, to, { profile: 'quintic', duration: 1, v0: [1, 2] }), /options\.v0: expected 6 values/);
    m.dispose();
  });

  test('interpolateCartesian (ctraj) = native CLI, exact ends, constant axis', () => {
    const pose = (x, y, z, rx, ry, rz) => {
      const cx = Math.cos(rx), sx = Math.sin(rx), cy = Math.cos(ry), sy = Math.sin(ry), cz = Math.cos(rz), sz = Math.sin(rz);
      // R = Rz Ry Rx, row-major 4×4
      return [cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx, x,
        sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx, y,
        -sy, cy * sx, cy * cx, z, 0, 0, 0, 1];
    };
    const a = [0.4, -0.1, 0.6, 0.3, -0.2, 0.9], b = [0.1, 0.5, 0.3, -0.5, 0.4, 2.1];
    for (const profile of ['quintic', 'trapezoid']) {
      const w = achain.interpolateCartesian(pose(...a), pose(...b), { profile, duration: 2, rate: 20 });
      const c = cli('interpolate-cartesian', '--from-pose', a.join(','), '--to-pose', b.join(','), '--profile', profile,
        '--duration', '2', '--rate', '20');
      assert.equal(w.samples, c.samples);
      assert.equal(w.samples, 41);
      assert.ok(maxAbsDiff(w.poses, flat(c.poses.map((T) => T.flat()))) <= 1e-12, profile);
      assert.ok(maxAbsDiff(w.twists, flat(c.twists)) <= 1e-12);
      assert.ok(maxAbsDiff(w.accelerations, flat(c.accelerations)) <= 1e-12);
      assert.ok(maxAbsDiff(w.axis, c.axis) <= 1e-15);
      assert.ok(Math.abs(w.rotation - c.rotation) <= 1e-15);
      // the ends are the given poses (to their re-orthonormalisation's rounding)
      assert.ok(maxAbsDiff(w.poses.subarray(0, 16), pose(...a)) <= 1e-14);
      assert.ok(maxAbsDiff(w.poses.subarray(16 * 40), pose(...b)) <= 1e-14);
      // ω = ṡ θ axis at every sample
      for (let k = 0; k < w.samples; k++)
        for (let i = 0; i < 3; i++) assert.ok(Math.abs(w.twists[6 * k + 3 + i] - w.sd[k] * w.rotation * w.axis[i]) <= 1e-15);
    }
    assert.throws(() => achain.interpolateCartesian(pose(...a), pose(...b), { profile: 'cubicle' }), /profile: 'cubicle'/);
    assert.throws(() => achain.interpolateCartesian(pose(...a), [1, 2, 3], {}), /start|goal/);
    assert.throws(() => achain.interpolateCartesian(pose(...a), pose(...a)), /equals the start pose/);
  });
});
