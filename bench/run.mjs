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

function nativeRows() {
  const exe = path.join(root, 'build/native/achain_bench');
  if (!fs.existsSync(exe)) { console.warn('bench: no native benchmark binary (libbenchmark-dev missing?)'); return []; }
  const args = ['--benchmark_format=json', `--benchmark_min_time=${minTime / reps}`, `--benchmark_repetitions=${reps}`];
  if (filter) args.push(`--benchmark_filter=${filter}`);
  process.stderr.write('bench: native …\n');
  const t0 = Date.now();
  const out = execFileSync(exe, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  process.stderr.write(`bench: native took ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  if (!out.trim()) return [];  // the filter matched no native case
  const scale = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
  const best = new Map();  // name → fastest repetition
  const spent = new Map();  // name → seconds timed over all repetitions (where the run's time goes)
  // Google Benchmark writes NaN / inf for a counter's aggregates over repetitions (the coefficient of variation
  // of a counter that is 0 in every repetition, e.g. the workspace's `pruned`): not JSON, so read them as null
  const json = out.replace(/(:\s*)-?(nan|NaN|inf|Infinity)\b/g, '$1null');
  for (const b of JSON.parse(json).benchmarks) {
    if (b.run_type === 'aggregate' || b.error_occurred) continue;
    spent.set(b.name, (spent.get(b.name) ?? 0) + (b.iterations * b.real_time * scale[b.time_unit]) / 1e9);
    const row = { name: b.name, ns: (cpuClock ? b.cpu_time : b.real_time) * scale[b.time_unit], extra: counters(b) };
    if (!best.has(b.name) || row.ns < best.get(b.name).ns) best.set(b.name, row);
  }
  const top = [...spent].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${v.toFixed(1)} s`);
  process.stderr.write(`bench: longest native cases: ${top.join(', ')}\n`);
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

async function wasmRows() {
  const dir = path.join(root, 'bench/wasm');
  const achain = await loadAchain();
  const rows = [];
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.bench.mjs')).sort()) {
    const mod = await import(pathToFileURL(path.join(dir, f)).href);
    process.stderr.write(`bench: wasm ${f} …\n`);
    const t0 = Date.now();
    for (const c of await mod.cases(achain, { timeIt })) {
      if (filter && !new RegExp(filter).test(c.name)) continue;
      c.setup?.();
      const ns = c.ns ?? timeIt(c.fn) / (c.per ?? 1);
      rows.push({ name: c.name, ns, extra: c.extra ?? {} });
      c.dispose?.();
    }
    process.stderr.write(`bench: wasm ${f} took ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }
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

// BENCH_PASSES passes, each running the native binary and then the wasm files, and the fastest time of each
// row over all passes is kept. A native and a wasm phase of one pass run minutes apart; on a shared machine
// one of them can fall into a slow spell, and alternating the phases lets each row find a quiet one.
const passes = Math.max(1, Math.round(Number(process.env.BENCH_PASSES ?? 2)));
const fastest = new Map();
const passStart = Date.now();
for (let p = 1; p <= passes; p++) {
  process.stderr.write(`bench: pass ${p} of ${passes}\n`);
  for (const r of [...nativeRows(), ...(await wasmRows())]) {
    const seen = fastest.get(r.name);
    if (!seen || r.ns < seen.ns) fastest.set(r.name, r);
  }
}
process.stderr.write(`bench: ${passes} passes took ${((Date.now() - passStart) / 1000).toFixed(0)} s\n`);
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
run 256 evaluations inside one call and report the time per evaluation (the compiled code alone).
Peers run in the same process run, on the same inputs; ratios are against achain native in that run.
Each time is the fastest of ${reps} repetitions in each of ${passes} passes (native and wasm alike; a pass runs the native binary, then the wasm files), ${cpuClock ? 'CPU time (BENCH_CLOCK=cpu)' : 'wall time'}. Timings on a shared 2-core machine are noisy:
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

