// Issue 17, Deliver 3 and 4: the wasm bindings refuse bad arguments with an Error naming the argument
// (Embind alone would coerce '1234' → 1234, null → 0, ['1', '2'] → [1, 2]), a bad call never corrupts the
// module (the next valid call gives the same answer), a non-finite result is an Error, and models and jobs
// neither leak on create/use/dispose nor when dispose() is forgotten (FinalizationRegistry).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { loadAchain } from './helpers.mjs';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

let achain;
before(async () => { achain = await loadAchain(); });

const heapBytes = () => achain.module.HEAPU8.buffer.byteLength;

/** Wrong values for a vector argument of n numbers, and the message each must give (named `what`). */
function badVectors(what, n) {
  const ok = Array.from({ length: n }, (_, i) => 0.1 * (i + 1));
  const esc = what.replace(/[[\]().]/g, '\\$&');
  return [
    [ok.slice(1), new RegExp(`^${esc}: expected ${n} values, got ${n - 1}$`)],
    [[...ok, 0], new RegExp(`^${esc}: expected ${n} values, got ${n + 1}$`)],
    [undefined, new RegExp(`^${esc}: must be an array of ${n} numbers \\(got undefined\\)`)],
    [null, new RegExp(`^${esc}: must be an array of ${n} numbers \\(got null\\)`)],
    ['1234'.repeat(n).slice(0, n), new RegExp(`^${esc}: must be an array of ${n} numbers \\(got the string`)],
    [ok.map(String), new RegExp(`^${esc}\\[0\\]: must be a finite number \\(got the string '0.1'\\)`)],
    [ok.map((v, i) => (i === n - 1 ? null : v)), new RegExp(`^${esc}\\[${n - 1}\\]: must be a finite number \\(got null\\)`)],
    [ok.map((v, i) => (i === 0 ? undefined : v)), new RegExp(`^${esc}\\[0\\]: must be a finite number \\(got undefined\\)`)],
    [ok.map((v, i) => (i === 1 ? NaN : v)), new RegExp(`^${esc}\\[1\\]: must be a finite number$`)],
    [Float64Array.from(ok, (v, i) => (i === 1 ? Infinity : v)), new RegExp(`^${esc}\\[1\\]: must be a finite number$`)],
  ];
}

describe('wasm arguments: every binding refuses wrong vectors and numbers, naming them (issue 17)', () => {
  // Each case: a call with valid arguments, and the arguments that may be replaced by a bad value.
  // args: the full valid argument list; slots: [index, name, length] of each vector argument.
  const cases = (m) => {
    const n = m.dof;
    const q = Float64Array.from({ length: n }, (_, i) => 0.2 + 0.1 * i);
    const T = Array.from(m.forwardKinematics(q).tool);
    return [
      ['forwardKinematics', [q], [[0, 'q', n]], (r) => Array.from(r.tool)],
      ['fkTool', [q], [[0, 'q', n]], (r) => Array.from(r)],
      ['pointJacobian', [q], [[0, 'q', n]], (r) => Array.from(r)],
      ['pointJacobianDerivative', [q, q], [[0, 'q', n], [1, 'qd', n]], (r) => Array.from(r.Jdot)],
      ['influence', [q], [[0, 'q', n]], (r) => Array.from(r.G)],
      ['influenceAcceleration', [q, q, q], [[0, 'q', n], [1, 'qd', n], [2, 'qdd', n]], (r) => Array.from(r)],
      ['manipulability', [q], [[0, 'q', n]], (r) => Array.from(r.singularValues)],
      ['staticTorques', [q, [1, 2, 3, 0.1, 0.2, 0.3]], [[0, 'q', n], [1, 'wrench', 6]], (r) => Array.from(r)],
      ['inverseDynamics', [q, q, q], [[0, 'q', n], [1, 'qd', n], [2, 'qdd', n]], (r) => Array.from(r)],
      ['torqueBreakdown', [q, q, q], [[0, 'q', n], [1, 'qd', n], [2, 'qdd', n]], (r) => Array.from(r.total)],
      ['massMatrix', [q], [[0, 'q', n]], (r) => Array.from(r)],
      ['gravityTorques', [q], [[0, 'q', n]], (r) => Array.from(r)],
      ['coriolisMatrix', [q, q], [[0, 'q', n], [1, 'qd', n]], (r) => Array.from(r)],
      ['forwardDynamics', [q, q, q], [[0, 'q', n], [1, 'qd', n], [2, 'tau', n]], (r) => Array.from(r)],
      ['kineticEnergy', [q, q], [[0, 'q', n], [1, 'qd', n]], (r) => [r]],
      ['potentialEnergy', [q], [[0, 'q', n]], (r) => [r]],
      ['leeTerms', [q, q], [[0, 'q', n], [1, 'qd', n]], (r) => Array.from(r.D)],
      ['freemanModel', [q, q], [[0, 'q', n], [1, 'qd', n]], (r) => Array.from(r.Istar)],
      ['cartesianInertia', [q], [[0, 'q', n]], (r) => Array.from(r.LambdaInv)],
      ['ikNumeric', [T, q], [[0, 'targetT', 16], [1, 'seedQ', n]], (r) => Array.from(r.q)],
      ['planJointPath', [q, q.map((v) => v + 0.1), { duration: 1, rate: 10, profile: 'quintic' }], [[0, 'from', n], [1, 'to', n]],
        (r) => Array.from(r.q)],
      ['apairClearance', [q], [[0, 'q', n]], (r) => Array.from(r).map((v) => (Number.isFinite(v) ? v : 0))],
    ];
  };

  test('wrong length, undefined, null, strings, string elements, null elements, NaN and Infinity: an Error naming the argument; the module is intact', () => {
    const m = achain.builtinModel('puma560');
    let checked = 0;
    for (const [method, args, slots, pick] of cases(m)) {
      const expected = pick(m[method](...args));
      for (const [at, name, len] of slots) {
        for (const [bad, message] of badVectors(name, len)) {
          const call = args.slice();
          call[at] = bad;
          assert.throws(() => m[method](...call), (e) => e instanceof Error && message.test(e.message),
            `${method}(${name} = ${JSON.stringify(bad)?.slice(0, 40)})`);
          checked++;
        }
        // the very next valid call is unaffected (same numbers as before the bad ones)
        assert.deepEqual(pick(m[method](...args)), expected, `${method} after bad ${name}`);
      }
    }
    assert.ok(checked >= 300, `${checked} bad calls`);
    m.dispose();
  });

  test('series, options and scalars: strings and null are refused, not coerced', () => {
    const m = achain.builtinModel('puma560');
    const q = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
    assert.throws(() => m.fkToolSeries([q, q.map(String)]), { message: "qs[1][0]: must be a finite number (got the string '0.1')" });
    assert.throws(() => m.fkToolSeries([...q, ...q].map((v, i) => (i === 7 ? null : v))), { message: 'qs[7]: must be a finite number (got null)' });
    assert.throws(() => m.fkToolSeries('123456'), { message: 'qs: must be an array of configurations (got a string)' });
    assert.throws(() => m.inverseDynamics(q, q, q, { gravity: ['0', '0', '-9.81'] }), { message: "gravity[0]: must be a finite number (got the string '0')" });
    assert.throws(() => m.inverseDynamics(q, q, q, { wrench: [0, 0, 0, 0, 0] }), { message: 'wrench: expected 6 values, got 5' });
    assert.throws(() => m.inverseDynamicsSeries({ q: [q, q], qd: [q, ['1', 0, 0, 0, 0, 0]] }), { message: "qd[1][0]: must be a finite number (got the string '1')" });
    assert.throws(() => m.ikNumeric(Array.from(m.fkTool(q)), q, { restarts: '5' }), { message: "options.restarts: must be a finite number (got the string '5')" });
    assert.throws(() => m.ikNumeric(Array.from(m.fkTool(q)), q, { maxIterations: null }), { message: 'options.maxIterations: must be a finite number (got null)' });
    // huge work is refused by the core's caps, not run (before: ikSolve with 1e8 restarts blocked the page)
    assert.throws(() => m.ikNumeric(Array.from(m.fkTool(q)), q, { restarts: 1e8 }), /restarts/);
    assert.throws(() => m.planJointPath(q, q.map((v) => v + 0.2), { duration: 1e6, rate: 1000 }), { message: /^rate: .*samples/ });
    assert.throws(() => m.planJointPath(q, q, { rate: '100' }), { message: "options.rate: must be a finite number (got the string '100')" });
    assert.throws(() => m.manipulabilityReport(q, { tol: '1e-6' }), { message: "tol: must be a finite number (got the string '1e-6')" });
    assert.throws(() => m.simulate({ q, duration: 0.01, every: 2.5 }), { message: 'every: must be an integer in [1, 1000000] (got 2.5)' });
    assert.throws(() => m.simulate({ q, duration: 1e6, dt: 1e-3 }), { message: /^duration: 1000000 s is 1000000000 steps of dt; at most 1e8$/ });
    assert.throws(() => m.simulateComputedTorque({ traj: { t: [0, '1'], q: [q, q] } }), { message: "traj.t[1]: must be a finite number (got the string '1')" });
    assert.throws(() => achain.apairUsableRange('1', 0.1), { message: "side: must be a finite number (got the string '1')" });
    assert.throws(() => achain.apairUsableRange(1, null), { message: 'legRadius: must be a finite number (got null)' });
    assert.throws(() => achain.legPairSample(1, { samples: 1e9 }), { message: /^samples: must be an integer in \[1, 1000000\]/ });
    assert.throws(() => achain.apairStudy({ rhoIn: '5' }), { message: "rhoIn: must be a finite number (got the string '5')" });
    assert.throws(() => achain.apairStudy({ rhoIn: -1 }), { message: /^rhoIn: must be > 0/ });
    assert.throws(() => achain.matrixToRpy(Array(16).fill('0')), { message: 'T[0]: must be a finite number (got string)' });
    assert.throws(() => achain.matrixToRpy('0123456789abcdef'), { message: 'T: must be an array of numbers' });
    assert.throws(() => achain.interpolateCartesian(Array(16).fill(null), Array.from(m.fkTool(q))), { message: 'start[0]: must be a finite number (got null)' });
    assert.throws(() => achain.modelFromJsonString({ joints: [] }), { message: 'text: must be a string of JSON (got object)' });
    assert.throws(() => achain.builtinModel(null), { message: "name: must be a built-in robot's name (got object)" });
    const w = m.workspaceJob({ voxel: 0.2 });
    assert.throws(() => w.step('1000'), { message: "budget: must be a finite number (got the string '1000')" });
    assert.throws(() => m.workspaceJob({ voxel: '0.2' }), { message: 'voxel: must be a number' });
    w.dispose();
    // still intact
    assert.equal(m.fkToolSeries([q, q]).length, 32);
    m.dispose();
  });

  test('a non-finite result is an Error naming it (before: inverseDynamics with qd = 1e200 returned Infinity / NaN)', () => {
    const m = achain.builtinModel('puma560');
    const q = [0, 0.1, 0.2, 0, 0, 0], z = [0, 0, 0, 0, 0, 0];
    assert.throws(() => m.inverseDynamics(q, [1e200, 0, 0, 0, 0, 0], z), { message: /^tau\[\d\]: the result is not finite/ });
    assert.throws(() => m.torqueBreakdown(q, [1e200, 0, 0, 0, 0, 0], z), { message: /^tau\[\d+\]: the result is not finite/ });
    assert.throws(() => m.kineticEnergy(q, [1e200, 0, 0, 0, 0, 0]), { message: /^kineticEnergy\[0\]: the result is not finite/ });
    assert.throws(() => m.inverseDynamicsSeries({ q: [q, q], qd: [z, [1e200, 0, 0, 0, 0, 0]] }), { message: /^tau\[\d+\]: the result is not finite/ });
    // the bound of what stays finite is far above anything physical: 1e9 rad/s still answers
    assert.ok(Array.from(m.inverseDynamics(q, [1e9, 0, 0, 0, 0, 0], z)).every(Number.isFinite));
    m.dispose();
  });
});

describe('wasm lifetime (issue 17, Deliver 4)', () => {
  /** One create/use/dispose cycle: a model from JSON, FK, inverse dynamics, IK, a workspace job. */
  function cycle(text, q) {
    const m = achain.modelFromJsonString(text);
    m.forwardKinematics(q);
    m.inverseDynamics(q, q, q);
    m.ikNumeric(m.fkTool(q), q);
    const w = m.workspaceJob({ voxel: 0.25 });
    w.step(1e3);
    w.dispose();
    m.dispose();
  }

  test('10^4 create/use/dispose cycles of models and workspace jobs: the wasm heap does not grow', () => {
    const text = achain.builtinRobotFile('planar-2r');
    const q = [0.3, -0.4];
    for (let k = 0; k < 200; k++) cycle(text, q);  // warm-up: the allocator's pools reach their size
    const before = heapBytes();
    const t0 = performance.now();
    for (let k = 0; k < 10000; k++) cycle(text, q);
    const grew = heapBytes() - before;
    console.log(`10^4 cycles in ${((performance.now() - t0) / 1000).toFixed(1)} s: heap ${before / 2 ** 20} MiB, grew ${grew} bytes`);
    assert.ok(grew <= 2 ** 20, `heap grew ${grew} bytes`);  // documented bound (docs/reliability.md#resource-caps): ≤ 1 MiB after the warm-up (measured: 0)
  });

  test('a synchronous loop that forgets dispose() stops at 1000 live models with an Error saying so; the heap stays bounded (before: 20,000 PUMAs took it to 899 MiB)', async () => {
    const text = achain.builtinRobotFile('puma560');
    gc();
    await turn();
    const before = heapBytes();
    let made = 0;
    let error = null;
    for (let k = 0; k < 20000 && !error; k++) {
      try {
        achain.modelFromJsonString(text).inverseDynamics([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]);
        made++;
      } catch (e) {
        error = e;
      }
    }
    assert.ok(error, `${made} models made, none refused`);
    assert.match(error.message, /^models: 1000 are alive, the most one module holds; dispose\(\) the models you no longer need \(a forgotten one is freed only after the garbage collector has run and the event loop has turned\)$/);
    assert.ok(made <= 1000, `${made} models made`);
    const grew = heapBytes() - before;
    console.log(`sync loop: ${made} forgotten models, then refused; heap grew ${(grew / 2 ** 20).toFixed(1)} MiB`);
    assert.ok(grew <= 64 * 2 ** 20, `heap grew ${grew} bytes`);  // ≈ 45 KB per PUMA handle
    // once the collector has run and the loop has turned, the forgotten ones are freed and models can be made again
    for (let k = 0; k < 20; k++) {
      gc();
      await turn();
    }
    const m = achain.modelFromJsonString(text);
    assert.equal(m.dof, 6);
    m.dispose();
  });

  test('a forgotten dispose() is reclaimed by the FinalizationRegistry once the event loop turns', async () => {
    // the handle itself shows it: raw.isDeleted() turns true when the registry freed it
    let m = achain.builtinModel('puma560');
    let w = m.workspaceJob({ voxel: 0.3 });
    const rawModel = m.raw, rawJob = w.raw;
    m = null;
    w = null;
    for (let k = 0; k < 20 && !(rawModel.isDeleted() && rawJob.isDeleted()); k++) {
      gc();
      await turn();
    }
    assert.equal(rawJob.isDeleted(), true, 'the workspace job was not reclaimed');
    assert.equal(rawModel.isDeleted(), true, 'the model was not reclaimed');
    // and at scale: 5000 models never disposed, the loop turning every 250 — the heap stays bounded
    const text = achain.builtinRobotFile('puma560');
    for (let k = 0; k < 500; k++) achain.modelFromJsonString(text).inverseDynamics([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]);
    gc();
    await turn();
    gc();
    await turn();
    const before = heapBytes();
    for (let k = 0; k < 5000; k++) {
      achain.modelFromJsonString(text).inverseDynamics([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]);
      if (k % 250 === 249) { gc(); await turn(); await turn(); }
    }
    const grew = heapBytes() - before;
    console.log(`5000 forgotten models: heap grew ${grew} bytes`);
    assert.ok(grew <= 4 * 2 ** 20, `heap grew ${grew} bytes`);  // at most the 250 models alive between turns (≈ 2 MB)
  });
});
