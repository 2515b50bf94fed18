// Operation counts, measured (docs/dynamics.md, "Operation counts, measured"): builds bench/opcount/opcount.cpp
// against a build's static libachain.a (build/native by default, the Release -O3 library npm test builds), runs it
// once under callgrind, and turns the execution count of every instruction of each measured call into counts of
// floating-point operations by the instruction's mnemonic (objdump -d of the object that holds it).
//
// What is counted, per executed instruction (lanes: xmm 2, ymm 4, zmm 8 doubles; a scalar ...sd is 1):
//   mul   mulsd/mulpd/vmul…, and the multiply of every FMA (vfmadd…/vfmsub…/vfnmadd…/vfnmsub…)
//   add   addsd/subsd/addpd/subpd/vadd…/vsub…/addsubpd/haddpd/hsubpd, and the add of every FMA
//   div   divsd/divpd/vdiv…;  sqrt  sqrtsd/sqrtpd/vsqrt…
// (x87 fmul/fadd/fsub/fdiv and single precision …ss/…ps are counted the same way, one per lane.)
// Not counted: moves, shuffles, conversions, compares (ucomisd, cmpsd, min/max), sign flips and absolute values
// (xorpd/andpd), integer and address arithmetic. The core's own code (libachain.a, linked into the executable) is
// counted apart from what runs in shared libraries: libm's sin/cos (glibc's __sincos_fma and the like) are
// reported as calls, with the operations inside them in a column of their own.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The printed counts: {mul, add} as functions of n, with where they are printed. */
export const PRINTED = {
  'N-E': { mul: (n) => 132 * n, add: (n) => 111 * n - 4, source: "Lee, Lee & Nigam, Table 1 (Luh–Walker–Paul N-E)" },
  'Algorithm 2': { mul: (n) => 104 * n - 77, add: (n) => 92 * n - 70, source: 'Handbook §4.1.1, Algorithm 2 (tensor N-E)' },
  'L-E (handbook)': {
    mul: (n) => 32 * n ** 4 + 86 * n ** 3 + 171 * n ** 2 + 53 * n - 128,
    add: (n) => 25 * n ** 4 + 66 * n ** 3 + 129 * n ** 2 + 42 * n - 96,
    source: 'Handbook §4.1.1, the closed form of Eq. H-61',
  },
  'L-E (Lee)': {
    mul: (n) => Math.round((128 * n ** 4 + 512 * n ** 3 + 739 * n ** 2 + 160 * n) / 3),
    add: (n) => Math.round((196 * n ** 4 + 781 * n ** 3 + 1118 * n ** 2 + 245 * n) / 6),
    source: 'Lee, Lee & Nigam, Table 1 (4×4 L-E)',
  },
  'G-D': {
    mul: (n) => Math.round((13 * n ** 3) / 6 + (105 * n ** 2) / 2 + (268 * n) / 3 + 69),
    add: (n) => Math.round((4 * n ** 3) / 3 + 44 * n ** 2 + (146 * n) / 3 + 45),
    source: 'Lee, Lee & Nigam, Table 1 (generalized d\'Alembert)',
  },
};

/** The kernels opcount.cpp measures, in its order, with the printed formulations each is compared with. */
export const KERNELS = [
  { name: 'fk', what: 'forwardKinematics (every link frame from q)', printed: [] },
  { name: 'rnea', what: 'inverseDynamics (RNEA), τ from q, q̇, q̈', printed: ['N-E', 'Algorithm 2'] },
  { name: 'bias', what: 'biasTorques (RNEA with q̈ = 0)', printed: [] },
  { name: 'crba', what: 'massMatrix (CRBA)', printed: [] },
  { name: 'crba+bias', what: 'τ = M q̈ + b: massMatrix, biasTorques, the product', printed: ['L-E (handbook)', 'L-E (Lee)'] },
  { name: 'leeTerms', what: 'leeTerms (G-D: D, h_tran, h_rot, c)', printed: [] },
  { name: 'leeInverseDynamics', what: 'leeInverseDynamics (G-D), τ = D q̈ + h + c', printed: ['G-D'] },
  { name: 'forwardDynamics', what: 'forwardDynamics (CRBA, bias, Cholesky)', printed: [] },
  { name: 'forwardDynamicsABA', what: 'forwardDynamicsABA (articulated body)', printed: [] },
];
export const ROBOTS = [
  { name: 'puma560', n: 6 },
  { name: 'puma560-3', n: 3 },
];

/** {mul, add, div, sqrt} of one execution of an instruction (AT&T syntax, as objdump prints it). */
export function classify(mnemonic, operands = '') {
  const m = mnemonic.replace(/^(rep|lock|notrack|bnd)\s+/, '');
  const zero = { mul: 0, add: 0, div: 0, sqrt: 0 };
  // x87: fmul, fmulp, fimul, fadd, faddp, fsub, fsubr(p), fdiv(r)(p), fsqrt
  if (/^fi?mulp?$/.test(m)) return { ...zero, mul: 1 };
  if (/^fi?(add|sub|subr)p?$/.test(m)) return { ...zero, add: 1 };
  if (/^fi?divr?p?$/.test(m)) return { ...zero, div: 1 };
  if (m === 'fsqrt') return { ...zero, sqrt: 1 };
  const sse = m.match(/^(v?)(fn?m(?:add|sub|addsub|subadd)(?:132|213|231)|addsub|hadd|hsub|mul|add|sub|div|sqrt)(s|p)(d|s)$/);
  if (!sse) return zero;
  const [, v, op, sp, ds] = sse;
  let lanes = 1;
  if (sp === 'p') {
    const bits = /%zmm/.test(operands) ? 512 : /%ymm/.test(operands) ? 256 : 128;
    lanes = bits / (ds === 'd' ? 64 : 32);
  }
  if (op.startsWith('f')) return { ...zero, mul: lanes, add: lanes };  // FMA: one multiply and one add per lane
  if (op === 'mul') return { ...zero, mul: lanes };
  if (op === 'div') return { ...zero, div: lanes };
  if (op === 'sqrt') return { ...zero, sqrt: lanes };
  // add, sub, addsub; hadd/hsub give `lanes` sums from 2·lanes inputs
  void v;
  return { ...zero, add: lanes };
}

const disassemblies = new Map();
/** address → {mnemonic, operands} of every instruction of an object file (objdump -d), cached. */
export function disassemble(file) {
  if (disassemblies.has(file)) return disassemblies.get(file);
  const text = execFileSync('objdump', ['-d', '-w', '--no-show-raw-insn', file], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const map = new Map();
  for (const line of text.split('\n')) {
    const m = line.match(/^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$/);
    if (m) map.set(parseInt(m[1], 16), { mnemonic: m[2], operands: m[3] });
  }
  disassemblies.set(file, map);
  return map;
}

/**
 * One callgrind profile (written with --dump-instr=yes --dump-line=no --compress-strings=no --compress-pos=no):
 * {label, self: [{ob, fn, addr, count}], calls: [{ob, fn, cob, cfn, calls}]}.
 */
export function parseProfile(text) {
  const out = { label: null, self: [], calls: [] };
  let ob = null, fn = null, cob = null, cfn = null, pendingCalls = null;
  for (const line of text.split('\n')) {
    let m;
    if ((m = line.match(/^desc: Trigger: Client Request: (.*)$/))) out.label = m[1].trim();
    else if ((m = line.match(/^positions:\s*(.*)$/))) {
      if (m[1].trim() !== 'instr') throw new Error(`callgrind profile: positions "${m[1]}", expected "instr" (--dump-instr=yes --dump-line=no)`);
    } else if ((m = line.match(/^events:\s*(.*)$/))) {
      if (m[1].trim().split(/\s+/)[0] !== 'Ir') throw new Error(`callgrind profile: events "${m[1]}", expected Ir first`);
    } else if ((m = line.match(/^ob=(.*)$/))) ob = m[1];
    else if ((m = line.match(/^fn=(.*)$/))) { fn = m[1]; cob = null; }
    else if ((m = line.match(/^cob=(.*)$/))) cob = m[1];
    else if ((m = line.match(/^cfn=(.*)$/))) cfn = m[1];
    else if ((m = line.match(/^calls=(\d+)/))) pendingCalls = Number(m[1]);
    else if ((m = line.match(/^(0x[0-9a-fA-F]+)\s+(\d+)/))) {
      if (pendingCalls !== null) {
        // the line after calls= is the call's inclusive cost at the call instruction: not this function's own
        out.calls.push({ ob, fn, cob: cob ?? ob, cfn, calls: pendingCalls });
        pendingCalls = null;
        cob = null;
      } else out.self.push({ ob, fn, addr: parseInt(m[1], 16), count: Number(m[2]) });
    } else if (/^[+*-]/.test(line)) throw new Error(`callgrind profile: compressed position "${line}" (use --compress-pos=no)`);
  }
  return out;
}

/**
 * The counts of one profile: {mul, add, div, sqrt, ir} for the executable's own code (the core, linked statically),
 * {mul, add, div, sqrt, ir} for what ran in shared libraries, and {name: calls} of the calls into libm.
 */
export function countProfile(profile, executable) {
  const zero = () => ({ mul: 0, add: 0, div: 0, sqrt: 0, ir: 0 });
  const own = zero(), shared = zero(), libmCalls = {};
  const unknown = [];
  for (const { ob, addr, count } of profile.self) {
    const insn = disassemble(ob).get(addr);
    if (!insn) {
      unknown.push(`${ob}:0x${addr.toString(16)}`);
      continue;
    }
    const c = classify(insn.mnemonic, insn.operands);
    const into = ob === executable ? own : shared;
    into.mul += c.mul * count;
    into.add += c.add * count;
    into.div += c.div * count;
    into.sqrt += c.sqrt * count;
    into.ir += count;
  }
  if (unknown.length) throw new Error(`callgrind addresses that are no instruction of their object: ${unknown.slice(0, 5).join(', ')}`);
  for (const { ob, cob, cfn, calls } of profile.calls)
    if (ob !== cob && /\/libm[.-]/.test(cob)) libmCalls[cfn] = (libmCalls[cfn] ?? 0) + calls;
  return { own, shared, libmCalls };
}

/** The compiler that built `buildDir` (its CMakeCache), else $CXX, else c++. */
function compilerOf(buildDir) {
  const cache = path.join(buildDir, 'CMakeCache.txt');
  if (existsSync(cache)) {
    const m = readFileSync(cache, 'utf8').match(/^CMAKE_CXX_COMPILER:[A-Z]*=(.+)$/m);
    if (m && m[1].trim()) return m[1].trim();
  }
  return process.env.CXX || 'c++';
}

/** Why a measurement cannot run here (null when it can): valgrind, objdump, the library. */
export function missing(buildDir = path.join(root, 'build/native')) {
  for (const tool of ['valgrind', 'objdump'])
    if (spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0) return `${tool} is not installed`;
  if (!existsSync('/usr/include/valgrind/callgrind.h')) return 'valgrind/callgrind.h is not installed';
  if (!existsSync(path.join(buildDir, 'core/libachain.a'))) return `${path.relative(root, buildDir)}/core/libachain.a is not built`;
  return null;
}

/**
 * Builds opcount.cpp against buildDir's libachain.a (copied first, so a build running beside does not change it
 * under the link), runs it under callgrind and counts every profile.
 * Returns {compiler, results: [{robot, n, kernel, own, shared, libmCalls}]}.
 */
export function measure({ buildDir = path.join(root, 'build/native'), robots = ROBOTS.map((r) => r.name) } = {}) {
  const why = missing(buildDir);
  if (why) throw new Error(`opcount: ${why}`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'achain-opcount-'));
  try {
    const lib = path.join(tmp, 'libachain.a');
    copyFileSync(path.join(buildDir, 'core/libachain.a'), lib);
    const exe = path.join(tmp, 'opcount');
    const cxx = compilerOf(buildDir);
    execFileSync(cxx, ['-std=c++17', '-O2', '-DNDEBUG', '-I', path.join(root, 'core/include'), '-isystem', '/usr/include/eigen3',
      path.join(root, 'bench/opcount/opcount.cpp'), lib, '-lpugixml', '-o', exe], { stdio: ['ignore', 'ignore', 'pipe'] });
    const run = spawnSync('valgrind', ['--tool=callgrind', '--instr-atstart=no', '--dump-instr=yes', '--dump-line=no',
      '--compress-strings=no', '--compress-pos=no', `--callgrind-out-file=${path.join(tmp, 'cg.out')}`, exe, ...robots],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (run.status !== 0) throw new Error(`opcount under valgrind: exit ${run.status}\n${run.stderr}`);
    const results = [];
    for (const f of readdirSync(tmp).filter((x) => /^cg\.out\.\d+$/.test(x))) {
      const profile = parseProfile(readFileSync(path.join(tmp, f), 'utf8'));
      if (!profile.label) continue;
      const [robot, kernel] = profile.label.split('/');
      const n = ROBOTS.find((r) => r.name === robot)?.n;
      results.push({ robot, n, kernel, ...countProfile(profile, exe) });
    }
    const order = (r) => ROBOTS.findIndex((x) => x.name === r.robot) * 100 + KERNELS.findIndex((k) => k.name === r.kernel);
    results.sort((a, b) => order(a) - order(b));
    if (results.length !== robots.length * KERNELS.length)
      throw new Error(`opcount: ${results.length} profiles, expected ${robots.length * KERNELS.length}\n${run.stderr}`);
    const version = execFileSync(cxx, ['--version'], { encoding: 'utf8' }).split('\n')[0];
    return { compiler: version, results };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The libm calls of a result as text: "6 __sincos_fma". */
export const callsText = (libmCalls) =>
  Object.entries(libmCalls).map(([k, v]) => `${v} ${k}`).join(', ') || '–';

/** The comparison table, Markdown: one row per robot × kernel, the printed counts beside. */
export function table({ compiler, results }) {
  const lines = [
    `Measured with callgrind, ${compiler}; the core as built in build/native (Release, -O3).`,
    '',
    '| kernel | n | mul | add | div | sqrt | mul/n | add/n | libm calls (their mul/add) | printed mul / add |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const k = KERNELS.find((x) => x.name === r.kernel);
    const printed = k.printed.map((p) => `${p}: ${PRINTED[p].mul(r.n)} / ${PRINTED[p].add(r.n)}`).join('; ') || '–';
    const libm = Object.keys(r.libmCalls).length ? `${callsText(r.libmCalls)} (${r.shared.mul}/${r.shared.add})` : '–';
    lines.push(`| ${k.what} | ${r.n} | ${r.own.mul} | ${r.own.add} | ${r.own.div} | ${r.own.sqrt} | ${(r.own.mul / r.n).toFixed(1)} | ` +
      `${(r.own.add / r.n).toFixed(1)} | ${libm} | ${printed} |`);
  }
  return lines.join('\n');
}
