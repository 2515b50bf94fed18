// Model facts the studio reads from the core (issue 31): the R-pair twin (model.rPairTwin), the reach bound
// (model.reachBound), the joint model's facts in model.info (angular, revolute, period, hasApair) and the robot
// file's defaults section (model.info.defaults), through the wasm module.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAchain, standInWorker } from './helpers.mjs';

const achain = await loadAchain();
const deg = Math.PI / 180;
const INCH = 0.0254;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Uniform random q within the limits (±π where unbounded). */
function randomQ(model, rnd) {
  return Float64Array.from(model.coordinates, (j) => {
    const lo = j.lower ?? -Math.PI, hi = j.upper ?? Math.PI;
    return lo + (hi - lo) * rnd();
  });
}
function rng(seed) { let s = seed >>> 0; return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32); }

describe('rPairTwin', () => {
  test('prototype-4a → RRRR named prototype-4a-r-twin, FK equal to the A-chain at ρ = 0 and to prototype-4r', () => {
    const a = achain.loadModel('prototype-4a');
    const t = a.rPairTwin();
    const r = achain.loadModel('prototype-4r');
    try {
      assert.equal(t.name, 'prototype-4a-r-twin');
      assert.deepEqual(t.joints.map((j) => j.kind), ['R', 'R', 'R', 'R']);
      assert.deepEqual(t.joints.map((j) => j.rho), [0, 0, 0, 0]);
      assert.equal(t.info.hasApair, false);
      assert.equal(a.info.hasApair, true);
      const json = a.modelToJson();
      for (const j of json.joints) { j.rho = 0; delete j.leg_length; delete j.side; }  // the A-chain at ρ = 0
      const a0 = achain.loadModel(json);
      const rnd = rng(31);
      let moved = 0;
      for (let k = 0; k < 50; k++) {
        const q = randomQ(a, rnd);
        const Tt = t.fkTool(q).slice(), T0 = a0.fkTool(q).slice(), Tr = r.fkTool(q).slice(), Ta = a.fkTool(q).slice();
        for (let i = 0; i < 16; i++) {
          assert.ok(Math.abs(Tt[i] - T0[i]) < 1e-12, `q ${Array.from(q)} entry ${i}`);
          assert.ok(Math.abs(Tt[i] - Tr[i]) < 1e-12);
        }
        moved = Math.max(moved, Math.hypot(Tt[3] - Ta[3], Tt[7] - Ta[7], Tt[11] - Ta[11]));
      }
      assert.ok(moved > 0.05, `the A-pairs move the tool: ${moved} m`);
      // at θ_v = 180° the twin's tool (the A-chain's translations removed) sits 4·ρ·… lower: z = 0.98188 m for the A-chain
      const q180 = [Math.PI, Math.PI, Math.PI, Math.PI];
      assert.ok(Math.abs(a.fkTool(q180)[11] - 0.9818840979371063) < 1e-12);
      a0.dispose();
    } finally { a.dispose(); t.dispose(); r.dispose(); }
  });
});

describe('reachBound', () => {
  test('bounds every link origin and the tool on random q; PUMA 560 within 1.2x of the farthest tool', () => {
    for (const name of ['puma560', 'prototype-4a', 'stanford']) {
      const m = achain.loadModel(name);
      const b = m.reachBound();
      assert.equal(b.links.length, m.joints.length);
      const rnd = rng(7);
      let far = 0;
      for (let k = 0; k < 2000; k++) {
        const fk = m.forwardKinematics(randomQ(m, rnd));
        const base = fk.base;
        const d = (F) => Math.hypot(F[3] - base[3], F[7] - base[7], F[11] - base[11]);
        fk.links.forEach((F, i) => assert.ok(d(F) <= b.links[i] * (1 + 1e-12), `${name} link ${i}`));
        assert.ok(d(fk.tool) <= b.tool * (1 + 1e-12));
        far = Math.max(far, d(fk.tool));
      }
      assert.ok(b.radius >= b.tool);
      if (name === 'puma560') {
        assert.ok(Math.abs(b.tool - (0.4318 + Math.hypot(0.15005, 0.0203) + 0.4318)) < 1e-3, `PUMA bound ${b.tool}`);
        assert.ok(b.tool / far < 1.2, `PUMA ${b.tool} vs ${far}`);
      }
      m.dispose();
    }
  });
  test('a URDF robot (origin/axis placement): the URDF PUMA\'s bound is the sum of its joint origins\' lengths', () => {
    const u = achain.loadModel(fs.readFileSync(path.join(root, 'tests/fixtures/urdf/puma560.urdf'), 'utf8'));
    const b = u.reachBound();
    // j3 at (0.4318, 0, 0.15005), j4 at (0.0203, 0.4318, 0) in their parents: the farthest tool is 0.877 m
    assert.ok(Math.abs(b.tool - (Math.hypot(0.4318, 0.15005) + Math.hypot(0.0203, 0.4318))) < 1e-12, `URDF PUMA ${b.tool}`);
    assert.ok(Math.abs(b.links[2] - Math.hypot(0.4318, 0.15005)) < 1e-12);
    assert.equal(b.radius, b.tool);
    u.dispose();
  });
});

describe('joint-model facts in model.info', () => {
  test('angular, revolute, period per joint; hasApair per model', () => {
    const a = achain.loadModel('prototype-4a');
    assert.deepEqual(a.joints.map((j) => [j.angular, j.revolute, j.period]), Array(4).fill([true, false, 4 * Math.PI]));
    const s = achain.loadModel('stanford');
    assert.deepEqual(s.joints.map((j) => j.angular), [true, true, false, true, true, true]);
    assert.deepEqual(s.joints.map((j) => j.period), [2 * Math.PI, 2 * Math.PI, 0, 2 * Math.PI, 2 * Math.PI, 2 * Math.PI]);
    assert.equal(s.joints[0].revolute, true);
    assert.equal(s.info.hasApair, false);
    a.dispose(); s.dispose();
  });
});

describe('robot file defaults (model.info.defaults)', () => {
  test('the prototype\'s: thesis trapezoid 60° → 300°, 0.5 in voxel, the thesis count, its drive variant', () => {
    const m = achain.loadModel('prototype-4a');
    const d = m.info.defaults;
    assert.equal(d.move.name, 'the thesis trapezoid');
    for (const v of d.move.from) assert.ok(Math.abs(v - 60 * deg) < 1e-15);
    for (const v of d.move.to) assert.ok(Math.abs(v - 300 * deg) < 1e-15);
    assert.ok(Math.abs(d.workspaceVoxel - 0.5 * INCH) < 1e-15);
    assert.equal(d.workspaceReference.voxels, 487640);
    assert.equal(d.driveVariant, 'prototype-4a-drive');
    // kept through modelToJson (SI), so an edited prototype keeps them
    const again = achain.loadModel(m.modelToJson());
    assert.deepEqual(again.info.defaults, d);
    assert.equal(achain.loadModel('puma560').info.defaults, null);
    m.dispose(); again.dispose();
  });
  test('a malformed defaults section is an Error naming the field', () => {
    const doc = JSON.parse(achain.builtinRobotFile('planar-2r'));
    doc.defaults = { workspace: { voxel: 0 } };
    assert.throws(() => achain.loadModel(doc), /^Error: defaults\.workspace\.voxel: must be > 0/);
    doc.defaults = { move: { from: [0, 0], to: [0, 400] } };
    assert.throws(() => achain.loadModel(doc), /^Error: defaults\.move\.to\[1\]: outside joints\[1\]\.limits/);
  });
});

describe('workspace worker: the R twin and sections (one protocol, the studio\'s and the package\'s)', () => {
  test('twin: true gives the twin\'s summary, the overlap and its three parts; a section answers both', async () => {
    const { messages, send, waitFor, close } = await standInWorker(new URL('../../wasm/js/workspace.worker.mjs', import.meta.url).href);
    send({ type: 'start', id: 7, model: 'prototype-4a', options: { voxel: 0.0508 }, twin: true });
    const res = await waitFor((m) => m.id === 7 && m.type !== 'progress');
    assert.equal(res.type, 'result', res.message);
    assert.ok(messages.some((m) => m.id === 7 && m.type === 'progress' && m.phase === 'twin'));
    const direct = achain.loadModel('prototype-4a').rPairTwin().computeWorkspace({ voxel: 0.0508 }).summary();
    assert.equal(res.twin.summary.voxels, direct.voxels);
    assert.equal(res.twin.summary.robot, 'prototype-4a-r-twin');
    assert.equal(res.overlap.shared + res.overlap.onlyA, res.summary.voxels);
    // the overlap's three coloured parts, split by the core (surface voxels, as the output): A's the twin lacks and
    // has, and the twin's that A lacks
    const p = res.parts;
    const surface = (m) => m.computeWorkspace({ voxel: 0.0508 }).voxelCentres({ surfaceOnly: true }).length;
    const proto = achain.loadModel('prototype-4a');
    assert.equal(p.onlyA.length + p.shared.length, surface(proto), 'A\'s surface centres: onlyA and shared');
    assert.ok(p.onlyA.length > 0 && p.shared.length > 0 && p.onlyB.length > 0 && p.onlyB.length < surface(proto.rPairTwin()));
    // each centre crosses once: the parts, not also both clouds whole
    assert.equal(res.centres, undefined);
    assert.equal(res.twin.centres, undefined);
    assert.equal(res.shared, undefined, 'no second copy of the intersection');
    send({ type: 'section', id: 7, axis: 'z', value: 0.3 });
    const sec = await waitFor((m) => m.id === 7 && m.type === 'section');
    assert.ok(sec.area > 0 && sec.twin.area > 0, JSON.stringify(sec));
    send({ type: 'start', id: 8, model: 'puma560', options: { voxel: 0.1 }, twin: true });
    const err = await waitFor((m) => m.id === 8 && m.type !== 'progress');
    assert.equal(err.type, 'error');
    assert.match(err.message, /^twin: 'puma560' has no A-pair/);
    close();
  });
});

test('a parallel robot file is not one chain: loadModel names it instead of making an empty model', () => {
  const text = fs.readFileSync(path.join(root, 'core/robots/parallel/parallel-3rrr.json'), 'utf8');
  assert.throws(() => achain.loadModel(text), /a parallel robot file \(3 legs and a platform, not one chain/);
  assert.throws(() => achain.loadModel('stewart-6ups'), /stewart-6ups: a parallel robot file \(6 legs and a platform/);
});
