// Browser-test helpers: a tiny static server for web/dist, headless Debian chromium via
// playwright-core, console-error collection, pixel sampling and screenshots.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = path.join(repo, 'web', 'dist');
export const artifacts = path.join(repo, 'test-results', 'web');

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.md': 'text/markdown',
};

/** Serves web/dist on a free 127.0.0.1 port. Resolves to {url, close()}. */
export function serveDist(root = dist) {
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`${root}/index.html missing: run "npx vite build --config web/vite.config.mjs" first`);
  }
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.endsWith('/')) p += 'index.html';
    const file = path.normalize(path.join(root, p));
    if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }) });
    });
  });
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run', '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/**
 * Opens a page and records console errors / page errors / failed requests.
 * @returns {Promise<{page, errors: string[]}>}
 */
export async function openPage(browser, url, { width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, context };
}

/** Waits until the studio reports ready (window.__achain.ready). */
export async function waitReady(page, timeout = 30000) {
  await page.waitForFunction(() => window.__achain && window.__achain.ready && window.__achain.frames > 1, null, { timeout });
}

export async function screenshot(page, name, opts = {}) {
  fs.mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, `${name}.png`);
  const buf = await (opts.locator ? opts.locator.screenshot({ path: file }) : page.screenshot({ path: file }));
  return buf;
}

/**
 * Samples the canvas pixels inside the page: {distinct, nonBackground, total} on a grid.
 * Works because the studio renders with preserveDrawingBuffer.
 */
export async function canvasStats(page, selector = 'canvas') {
  return page.evaluate((sel) => {
    // "host >>> canvas" looks inside the shadow root of the first element matching host
    const [host, inner] = sel.split('>>>').map((x) => x && x.trim());
    const c = inner ? document.querySelector(host)?.shadowRoot?.querySelector(inner) : document.querySelector(sel);
    if (!c) return null;
    const w = c.width; const h = c.height;
    const tmp = document.createElement('canvas');
    tmp.width = w; tmp.height = h;
    const g = tmp.getContext('2d');
    g.drawImage(c, 0, 0);
    const data = g.getImageData(0, 0, w, h).data;
    const bg = [data[0], data[1], data[2]];
    const colours = new Set();
    let non = 0; let total = 0;
    for (let y = 0; y < h; y += 4) {
      for (let x = 0; x < w; x += 4) {
        const i = 4 * (y * w + x);
        const r = data[i]; const gg = data[i + 1]; const b = data[i + 2];
        total++;
        if (Math.abs(r - bg[0]) + Math.abs(gg - bg[1]) + Math.abs(b - bg[2]) > 30) non++;
        colours.add((r >> 3) << 10 | (gg >> 3) << 5 | (b >> 3));
      }
    }
    return { width: w, height: h, distinct: colours.size, nonBackground: non, total };
  }, selector);
}

/** Fraction of differing pixels between two PNG buffers of the same page area, computed in the browser. */
export async function imageDiff(page, pngA, pngB) {
  return page.evaluate(async ([a, b]) => {
    const load = async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width; c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      return g.getImageData(0, 0, c.width, c.height);
    };
    const A = await load(a); const B = await load(b);
    if (A.width !== B.width || A.height !== B.height) return 1;
    let diff = 0;
    for (let i = 0; i < A.data.length; i += 4) {
      if (Math.abs(A.data[i] - B.data[i]) + Math.abs(A.data[i + 1] - B.data[i + 1]) + Math.abs(A.data[i + 2] - B.data[i + 2]) > 24) diff++;
    }
    return diff / (A.width * A.height);
  }, [pngA.toString('base64'), pngB.toString('base64')]);
}

/** Screen point on the gizmo's z arrow of the tool (found by hovering: TransformControls names the axis). */
export async function zArrow(page) {
  const tool = await page.evaluate(() => window.__achain.tool);
  for (const h of [0.06, 0.09, 0.12, 0.15, 0.04, 0.18, 0.22]) {
    const p = await page.evaluate(([x, y, z]) => window.__achain.screenOf(x, y, z), [tool[3], tool[7], tool[11] + h]);
    await page.mouse.move(p.x, p.y);
    await page.waitForTimeout(30);
    if (await page.evaluate(() => window.__achain.views.teleop.gizmo.axis) === 'Z') return p;
  }
  throw new Error('the gizmo z arrow was not found above the tool');
}

/**
 * Motion → Plan & plot with the defaults (optionally swapped, optionally with a duration in s), Controller → Connect
 * (virtual) → Planned.
 */
export async function planAndConnect(page, { reverse = false, duration = null } = {}) {
  await page.click('#tabs button[data-view="motion"]');
  const M = '.view-panel[data-view="motion"]';
  if (duration) await page.fill(`${M} .m-duration`, String(duration));
  if (reverse) {
    const from = await page.inputValue(`${M} .m-from`);
    const to = await page.inputValue(`${M} .m-to`);
    await page.fill(`${M} .m-from`, to);
    await page.fill(`${M} .m-to`, from);
  }
  await page.click(`${M} .m-plan`);
  await page.waitForTimeout(300);
  await page.click('#tabs button[data-view="controller"]');
  await page.waitForSelector('[data-testid=ctl-connect]');
  await page.click('[data-testid=ctl-connect]');
  await page.waitForFunction(() => document.querySelector('[data-testid=ctl-message]').textContent.startsWith('Connected'), null, { timeout: 20000 });
  await page.click('.view-panel[data-view="controller"] button[title="the studio\'s planned trajectory"]');
  await page.waitForFunction(() => /planned trajectory:/.test(document.querySelector('.view-panel[data-view="controller"]').textContent));
}

export const sendMsg = (page) => page.textContent('[data-testid=ctl-send-message]');
export async function waitSent(page, timeout = 30000) {
  await page.waitForFunction(() => /done|fault|refus|outside|emergency|Cannot|stopped/.test(document.querySelector('[data-testid=ctl-send-message]').textContent), null, { timeout })
    .catch(async (e) => { throw new Error(`${e.message}: the message reads "${await sendMsg(page)}", the controller: ${await page.textContent('[data-testid=ctl-state]')}`); });
  return sendMsg(page);
}
