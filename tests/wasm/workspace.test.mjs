// The workspace area through the wasm module: parity with the native CLI, slicing, cancel, outputs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cli, loadAchain, standInWorker } from './helpers.mjs';

const achain = await loadAchain();
const deg = Math.PI / 180;

describe('workspace', () => {
  test('prototype at 0.5 in: wasm agrees with the native CLI and with the thesis (±10 %)', () => {
    const m = achain.loadModel('prototype-4a');
    const w = m.computeWorkspace({ voxel: 0.0127 });
    const native = cli('workspace', '--robot', 'prototype-4a', '--voxel', '0.0127');
    const s = w.summary();
    assert.ok(Math.abs(s.voxels - 487640) / 487640 < 0.10, `${s.voxels}`);
    // Same algorithm; libm sin/cos differ in the last bit between glibc and the wasm libc, which can
    // move a point lying within ~1e-16 m of a voxel face: allow a handful of voxels.
    assert.ok(Math.abs(s.voxels - native.voxels) <= 1e-4 * native.voxels, `${s.voxels} vs ${native.voxels}`);
    assert.ok(Math.abs(s.volume - s.voxels * 0.0127 ** 3) < 1e-12);
    for (const k of ['min', 'max']) for (let a = 0; a < 3; a++) assert.ok(Math.abs(s.bounds[k][a] - native.bounds[k][a]) < 1e-12);
    assert.equal(s.sweeps.length, 4);
    assert.deepEqual(s.sweeps.map((x) => x.joint), [3, 2, 1, 0]);
    w.dispose();
    m.dispose();
  });

  test('slices of any size give the same voxels; progress rises to 1', () => {
    const m = achain.loadModel('prototype-4a');
    const whole = m.computeWorkspace({ voxel: 0.0254 });
    const job = m.workspaceJob({ voxel: 0.0254 });
    let last = 0;
    let slices = 0;
    while (!job.done) {
      const p = job.step(3e4 + (slices % 7) * 1e4);
      assert.ok(p >= last && p <= 1);
      last = p;
      slices++;
    }
    assert.ok(slices > 10);
    assert.equal(job.progress, 1);
    assert.equal(job.voxels, whole.voxels);
    assert.deepEqual(job.lattice(), whole.lattice());
    [job, whole, m].forEach((x) => x.dispose());
  });

  test('computeWorkspaceAsync reports progress and honours an AbortSignal', async () => {
    const m = achain.loadModel('prototype-4a');
    const seen = [];
    const w = await m.computeWorkspaceAsync({ voxel: 0.0254 }, { onProgress: (p) => seen.push(p), sliceMs: 2 });
    assert.ok(seen.length >= 2);
    assert.equal(seen.at(-1), 1);
    assert.ok(seen.every((p, i) => i === 0 || p >= seen[i - 1]));
    const ctrl = new AbortController();
    await assert.rejects(
      m.computeWorkspaceAsync({ voxel: 0.0127 }, { signal: ctrl.signal, sliceMs: 1, onProgress: () => ctrl.abort() }),
      { name: 'AbortError', message: 'workspace: cancelled' },
    );
    w.dispose();
    m.dispose();
  });

  test('outputs: centres, lattice, mesh, section, overlap with the R twin', () => {
    const a = achain.loadModel('prototype-4a');
    const r = achain.loadModel('prototype-4r');
    const wa = a.computeWorkspace({ voxel: 0.0254 });
    const wr = r.computeWorkspace({ voxel: 0.0254 });
    const n = wa.voxels;
    assert.equal(wa.voxelCentres().length, 3 * n);
    const surf = wa.voxelCentres({ surfaceOnly: true });
    assert.ok(surf.length > 0 && surf.length < 3 * n && surf.length % 3 === 0);
    assert.equal(wa.lattice().length, 3 * n);
    const mesh = wa.voxelSurfaceMesh();
    assert.equal(mesh.indices.length % 3, 0);
    assert.ok(Math.max(...mesh.indices) < mesh.positions.length / 3);
    let vol = 0;  // enclosed volume of the closed outward mesh = voxel volume
    const P = mesh.positions, I = mesh.indices;
    for (let t = 0; t < I.length; t += 3) {
      const [i, j, k] = [3 * I[t], 3 * I[t + 1], 3 * I[t + 2]];
      vol += (P[i] * (P[j + 1] * P[k + 2] - P[j + 2] * P[k + 1]) - P[i + 1] * (P[j] * P[k + 2] - P[j + 2] * P[k])
        + P[i + 2] * (P[j] * P[k + 1] - P[j + 1] * P[k])) / 6;
    }
    assert.ok(Math.abs(vol - wa.volume) / wa.volume < 1e-4);
    const s = wa.voxelSection('z', 0.3);
    assert.equal(s.image.reduce((x, y) => x + y, 0), s.voxels);
    assert.equal(s.image.length, s.nu * s.nv);
    assert.ok(Math.abs(s.area - s.voxels * 0.0254 ** 2) < 1e-12);
    assert.throws(() => wa.voxelSection('w', 0), { message: /^axis:/ });
    const ov = wa.voxelOverlap(wr);
    const native = cli('workspace', '--robot', 'prototype-4a', '--voxel', '0.0254', '--compare', 'prototype-4r');
    // The R twin has many configurations whose tool point lies exactly on voxel faces; last-bit libm
    // differences (glibc vs the wasm libc) move some of them: agree to 0.5 %.
    assert.ok(Math.abs(ov.shared - native.overlap.shared) <= 5e-3 * native.overlap.shared, `${ov.shared} vs ${native.overlap.shared}`);
    assert.equal(ov.union, ov.a + ov.b - ov.shared);
    assert.equal(wa.voxelIntersection(wr).length, 3 * ov.shared);
    // the overlap's coloured parts, split by the core: A's voxels that R has / lacks, R's that A lacks
    assert.equal(wa.voxelCentres({ sharedWith: wr }).length, 3 * ov.shared);
    assert.equal(wa.voxelCentres({ notIn: wr }).length, 3 * ov.onlyA);
    assert.equal(wr.voxelCentres({ notIn: wa }).length, 3 * ov.onlyB);
    const surfA = wa.voxelCentres({ surfaceOnly: true }).length;
    const [inR, outR] = [{ sharedWith: wr }, { notIn: wr }].map((o) => wa.voxelCentres({ surfaceOnly: true, ...o }));
    assert.equal(inR.length + outR.length, surfA);
    assert.ok(inR.length > 0 && outR.length > 0);
    const first = (a) => Array.from(a.slice(0, 3));  // a shared surface centre is one of A's surface centres
    assert.ok(wa.voxelIntersection(wr).some((v, i, all) => i % 3 === 0 && all[i] === first(inR)[0] && all[i + 1] === first(inR)[1] && all[i + 2] === first(inR)[2]));
    assert.throws(() => wa.voxelCentres({ sharedWith: wr, notIn: wr }), /give sharedWith or notIn, not both/);
    [wa, wr, a, r].forEach((x) => x.dispose());
  });

  test('Castelli and Monte-Carlo run through the same API', () => {
    const m = achain.loadModel('planar-2r');
    const c = m.computeWorkspace({ voxel: 0.05, method: 'castelli', step: 2 * deg, origin: [0, 0, -0.025] });
    const mc = m.computeWorkspace({ voxel: 0.05, method: 'montecarlo', samples: 2e5, origin: [0, 0, -0.025] });
    const rb = m.computeWorkspace({ voxel: 0.05, origin: [0, 0, -0.025] });
    for (const w of [c, mc, rb]) assert.ok(Math.abs(w.voxels * 0.05 ** 2 - Math.PI * (1.8 ** 2 - 0.2536 ** 2)) < 0.1 * 10, `${w.voxels}`);
    assert.ok(c.voxelOverlap(rb).jaccard > 0.9);
    assert.ok(mc.voxelOverlap(rb).jaccard > 0.9);
    [c, mc, rb, m].forEach((x) => x.dispose());
  });

  test('errors name the option', () => {
    const m = achain.loadModel('prototype-4a');
    assert.throws(() => m.computeWorkspace({ voxel: 0 }), { message: /^voxel: must be a positive/ });
    assert.throws(() => m.computeWorkspace({ voxel: 0.01, speed: 2 }), { message: /^options\.speed: unknown option/ });
    assert.throws(() => m.computeWorkspace({ voxel: 0.01, method: 'fast' }), { message: /^method: unknown 'fast'/ });
    assert.throws(() => m.computeWorkspace({ voxel: 0.0127, method: 'castelli' }), { message: /^step: .*robinson/ });
    m.dispose();
  });
});

describe('A-pair leg-collision range', () => {
  test('r/a = 0.05 → 181.9°, centrelines → 60°–300°, as native', () => {
    const r = achain.apairUsableRange(1, 0.05);
    assert.ok(Math.abs(r.range / deg - 181.9) < 0.05);
    assert.deepEqual(r.upperLegs, [1, 2]);
    const native = cli('apair-range', '--side', '1', '--leg-radius', '0.05');
    assert.ok(Math.abs(r.lower - native.lower) < 1e-12);
    const r0 = achain.apairUsableRange(0.17598, 0);
    assert.ok(Math.abs(r0.lower / deg - 60) < 1e-8 && Math.abs(r0.upper / deg - 300) < 1e-8);
    assert.throws(() => achain.apairUsableRange(1, 0.5), { message: /^leg radius:/ });
  });

  test('apairClearance per joint: centrelines positive inside the limits; thick legs interfere near the ends', () => {
    const m = achain.loadModel('prototype-4a');
    const c = m.apairClearance([1.2, 3.1, 4.0, 5.2]);
    assert.equal(c.length, 4);
    assert.ok(c.every((x) => x > 0));
    const j = JSON.parse(achain.builtinRobotFile('prototype-4a'));
    j.joints[0].legs.radius = 0.05 * 12 / Math.sqrt(3);   // r/a = 0.05 (inches in the file)
    const t = achain.loadModel(j);
    const [near] = t.apairClearance([85 * deg, Math.PI, Math.PI, Math.PI]);
    const [mid] = t.apairClearance([Math.PI, Math.PI, Math.PI, Math.PI]);
    assert.ok(near < 0 && mid > 0);
    const p = achain.loadModel('planar-2r');
    assert.deepEqual([...p.apairClearance([0, 0])], [Infinity, Infinity]);
    [m, t, p].forEach((x) => x.dispose());
  });

  test('leg distance curves: zero at 60° (legs 1&6) and 300° (legs 1&2)', () => {
    const c = achain.legPairSample(1, { samples: 360 });
    assert.equal(c.theta.length, 361);
    assert.ok(c.d16[60] < 1e-12);
    assert.ok(c.d12[300] < 1e-12);
    assert.ok(Math.abs(c.d12[180] - 0.4264) < 1e-4);
  });
});

describe('workspace worker (message protocol, driven with a stand-in `self`)', () => {
  test('start → progress… → result with transferred centres; cancel → cancelled', async () => {
    const { messages, send, waitFor, close } = await standInWorker(new URL('../../wasm/js/workspace.worker.mjs', import.meta.url).href);
    send({ type: 'start', id: 1, model: 'prototype-4a', options: { voxel: 0.0254 }, output: 'centres' });
    const res = await waitFor((m) => m.id === 1 && m.type !== 'progress');
    assert.equal(res.type, 'result');
    assert.equal(res.centres.length, 3 * res.summary.voxels);
    assert.ok(messages.some((m) => m.id === 1 && m.type === 'progress'));
    send({ type: 'start', id: 2, model: 'prototype-4a', options: { voxel: 0.0127 } });
    await waitFor((m) => m.id === 2 && m.type === 'progress');
    send({ type: 'cancel', id: 2 });
    const end = await waitFor((m) => m.id === 2 && m.type !== 'progress');
    assert.equal(end.type, 'cancelled');
    send({ type: 'start', id: 3, model: 'prototype-4a', options: { voxel: -1 } });
    const err = await waitFor((m) => m.id === 3);
    assert.equal(err.type, 'error');
    assert.match(err.message, /^voxel: must be a positive/);
    close();
  });
});
