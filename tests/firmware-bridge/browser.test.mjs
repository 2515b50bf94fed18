// Browser e2e (headless Debian chromium via playwright-core): the real Controller panel, bundled
// by Vite from a fixture page, connects to the virtual controller (firmware + simulated prototype
// in a Worker), streams the thesis trapezoid, teleoperates, and e-stops on the space bar.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

async function bundle() {
  const { build } = await import('vite');
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'achain-ctl-page-'));
  await build({ root: path.join(here, 'browser'), base: './', logLevel: 'silent', configFile: false,
    build: { outDir, emptyOutDir: true, target: 'es2022' }, worker: { format: 'es' },
    server: { fs: { allow: [repo] } } });
  return outDir;
}

function serve(root) {
  const mime = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(root, p.endsWith('/') ? `${p}index.html` : p);
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': mime[path.extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, server })));
}

test('browser: the panel streams the trapezoid to the virtual controller; the measured plot follows', { timeout: 120000 }, async (t) => {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    assert.fail('playwright-core is not installed (npm test installs it)');
  }
  if (!fs.existsSync(process.env.CHROMIUM ?? '/usr/bin/chromium')) {
    assert.fail('no chromium (npm test installs Debian chromium)');
  }
  const outDir = await bundle();
  const { url, server } = await serve(outDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(url);
    await page.click('[data-testid=ctl-connect]');
    await page.waitForFunction(() => document.querySelector('[data-testid=ctl-message]').textContent.startsWith('Connected'), null, { timeout: 20000 });
    assert.ok(await page.isVisible('[data-testid=ctl-estop]'), 'the e-stop floats over the page while connected');
    await page.click('[data-testid=ctl-demo]');
    await page.click('[data-testid=ctl-send]');
    await page.waitForFunction(() => /done|fault|refus/.test(document.querySelector('[data-testid=ctl-send-message]').textContent), null, { timeout: 30000 });
    const msg = await page.textContent('[data-testid=ctl-send-message]');
    const m = /max ([\d.]+)°/.exec(msg);
    assert.ok(m, msg);
    assert.ok(Number(m[1]) < 0.1, `final error ${m[1]}° (${msg})`);
    // the plot holds commanded and measured series that agree
    const agree = await page.evaluate(() => {
      const s = window.__panel.streamer.status;
      return s.q.map((q, j) => Math.abs(q - s.qCmd[j]));
    });
    assert.ok(Math.max(...agree) < 0.01, `measured vs commanded ${agree}`);
    assert.ok(await page.$('[data-testid=ctl-plot] canvas'), 'uPlot canvas');
    // teleoperation: the "gizmo" moves, the controller follows
    await page.check('[data-testid=ctl-teleop]');
    await page.evaluate(async () => {
      const D = Math.PI / 180;
      for (let i = 0; i <= 50; i++) {
        window.__ctx.drag([300 - i, 300 - i, 300 - i, 300 - i].map((x) => x * D));
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    await page.waitForFunction(() => {
      const s = window.__panel.streamer.status;
      return s.q.every((q) => Math.abs(q * 180 / Math.PI - 250) < 0.5);
    }, null, { timeout: 10000 });
    // e-stop on the space bar
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid=ctl-state]').textContent.includes('E-STOP ENGAGED'), null, { timeout: 5000 });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
});
