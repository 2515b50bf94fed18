// The wasm module: models, validation errors, FK parity with the native build.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cli, loadAchain, maxAbsDiff, randomQ, rng, root } from './helpers.mjs';

const achain = await loadAchain();
const deg = Math.PI / 180;

describe('models', () => {
  test('lists the built-ins', () => {
    const names = achain.builtinRobots().map((b) => b.name);
    for (const n of ['prototype-4a', 'prototype-4r', 'puma560', 'stanford', 'planar-2r']) assert.ok(names.includes(n), n);
  });

  test('loads by name, from JSON text and from an object', () => {
    const a = achain.loadModel('prototype-4a');
    const b = achain.loadModel(achain.builtinRobotFile('prototype-4a'));
    const c = achain.loadModel(a.modelToJson());
    assert.equal(a.dof, 4);
    assert.deepEqual(b.info.joints, a.info.joints);
    assert.deepEqual(c.info.joints, a.info.joints);
    assert.ok(Math.abs(a.joints[0].rho - 4 * Math.SQRT2 * 0.0254) < 1e-15);
    [a, b, c].forEach((m) => m.dispose());
  });

  test('a robot file with a loop section carries it in model.info.loop (SI), by name and from its text', () => {
    const byName = achain.loadModel('five-bar');
    const fromText = achain.loadModel(achain.builtinRobotFile('five-bar'));
    for (const m of [byName, fromText]) {
      const L = m.info.loop;
      assert.equal(L.closure, 'planar_pin');
      assert.deepEqual(L.coordinates, [0]);
      assert.deepEqual(L.assembly.map((v) => Math.round(v / deg * 1e6) / 1e6), [70, -35, -100, -25]);
      // the ground pin O2 = (33.906729, −8.709241) in, converted once at load
      assert.ok(Math.abs(L.ground[3] - 33.906729 * 0.0254) < 1e-12 && Math.abs(L.ground[7] + 8.709241 * 0.0254) < 1e-12);
      // assembled: the tool (the free end) sits on the pin to the rounding of Freeman's angles
      const T = m.fkTool(L.assembly);
      assert.ok(Math.hypot(T[3] - L.ground[3], T[7] - L.ground[7]) < 1e-4, `tool ${T[3]}, ${T[7]}`);
    }
    const open = achain.loadModel('planar-2r');
    assert.equal(open.info.loop, null);
    // a bad loop section is refused by name, as in C++
    const j = JSON.parse(achain.builtinRobotFile('five-bar'));
    j.loop.closure = 'hinge';
    assert.throws(() => achain.loadModel(j), /loop\.closure/);
    [byName, fromText, open].forEach((m) => m.dispose());
  });

  test('validation errors arrive as JS Errors naming the field, as in C++', () => {
    const bad = (edit) => {
      const j = JSON.parse(achain.builtinRobotFile('planar-2r'));
      edit(j);
      return () => achain.loadModel(j);
    };
    assert.throws(bad((j) => { j.joints[1].link.mass = -2; }), { message: /^joints\[1\]\.link\.mass: must be ≥ 0/ });
    assert.throws(bad((j) => { j.joints[0].kind = 'X'; }), { message: /^joints\[0\]\.kind: unknown joint kind 'X'/ });
    assert.throws(bad((j) => { j.units.length = 'furlong'; }), { message: /^units\.length: unknown unit 'furlong'/ });
    assert.throws(bad((j) => { j.joints[0].limits.lower = 400; }), { message: /^joints\[0\]\.limits: lower .* must not exceed upper/ });
    assert.throws(() => achain.loadModel('{"schema_version": 1,'), { message: /^\(document\): malformed JSON/ });
    assert.throws(() => achain.loadModel('no-such-robot'), { message: /^robot: unknown built-in 'no-such-robot'/ });
    assert.throws(() => achain.loadModel(''), { message: 'robot: the description is empty (expected a URDF, a JSON robot description or a built-in name)' });
  });

  test('bad joint vectors are refused with a clear message', () => {
    const m = achain.loadModel('prototype-4a');
    assert.throws(() => m.forwardKinematics([1, 2, 3]), { message: 'q: expected 4 values, got 3' });
    assert.throws(() => m.forwardKinematics([1, 2, NaN, 3]), { message: 'q[2]: must be a finite number' });
    assert.throws(() => m.forwardKinematics(null), { message: /^q: must be an array/ });
    m.dispose();
    assert.throws(() => m.forwardKinematics([1, 2, 3, 4]), { message: /was disposed/ });
  });
});

describe('forward kinematics', () => {
  test('prototype fully extended: p = (0, 0, 0.98189) m, R = diag(-1, -1, 1)', () => {
    const m = achain.loadModel('prototype-4a');
    const T = m.forwardKinematics([180 * deg, 180 * deg, 180 * deg, 180 * deg]).tool;
    assert.ok(Math.abs(T[11] - (33 + 4 * Math.SQRT2) * 0.0254) < 1e-15);
    assert.ok(Math.abs(T[11] - 0.98189) < 1e-5);
    assert.ok(maxAbsDiff([T[0], T[5], T[10]], [-1, -1, 1]) < 1e-12);
    assert.ok(Math.abs(T[3]) < 1e-12 && Math.abs(T[7]) < 1e-12);
    m.dispose();
  });

  for (const robot of ['prototype-4a', 'puma560', 'stanford', 'planar-2r', 'prototype-4r']) {
    test(`${robot}: every frame agrees with the native build to 1e-12`, () => {
      const m = achain.loadModel(robot);
      const rand = rng(robot.length * 7919);
      for (let k = 0; k < 5; k++) {
        const q = randomQ(m, rand);
        const native = cli('fk', '--robot', robot, '--q', Array.from(q, (v) => v.toPrecision(17)).join(','), '--frames');
        const w = m.forwardKinematics(q);
        assert.ok(maxAbsDiff(w.tool, native.T.flat()) <= 1e-12, 'tool');
        native.frames.forEach((F, i) => assert.ok(maxAbsDiff(w.links[i], F.flat()) <= 1e-12, `link ${i + 1}`));
      }
      m.dispose();
    });
  }

  test('A-pair legs keep their length (6 in) and match the native legs', () => {
    const m = achain.loadModel('prototype-4a');
    const q = [100 * deg, 200 * deg, 150 * deg, 250 * deg];
    const legs = m.apairLegEndpoints(q);
    assert.equal(legs.length, 4);
    const native = cli('fk', '--robot', 'prototype-4a', '--q', q.map((v) => v.toPrecision(17)).join(','), '--legs');
    legs.forEach(({ base, platform }, a) => {
      for (let k = 0; k < 6; k++) {
        const d = Math.hypot(platform[3 * k] - base[3 * k], platform[3 * k + 1] - base[3 * k + 1], platform[3 * k + 2] - base[3 * k + 2]);
        assert.ok(Math.abs(d - 6 * 0.0254) < 1e-12, `joint ${a} leg ${k}`);
        const [b, p] = native.legs[a].legs[k];
        assert.ok(maxAbsDiff([...base.subarray(3 * k, 3 * k + 3), ...platform.subarray(3 * k, 3 * k + 3)], [...b, ...p]) < 1e-12);
      }
    });
    m.dispose();
  });

  test('convertConvention: standard and modified DH give the same tool pose', () => {
    for (const robot of ['prototype-4a', 'puma560', 'stanford']) {
      const s = achain.loadModel(robot);
      const m = s.convertConvention('modified');
      assert.equal(m.info.convention, 'modified');
      const rand = rng(3);
      for (let k = 0; k < 10; k++) {
        const q = randomQ(s, rand);
        assert.ok(maxAbsDiff(s.forwardKinematics(q).tool, m.forwardKinematics(q).tool) < 1e-12, robot);
      }
      assert.throws(() => s.convertConvention('sideways'), { message: /^convention: expected "standard" or "modified"/ });
      s.dispose();
      m.dispose();
    }
  });

  test('matrixToRpy (the core\'s, R = Rz(yaw)·Ry(pitch)·Rx(roll)) of a 4×4 pose and of a 3×3 rotation', () => {
    const [r, p, y] = [0.3, -0.4, 1.1];
    const c = Math.cos, s = Math.sin;
    const R = [
      [c(y) * c(p), c(y) * s(p) * s(r) - s(y) * c(r), c(y) * s(p) * c(r) + s(y) * s(r)],
      [s(y) * c(p), s(y) * s(p) * s(r) + c(y) * c(r), s(y) * s(p) * c(r) - c(y) * s(r)],
      [-s(p), c(p) * s(r), c(p) * c(r)],
    ];
    const T = [...R[0], 0.1, ...R[1], 0.2, ...R[2], 0.3, 0, 0, 0, 1];
    assert.ok(maxAbsDiff(achain.matrixToRpy(T), [r, p, y]) <= 1e-14);
    assert.ok(maxAbsDiff(achain.matrixToRpy(R.flat()), [r, p, y]) <= 1e-14);
    const m = achain.loadModel('prototype-4a');
    const rpy = achain.matrixToRpy(m.forwardKinematics([Math.PI, Math.PI, Math.PI, Math.PI]).tool);
    assert.ok(Math.abs(Math.abs(rpy[2]) - Math.PI) < 1e-12 && Math.abs(rpy[0]) < 1e-12);  // R = diag(-1, -1, 1): yaw ±π
    m.dispose();
    assert.throws(() => achain.matrixToRpy([1, 0, 0]), /^Error: T: expected 16 \(4×4\) or 9 \(3×3\) numbers, got 3$/);
  });

  test('TypeScript declarations ship beside the module', () => {
    const dts = fs.readFileSync(path.join(root, 'wasm/achain.d.ts'), 'utf8');
    assert.match(dts, /export function loadAchain\(\): Promise<Achain>/);
    assert.match(dts, /forwardKinematics\(q: Vector\): FkResult/);
  });
});
