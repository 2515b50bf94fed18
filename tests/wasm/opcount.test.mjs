// Operation counts, measured (docs/dynamics.md, "Operation counts, measured"; docs/seed-numbers.md, the handbook's
// §4.1.1 and Lee, Lee & Nigam's Table 1): bench/opcount/opcount.cpp is built against build/native's libachain.a
// (Release, -O3) and run once under callgrind; the floating-point multiplications and additions each kernel
// executes are compared with the printed counts. Needs valgrind (scripts/deps.sh) and build/native; without them
// the measured tests are skipped and say why (the classifier and the printed formulas are checked regardless).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, measure, missing, parseProfile, PRINTED } from '../../bench/opcount/measure.mjs';

// The counts recorded for each compiler that builds build/native, [mul, add]. gcc 12.2 at the commit that added this
// test (x86-64 baseline SSE2, no FMA); clang 14.0.6 since build/native is compiled by clang (4ae2f9d): the same
// counts but for the G-D kernels, whose additions clang contracts 11-14 % below gcc's (docs/dynamics.md). A change
// of more than 10 % fails here: measure again (node bench/opcount/run.mjs) and update docs/dynamics.md.
const GCC = {
  puma560: {
    fk: [276, 153], rnea: [1116, 837], bias: [1116, 837], crba: [1086, 857], 'crba+bias': [2244, 1742],
    leeTerms: [4279, 4229], leeInverseDynamics: [4321, 4295], forwardDynamics: [2000, 1652], forwardDynamicsABA: [2106, 1881],
  },
  'puma560-3': {
    fk: [156, 90], rnea: [558, 414], bias: [558, 414], crba: [534, 404], 'crba+bias': [1104, 833],
    leeTerms: [1142, 1028], leeInverseDynamics: [1154, 1052], forwardDynamics: [946, 748], forwardDynamicsABA: [1032, 894],
  },
};
const CLANG = {
  puma560: {
    fk: [276, 153], rnea: [1116, 837], bias: [1116, 837], crba: [1080, 857], 'crba+bias': [2238, 1742],
    leeTerms: [4239, 3654], leeInverseDynamics: [4281, 3720], forwardDynamics: [1994, 1652], forwardDynamicsABA: [2100, 1881],
  },
  'puma560-3': {
    fk: [156, 90], rnea: [558, 414], bias: [558, 414], crba: [531, 404], 'crba+bias': [1101, 833],
    leeTerms: [1132, 915], leeInverseDynamics: [1144, 939], forwardDynamics: [943, 748], forwardDynamicsABA: [1029, 894],
  },
};

const why = missing();
const measured = why ? null : measure();
/** The recorded counts of the compiler that built the measured library (its `--version` line). */
const recordedFor = (compiler) => (/clang/.test(compiler) ? CLANG : /\(GCC\)|\bg\+\+|gcc/i.test(compiler) ? GCC : null);
const get = (robot, kernel) => {
  const r = measured.results.find((x) => x.robot === robot && x.kernel === kernel);
  assert.ok(r, `${robot}/${kernel} measured`);
  return r.own;
};
const N = { puma560: 6, 'puma560-3': 3 };
const ratio = (a, b) => a / b;

test('opcount: the classifier counts lanes (scalar 1, xmm 2, ymm 4) and an FMA as one multiply and one add', () => {
  const c = (m, o) => { const x = classify(m, o); return [x.mul, x.add, x.div, x.sqrt]; };
  assert.deepEqual(c('mulsd', '%xmm1,%xmm0'), [1, 0, 0, 0]);
  assert.deepEqual(c('vmulsd', '%xmm2,%xmm1,%xmm0'), [1, 0, 0, 0]);
  assert.deepEqual(c('mulpd', '%xmm1,%xmm0'), [2, 0, 0, 0]);
  assert.deepEqual(c('vmulpd', '%ymm2,%ymm1,%ymm0'), [4, 0, 0, 0]);
  assert.deepEqual(c('subsd', '0x8(%rax),%xmm0'), [0, 1, 0, 0]);
  assert.deepEqual(c('addpd', '%xmm1,%xmm0'), [0, 2, 0, 0]);
  assert.deepEqual(c('vsubpd', '%ymm1,%ymm2,%ymm3'), [0, 4, 0, 0]);
  assert.deepEqual(c('vfmadd231sd', '%xmm1,%xmm2,%xmm0'), [1, 1, 0, 0]);
  assert.deepEqual(c('vfnmadd132pd', '%ymm1,%ymm2,%ymm0'), [4, 4, 0, 0]);
  assert.deepEqual(c('divsd', '%xmm1,%xmm0'), [0, 0, 1, 0]);
  assert.deepEqual(c('sqrtpd', '%xmm1,%xmm0'), [0, 0, 0, 2]);
  for (const m of ['movsd', 'xorpd', 'andpd', 'ucomisd', 'maxsd', 'cvtsi2sd', 'unpcklpd', 'shufpd', 'imul', 'add', 'sub'])
    assert.deepEqual(c(m, '%xmm1,%xmm0'), [0, 0, 0, 0], m);
  const p = parseProfile(['positions: instr', 'events: Ir', 'desc: Trigger: Client Request: r/k', 'ob=/x', 'fn=f',
    '0x10 3', 'cob=/usr/lib/libm.so.6', 'cfn=sin', 'calls=2 0x40', '0x14 99', '0x18 3'].join('\n'));
  assert.equal(p.label, 'r/k');
  assert.deepEqual(p.self.map((s) => [s.addr, s.count]), [[0x10, 3], [0x18, 3]]);
  assert.deepEqual(p.calls.map((s) => [s.cob, s.cfn, s.calls]), [['/usr/lib/libm.so.6', 'sin', 2]]);
});

test('opcount: the printed counts at n = 3 and 6 are the digest values (handbook §4.1.1, Lee Table 1)', () => {
  const at = (k, n) => [PRINTED[k].mul(n), PRINTED[k].add(n)];
  assert.deepEqual(at('L-E (handbook)', 6), [66394, 51456]);
  assert.deepEqual(at('L-E (handbook)', 3), [6484, 4998]);
  assert.ok(at('L-E (handbook)', 6).reduce((a, b) => a + b) > 100000, 'the chapter: more than 100,000 operations at 6 d.o.f.');
  assert.deepEqual(at('Algorithm 2', 6), [547, 482]);
  assert.deepEqual(at('Algorithm 2', 3), [235, 206]);
  assert.deepEqual(at('L-E (Lee)', 6), [101348, 77405]);
  assert.deepEqual(at('L-E (Lee)', 3), [10441, 7960]);
  assert.deepEqual(at('N-E', 6), [792, 662]);
  assert.deepEqual(at('N-E', 3), [396, 329]);
  assert.deepEqual(at('G-D', 6), [2963, 2209]);
  assert.deepEqual(at('G-D', 3), [868, 623]);
});

test('opcount: the recorded counts are chosen by the compiler (gcc and clang version lines)', () => {
  assert.equal(recordedFor('Debian clang version 14.0.6'), CLANG);
  assert.equal(recordedFor('g++ (Debian 12.2.0-14+deb12u1) 12.2.0'), GCC);
  assert.equal(recordedFor('icpx (Intel oneAPI) 2024'), null);
});

test('opcount, measured: every kernel within 10 % of the recorded counts (docs/dynamics.md)', { skip: why ?? false }, () => {
  const RECORDED = recordedFor(measured.compiler);
  assert.ok(RECORDED, `no counts are recorded for ${measured.compiler}: measure them (node bench/opcount/run.mjs) and add them here`);
  for (const [robot, kernels] of Object.entries(RECORDED))
    for (const [kernel, [mul, add]] of Object.entries(kernels)) {
      const c = get(robot, kernel);
      assert.ok(Math.abs(c.mul / mul - 1) <= 0.1, `${robot}/${kernel}: ${c.mul} multiplications, recorded ${mul}`);
      assert.ok(Math.abs(c.add / add - 1) <= 0.1, `${robot}/${kernel}: ${c.add} additions, recorded ${add}`);
    }
});

test('opcount, measured: our tau = M qdd + b (CRBA, RNEA bias) costs under 1/20 of the closed-form L-E counts at n = 6, 1/4 at n = 3', { skip: why ?? false }, () => {
  for (const [robot, bound] of [['puma560', 1 / 20], ['puma560-3', 1 / 4]]) {
    const c = get(robot, 'crba+bias'), n = N[robot];
    for (const k of ['L-E (handbook)', 'L-E (Lee)']) {
      assert.ok(c.mul < bound * PRINTED[k].mul(n), `${robot}: ${c.mul} multiplications against ${k} ${PRINTED[k].mul(n)}`);
      assert.ok(c.add < bound * PRINTED[k].add(n), `${robot}: ${c.add} additions against ${k} ${PRINTED[k].add(n)}`);
    }
  }
});

test('opcount, measured: RNEA is O(n), and its two passes (RNEA less FK) are within 15 % of the N-E count 132n / 111n - 4', { skip: why ?? false }, () => {
  const r6 = get('puma560', 'rnea'), r3 = get('puma560-3', 'rnea');
  assert.ok(Math.abs(r6.mul / (2 * r3.mul) - 1) < 0.05, `multiplications ${r6.mul} at n = 6, ${r3.mul} at n = 3`);
  assert.ok(Math.abs(r6.add / (2 * r3.add) - 1) < 0.05, `additions ${r6.add} at n = 6, ${r3.add} at n = 3`);
  for (const robot of ['puma560', 'puma560-3']) {
    const r = get(robot, 'rnea'), fk = get(robot, 'fk'), n = N[robot];
    const mul = ratio(r.mul - fk.mul, PRINTED['N-E'].mul(n)), add = ratio(r.add - fk.add, PRINTED['N-E'].add(n));
    assert.ok(mul > 0.85 && mul < 1.15, `${robot}: passes ${r.mul - fk.mul} multiplications, ${mul.toFixed(3)} × 132n`);
    assert.ok(add > 0.85 && add < 1.15, `${robot}: passes ${r.add - fk.add} additions, ${add.toFixed(3)} × (111n − 4)`);
    // with FK (from q to every world frame) RNEA is above the printed count
    assert.ok(r.mul > 1.2 * PRINTED['N-E'].mul(n) && r.add > 1.1 * PRINTED['N-E'].add(n), `${robot}: ${r.mul} / ${r.add} with FK`);
  }
});

test('opcount, measured: RNEA costs more than Algorithm 2 (104n - 77 / 92n - 70), with FK and without', { skip: why ?? false }, () => {
  for (const robot of ['puma560', 'puma560-3']) {
    const r = get(robot, 'rnea'), fk = get(robot, 'fk'), n = N[robot];
    const [pm, pa] = [PRINTED['Algorithm 2'].mul(n), PRINTED['Algorithm 2'].add(n)];
    assert.ok(r.mul - fk.mul > 1.3 * pm && r.add - fk.add > 1.3 * pa, `${robot}: passes ${r.mul - fk.mul} / ${r.add - fk.add}, printed ${pm} / ${pa}`);
    assert.ok(r.mul < 3 * pm && r.add < 3 * pa, `${robot}: ${r.mul} / ${r.add} with FK, printed ${pm} / ${pa}`);
  }
});

test('opcount, measured: leeInverseDynamics (G-D) costs 1.15 to 2.3 times the printed G-D count and grows faster than n', { skip: why ?? false }, () => {
  for (const robot of ['puma560', 'puma560-3']) {
    const c = get(robot, 'leeInverseDynamics'), n = N[robot];
    const mul = ratio(c.mul, PRINTED['G-D'].mul(n)), add = ratio(c.add, PRINTED['G-D'].add(n));
    assert.ok(mul > 1.15 && mul < 2.3, `${robot}: ${c.mul} multiplications, ${mul.toFixed(3)} × printed`);
    assert.ok(add > 1.15 && add < 2.3, `${robot}: ${c.add} additions, ${add.toFixed(3)} × printed`);
  }
  assert.ok(get('puma560', 'leeInverseDynamics').mul > 2.5 * get('puma560-3', 'leeInverseDynamics').mul);
});
