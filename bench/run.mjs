// npm run bench: runs the native Google Benchmark binary and the wasm benchmarks in one go,
// prints one table with ratios against achain native, and writes docs/benchmarks.md.
// Case names are "Operation/robot/implementation"; rows group by the first two parts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadAchain } from '../wasm/achain.mjs';
import { floorNs, opCount } from './opcount.mjs';
import { chartSvg } from './chart.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const minTime = Number(process.env.BENCH_MIN_TIME ?? 0.3);
const filter = process.env.BENCH_FILTER ?? '';
// Each case is timed BENCH_REPS times (minTime / reps seconds each) and the fastest repetition is kept,
// natively and in wasm alike: on a shared machine the minimum is the least disturbed measurement.
const reps = Math.max(1, Math.round(Number(process.env.BENCH_REPS ?? 3)));
// BENCH_CLOCK=cpu times CPU time instead of wall time (native: Google Benchmark's cpu_time of the timing
// thread; wasm: process.cpuUsage). On a loaded shared machine it leaves out the time spent waiting for a core;
// use it for single-threaded ratios (the multithreaded workspace rows need wall time).
const cpuClock = process.env.BENCH_CLOCK === 'cpu';
const now = cpuClock ? () => { const u = process.cpuUsage(); return (u.user + u.system) * 1e3; } : () => Number(process.hrtime.bigint());

const nativeExe = path.join(root, process.env.ACHAIN_BENCH_EXE ?? 'build/bench/achain_bench');  // scripts/bench.sh builds it (g++ -O3)

/** The native case names (those BENCH_FILTER selects), or [] without the native binary. */
function nativeNames() {
  if (!fs.existsSync(nativeExe)) { console.warn('bench: no native benchmark binary (libbenchmark-dev missing?)'); return []; }
  const args = ['--benchmark_list_tests=true'];
  if (filter) args.push(`--benchmark_filter=${filter}`);
  return execFileSync(nativeExe, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).split('\n').filter(Boolean);
}

/** Runs the native cases the regex `only` selects (Google Benchmark's filter); returns their rows. */
function nativeRows(only) {
  // (each case warmed up first: a group is the first thing its process times, on a core that may have been idle)
  const args = ['--benchmark_format=json', `--benchmark_min_time=${minTime / reps}`, `--benchmark_repetitions=${reps}`,
    '--benchmark_min_warmup_time=0.05', `--benchmark_filter=${only}`];
  const out = execFileSync(nativeExe, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  if (!out.trim()) return [];  // the filter matched no native case
  const scale = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
  const best = new Map();  // name → fastest repetition
  // Google Benchmark writes NaN / inf for a counter's aggregates over repetitions (the coefficient of variation
  // of a counter that is 0 in every repetition, e.g. the workspace's `pruned`): not JSON, so read them as null
  const json = out.replace(/(:\s*)-?(nan|NaN|inf|Infinity)\b/g, '$1null');
  for (const b of JSON.parse(json).benchmarks) {
    if (b.run_type === 'aggregate' || b.error_occurred) continue;
    const row = { name: b.name, ns: (cpuClock ? b.cpu_time : b.real_time) * scale[b.time_unit], extra: counters(b) };
    if (!best.has(b.name) || row.ns < best.get(b.name).ns) best.set(b.name, row);
  }
  return [...best.values()];
}

function counters(b) {
  const skip = new Set(['name', 'family_index', 'per_family_instance_index', 'run_name', 'run_type', 'repetitions',
    'repetition_index', 'threads', 'iterations', 'real_time', 'cpu_time', 'time_unit', 'label']);
  const c = {};
  for (const [k, v] of Object.entries(b)) if (!skip.has(k) && typeof v === 'number') c[k] = v;
  if (b.label) c.label = b.label;
  return c;
}

/** Times fn() in `reps` repetitions of seconds / reps each; returns ns per call of the fastest one. */
export function timeIt(fn, seconds = minTime) {
  for (let i = 0; i < 50; i++) fn();   // warm up the JIT
  const budget = (seconds / reps) * 1e9;
  let best = Infinity, n = 1;
  for (let r = 0; r < reps; r++) {
    let elapsed = 0;
    for (;;) {
      const t0 = now();
      for (let i = 0; i < n; i++) fn();
      elapsed = now() - t0;
      if (elapsed > budget || n > 1e9) break;
      n = Math.max(n * 2, Math.ceil(n * (budget * 1.2) / Math.max(elapsed, 1)));
    }
    best = Math.min(best, elapsed / n);
  }
  return best;
}

/** Every wasm case of bench/wasm/*.bench.mjs (none is timed yet: timeWasmCase does that, group by group). */
async function wasmCases(achain) {
  const dir = path.join(root, 'bench/wasm');
  const all = [];
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.bench.mjs')).sort()) {
    const mod = await import(pathToFileURL(path.join(dir, f)).href);
    all.push(...await mod.cases(achain, { timeIt }));
  }
  return all;  // (the ones BENCH_FILTER leaves out are kept too: a model's last case, selected or not, disposes of it)
}

/** A case times fn with timeIt (per: evaluations per call), or measures itself (measure() → {ns, extra}). */
function timeWasmCase(c) {
  c.setup?.();
  if (c.measure) {
    const { ns, extra } = c.measure();
    return { name: c.name, ns, extra: extra ?? {} };
  }
  return { name: c.name, ns: timeIt(c.fn) / (c.per ?? 1), extra: c.extra ?? {} };
}

const groupOf = (name) => name.split('/').slice(0, 2).join('/');
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One pass: group by group ("RNEA/puma560", "Workspace/prototype-4a@3.175mm", …, in the native binary's order),
 * the native cases of the group, then its wasm cases. A group's native and wasm rows are thus timed seconds
 * apart, not minutes: a slow spell of a shared machine hits both or neither, and the ratios hold.
 */
async function pass(achain, spent) {
  const only = filter ? new RegExp(filter) : null;
  const selected = (name) => !only || only.test(name);
  const names = nativeNames();
  const all = await wasmCases(achain);
  const cases = all.filter((c) => selected(c.name));
  const groups = [];
  for (const n of [...names, ...cases.map((c) => c.name)]) if (!groups.includes(groupOf(n))) groups.push(groupOf(n));
  const rows = [];
  for (const g of groups) {
    const t0 = Date.now();
    const native = names.filter((n) => groupOf(n) === g);  // (names holds only what BENCH_FILTER selects)
    if (native.length) rows.push(...nativeRows(`^(${native.map(escapeRegex).join('|')})$`));
    for (const c of cases.filter((c) => groupOf(c.name) === g)) rows.push(timeWasmCase(c));
    spent.set(g, (spent.get(g) ?? 0) + (Date.now() - t0) / 1000);
  }
  for (const c of all) c.dispose?.();  // after every group: a model's last case disposes of it
  return rows;
}

function fmt(ns) {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(3)} s`;
}

function table(rows) {
  const groups = new Map();
  for (const r of rows) {
    const parts = r.name.split('/');
    const key = parts.slice(0, 2).join(' / ');
    const impl = parts.slice(2).join('/') || 'achain';
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({ impl, ...r });
  }
  const lines = ['| operation / robot | implementation | time | × achain native | notes |', '|---|---|---|---|---|'];
  for (const [key, list] of groups) {
    const ref = list.find((r) => r.impl === 'achain');
    for (const r of list) {
      const ratio = ref ? (r.ns / ref.ns).toFixed(2) : '';
      const notes = Object.entries(r.extra).map(([k, v]) => `${k}=${typeof v === 'number' ? +v.toPrecision(4) : v}`).join(', ');
      lines.push(`| ${key} | ${r.impl} | ${fmt(r.ns)} | ${ratio} | ${notes} |`);
    }
  }
  return lines.join('\n');
}

/**
 * One "floor (op count)" row per kernel and robot that has a native row: the operation count of
 * bench/opcount.mjs and its arithmetic floor at this CPU's clock.
 */
async function floorRows(rows) {
  const achain = await loadAchain();
  // The clock: /proc/cpuinfo's "cpu MHz" where there is one (os.cpus() reports the nominal speed, often rounded).
  let mhz = os.cpus()[0]?.speed || 2000;
  try { mhz = Number(/cpu MHz\s*:\s*([\d.]+)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))[1]) || mhz; } catch { /* not Linux */ }
  const ghz = mhz / 1000;
  const out = [];
  const seen = new Set();
  for (const r of rows) {
    const [op, robot] = r.name.split('/');
    const key = `${op}/${robot}`;
    if (seen.has(key) || r.name !== `${key}/achain`) continue;
    seen.add(key);
    let joints;
    try { const m = achain.loadModel(robot); joints = m.joints; m.dispose(); } catch { continue; }
    const c = opCount(op, joints);
    if (!c) continue;
    out.push({ name: `${key}/floor (op count)`, ns: floorNs(c, ghz), extra: { ...c, GHz: +ghz.toFixed(2) } });
  }
  return out;
}

// BENCH_PASSES passes (see pass()), and the fastest time of each row over all passes is kept.
const passes = Math.max(1, Math.round(Number(process.env.BENCH_PASSES ?? 2)));
const fastest = new Map();
const spent = new Map();  // group → seconds over all passes (where the run's time goes)
const passStart = Date.now();
const achainModule = await loadAchain();
for (let p = 1; p <= passes; p++) {
  process.stderr.write(`bench: pass ${p} of ${passes} …\n`);
  for (const r of await pass(achainModule, spent)) {
    const seen = fastest.get(r.name);
    if (!seen || r.ns < seen.ns) fastest.set(r.name, r);
  }
}
const top = [...spent].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${v.toFixed(0)} s`);
process.stderr.write(`bench: ${passes} passes took ${((Date.now() - passStart) / 1000).toFixed(0)} s; longest groups: ${top.join(', ')}\n`);
const measured = [...fastest.values()];
const rows = [...(await floorRows(measured)), ...measured];
const md = table(rows);
console.log(md);

let commit = 'unknown';
try { commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim(); } catch { /* not a checkout */ }
let dirty = '';
try { dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() ? ' (with uncommitted changes)' : ''; } catch { /* ignore */ }
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const generated = `Measured by \`npm run bench\` on commit \`${commit}\`${dirty}, ${new Date().toISOString().slice(0, 10)},
${cpu}, ${os.cpus().length} cores, Node ${process.version}. Native: Google Benchmark, Release build (g++ -O3).
Wasm: the same core through Emscripten 3.1.6 (flags in CMakeLists.txt), timed from Node. Plain \`achain-wasm\` rows go through the
JS wrapper (input copy, Embind call, result copied into a new Float64Array from the result pool); \`(out)\` rows write into a caller's array;
\`(raw call)\` rows call the Embind function on inputs already in wasm memory (no JS wrapper); \`(in-wasm loop)\` rows
run 256 evaluations inside one call and report the time per evaluation (the compiled code alone: RNEA's loop makes single calls; those of FK, Jacobian, CRBA and forward dynamics run the SIMD128 batch kernels).
Peers run in the same process run, on the same inputs; ratios are against achain native in that run.
Each time is the fastest of ${reps} repetitions in each of ${passes} passes (native and wasm alike; a pass times each group's native rows and then its wasm rows, group by group), ${cpuClock ? 'CPU time (BENCH_CLOCK=cpu)' : 'wall time'}. Timings on a shared 2-core machine are noisy:
compare ratios, not absolute numbers. \`floor (op count)\` rows: multiplies, adds, trig calls (bench/opcount.mjs,
counted per joint from the code) and the arithmetic floor max(mul, add) / 2 cycles at the CPU clock.

![Per kernel: time relative to achain native (same run)](benchmarks-chart.svg)

${md}

Regenerate with \`npm run bench\` (environment: \`BENCH_MIN_TIME\` seconds per case, \`BENCH_REPS\` repetitions, \`BENCH_PASSES\` alternating native/wasm passes, \`BENCH_FILTER\` regex, \`BENCH_CLOCK=cpu\` for CPU time).
`;
const BEGIN = '<!-- bench:generated:begin (bench/run.mjs rewrites this part) -->';
const END = '<!-- bench:generated:end -->';
if (!filter) {
  const docPath = path.join(root, 'docs/benchmarks.md');
  const old = fs.readFileSync(docPath, 'utf8');
  const a = old.indexOf(BEGIN), b = old.indexOf(END);
  if (a < 0 || b < a) throw new Error(`bench: ${docPath} lacks the ${BEGIN} … ${END} markers`);
  fs.writeFileSync(docPath, `${old.slice(0, a + BEGIN.length)}\n${generated}${old.slice(b)}`);
  fs.writeFileSync(path.join(root, 'docs/benchmarks-chart.svg'), chartSvg(rows, { commit, date: new Date().toISOString().slice(0, 10) }));
  process.stderr.write('bench: wrote docs/benchmarks.md (generated part) and docs/benchmarks-chart.svg\n');
}

