// npm packaging (issue 7: "`npm pack` produces a package that another page can import").
// Runs `npm pack` into a temp directory, extracts the tarball and uses ONLY the extracted files:
//  (a) Node: a consumer project with node_modules/achain → the packed package; `import('achain')`
//      resolves through package.json "exports" and runs FK on prototype-4a;
//  (b) headless Chromium: a minimal static page that imports the packed wasm/achain.mjs as an ES module
//      and runs FK, and starts the packed workspace worker (the "./workspace.worker" export).
// If this test fails because a file is missing from the tarball, the fix is in package.json "files" /
// "exports" (lead-owned): every module that wasm/achain.mjs imports, wasm/dist/achain_wasm.{mjs,wasm}
// and the .d.ts files must be listed there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repo, serveDist, launch, openPage } from './helpers.mjs';

const DEG = Math.PI / 180;
const INCH = 0.0254;
let tmp;
let pkgDir;
let tarball;
let packed; // npm pack --json's file list

before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'achain-pack-'));
  const out = execFileSync('npm', ['pack', '--pack-destination', tmp, '--json'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const info = JSON.parse(out.slice(out.indexOf('[')))[0];
  packed = info.files.map((f) => f.path);
  tarball = path.join(tmp, info.filename);
  // consumer project: node_modules/achain is the extracted tarball ("package/" inside)
  const nm = path.join(tmp, 'consumer', 'node_modules');
  fs.mkdirSync(nm, { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', nm]);
  pkgDir = path.join(nm, 'achain');
  fs.renameSync(path.join(nm, 'package'), pkgDir);
});
after(() => { if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

test('npm pack: the tarball holds the entry, its imports, the wasm binary and the type declarations', () => {
  const pj = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const entry = pj.exports?.['.']?.default ?? pj.main;
  assert.ok(entry, 'package.json names an entry ("exports"["."] or "main")');
  const need = [entry, pj.types ?? pj.exports?.['.']?.types, 'wasm/dist/achain_wasm.mjs', 'wasm/dist/achain_wasm.wasm'];
  // every relative import of the entry (one level: the per-area modules) must be packed
  const src = fs.readFileSync(path.join(repo, entry), 'utf8');
  for (const m of src.matchAll(/from\s+'(\.[^']+)'/g)) need.push(path.posix.join(path.posix.dirname(entry.replace(/^\.\//, '')), m[1]));
  for (const [name, target] of Object.entries(pj.exports ?? {})) {
    const t = typeof target === 'string' ? target : target.default;
    need.push(t);
    assert.ok(fs.existsSync(path.join(pkgDir, t)), `export "${name}" → ${t} is in the tarball`);
  }
  const missing = need.filter(Boolean).map((f) => f.replace(/^\.\//, '')).filter((f) => !packed.includes(f));
  assert.deepEqual(missing, [], `missing from package.json "files": ${missing.join(', ')}`);
  // the type declarations import the per-area declarations: those must be packed too
  const dts = fs.readFileSync(path.join(pkgDir, 'wasm/achain.d.ts'), 'utf8');
  for (const m of dts.matchAll(/from\s+'(\.[^']+)'/g)) {
    const f = `${path.posix.join('wasm', m[1])}.d.ts`;
    assert.ok(packed.includes(f), `${f} (imported by achain.d.ts) is packed`);
  }
  // nothing of the studio's build or of the native tree leaks into the package
  assert.deepEqual(packed.filter((f) => /^(web|build|core|cli|tests|firmware-bridge)\//.test(f)), []);
});

test('npm pack (Node): another project imports "achain" and runs FK on prototype-4a', () => {
  const consumer = path.join(tmp, 'consumer');
  fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
  fs.writeFileSync(path.join(consumer, 'fk.mjs'), `
    import { loadAchain } from 'achain';
    const achain = await loadAchain();
    const m = achain.loadModel('prototype-4a');
    const d = Math.PI / 180;
    const home = m.forwardKinematics([180 * d, 180 * d, 180 * d, 180 * d]).tool;
    const other = m.forwardKinematics([150 * d, 120 * d, 200 * d, 100 * d]).tool;
    process.stdout.write(JSON.stringify({ resolved: import.meta.resolve('achain'), worker: import.meta.resolve('achain/workspace.worker'),
      version: achain.version, home: Array.from(home), other: Array.from(other) }));
  `);
  const out = JSON.parse(execFileSync(process.execPath, ['fk.mjs'], { cwd: consumer, encoding: 'utf8' }));
  assert.ok(out.resolved.startsWith(pathToFileURL(pkgDir).href), `resolved from the packed package: ${out.resolved}`);
  assert.equal(out.worker, pathToFileURL(path.join(pkgDir, 'wasm/js/workspace.worker.mjs')).href, 'the "./workspace.worker" export');
  // the thesis's home pose (robinson-apairs.md §6.1): p = (0, 0, 38.657 in), R = diag(−1, −1, 1)
  const T = out.home;
  assert.ok(Math.abs(T[3]) < 1e-12 && Math.abs(T[7]) < 1e-12, 'home x, y = 0');
  assert.ok(Math.abs(T[11] / INCH - 38.657) < 1e-3, `home z = ${T[11] / INCH} in`);
  assert.deepEqual([T[0], T[5], T[10]].map((v) => Math.round(v)), [-1, -1, 1]);
  return import(pathToFileURL(path.join(repo, 'wasm', 'achain.mjs')).href).then(async ({ loadAchain }) => {
    const a = await loadAchain();
    const m = a.loadModel('prototype-4a');
    const mine = m.forwardKinematics([150 * DEG, 120 * DEG, 200 * DEG, 100 * DEG]).tool;
    m.dispose();
    let worst = 0;
    for (let i = 0; i < 16; i++) worst = Math.max(worst, Math.abs(mine[i] - out.other[i]));
    assert.ok(worst <= 1e-12, `packed vs repository module: ${worst}`);
    assert.equal(out.version, a.version);
  });
});

test('npm pack (browser): a minimal static page imports the packed wasm/achain.mjs and runs FK', async () => {
  const site = path.join(tmp, 'site');
  fs.mkdirSync(site, { recursive: true });
  fs.cpSync(pkgDir, path.join(site, 'achain'), { recursive: true });
  fs.writeFileSync(path.join(site, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>pack consumer</title>
<pre id="out">…</pre>
<script type="module">
  import { loadAchain } from './achain/wasm/achain.mjs';
  try {
    const achain = await loadAchain();
    const m = achain.loadModel('prototype-4a');
    const d = Math.PI / 180;
    const T = m.forwardKinematics([180 * d, 180 * d, 180 * d, 180 * d]).tool;
    // the packed workspace worker (package.json "exports": "./workspace.worker")
    const w = new Worker(new URL('./achain/wasm/js/workspace.worker.mjs', import.meta.url), { type: 'module' });
    const ws = await new Promise((resolve, reject) => {
      w.onmessage = (e) => { if (e.data.type === 'result') resolve(e.data.summary); else if (e.data.type === 'error') reject(new Error(e.data.message)); };
      w.onerror = (e) => reject(new Error(e.message));
      w.postMessage({ type: 'start', id: 1, model: 'planar-2r', options: { voxel: 0.05 }, output: 'none' });
    });
    w.terminate();
    window.result = { tool: Array.from(T), builtins: achain.builtinRobots().map((b) => b.name), voxels: ws.voxels };
  } catch (e) { window.result = { error: String(e.message ?? e) }; }
  document.getElementById('out').textContent = JSON.stringify(window.result);
</script>`);
  const srv = await serveDist(site);
  const browser = await launch();
  try {
    const { page, errors, context } = await openPage(browser, srv.url);
    await page.waitForFunction(() => window.result, null, { timeout: 30000 });
    const r = await page.evaluate(() => window.result);
    assert.equal(r.error, undefined, r.error);
    assert.ok(r.builtins.includes('prototype-4a'));
    assert.ok(Math.abs(r.tool[11] / INCH - 38.657) < 1e-3, `home z = ${r.tool[11] / INCH} in`);
    assert.ok(Math.abs(r.tool[3]) < 1e-12 && Math.abs(r.tool[7]) < 1e-12);
    assert.ok(r.voxels > 0, `the packed workspace worker computed ${r.voxels} voxels`);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await srv.close();
  }
});
