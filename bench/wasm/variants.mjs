// Flag experiments: times the in-wasm-loop rows (the compiled code alone) of several builds of the
// module in one Node process, interleaved (round after round over every build), keeping the fastest
// window per row, so machine load hits every build alike. Builds: wasm/dist ("dist") and any
// build/wasm-NAME/dist made by scripts/wasm-variant.sh.
//   node bench/wasm/variants.mjs [NAME …]          (default: every build/wasm-*/dist present)
//   BENCH_ROUNDS=30 (rounds), BENCH_WINDOW=0.02 (seconds per row per round)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Achain } from '../../wasm/achain.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const window = Number(process.env.BENCH_WINDOW ?? 0.02) * 1e9;
const cpuNs = () => { const u = process.cpuUsage(); return (u.user + u.system) * 1e3; };

async function load(dist) {
  const { default: create } = await import(pathToFileURL(path.join(dist, 'achain_wasm.mjs')).href);
  const wasmBinary = fs.readFileSync(path.join(dist, 'achain_wasm.wasm'));
  return new Achain(await create({ wasmBinary, print: () => {}, printErr: () => {} }));
}

const names = process.argv.slice(2);
const builds = [{ name: 'dist', dist: path.join(root, 'wasm/dist') }];
const variantDirs = fs.readdirSync(path.join(root, 'build')).filter((d) => d.startsWith('wasm-'))
  .map((d) => ({ name: d.slice(5), dist: path.join(root, 'build', d, 'dist') }))
  .filter((b) => fs.existsSync(path.join(b.dist, 'achain_wasm.wasm')) && (!names.length || names.includes(b.name)));
builds.push(...variantDirs);

const files = ['fk.bench.mjs', 'kinematics.bench.mjs', 'dynamics.bench.mjs'];
const rows = [];  // {build, name, fn, per, best}
for (const b of builds) {
  const achain = await load(b.dist);
  b.size = fs.statSync(path.join(b.dist, 'achain_wasm.wasm')).size;
  for (const f of files) {
    const mod = await import(pathToFileURL(path.join(root, 'bench/wasm', f)).href);
    for (const c of await mod.cases(achain)) {
      if (!c.name.endsWith('(in-wasm loop)')) continue;
      // Each row gets its own setup before it runs (the cases share their model's input buffer).
      rows.push({ build: b.name, name: c.name.replace(/\/achain-wasm \(in-wasm loop\)$/, ''), c, best: Infinity });
    }
  }
}
for (let r = 0; r < rounds; r++) {
  for (const row of rows) {
    row.c.setup?.();
    const { fn } = row.c;
    for (let i = 0; i < 3; i++) fn();
    // CPU time of this process (process.cpuUsage), not wall time: on a shared machine the time spent
    // waiting for a core is not counted, so builds compare fairly under load.
    let n = 0;
    const t0 = cpuNs();
    let dt = 0;
    do { fn(); n++; dt = cpuNs() - t0; } while (dt < window);
    row.best = Math.min(row.best, dt / n / (row.c.per ?? 1));
  }
}
const ops = [...new Set(rows.map((r) => r.name))];
console.log(`| build | ${ops.join(' | ')} | module |`);
console.log(`|---|${ops.map(() => '---|').join('')}---|`);
for (const b of builds) {
  const cells = ops.map((op) => {
    const row = rows.find((r) => r.build === b.name && r.name === op);
    const base = rows.find((r) => r.build === 'dist' && r.name === op);
    return row ? `${row.best.toFixed(0)} (${(row.best / base.best).toFixed(2)})` : '';
  });
  console.log(`| ${b.name} | ${cells.join(' | ')} | ${(b.size / 1024).toFixed(0)} kB |`);
}
