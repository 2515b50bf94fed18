// The studio's speed as a user meets it (issue 32): a cold load to a drawn robot, the frame interval while the
// tool gizmo is dragged, and the longest main-thread task, in headless Debian Chromium. Run after a vite build:
//
//   npx vite build --config web/vite.config.mjs && node bench/web/studio.mjs [--loads 5] [--width 1440 --height 900]
//
// Cold load: a new browser process each time (no compiled-code cache), from navigation start to the studio's second
// drawn frame (Viewport.firstFramesAt). Drag: the prototype's gizmo z arrow dragged for about 2.4 s (150 mouse
// moves 16 ms apart); the frame interval is the time between animation frames, the longest task comes from a
// PerformanceObserver ('longtask'). Prints one JSON line per measurement and a summary; asserts nothing (speed is
// measured, never asserted in tests).
import { serveDist, launch, zArrow } from '../../tests/web/helpers.mjs';

const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : dflt; };
const loads = arg('loads', 5);
const viewport = { width: arg('width', 1440), height: arg('height', 900) };
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]; };
const round = (x) => Math.round(x * 10) / 10;

const srv = await serveDist();
try {
  const loadMs = [];
  for (let k = 0; k < loads; k++) {
    const browser = await launch();
    try {
      const page = await (await browser.newContext({ viewport, deviceScaleFactor: 1 })).newPage();
      const t0 = Date.now();
      await page.goto(`${srv.url}#robot=prototype-4a&view=teleop`, { waitUntil: 'load' });
      await page.waitForFunction(() => window.__achain?.ready && window.__achain.frames > 1, null, { timeout: 60000 });
      const seen = Date.now() - t0;  // as a test sees it: goto to the polled condition (includes the polling's lag)
      const r = await page.evaluate(() => ({ drawn: window.__achain.studio.viewport.firstFramesAt[1], software: window.__achain.studio.viewport.software }));
      loadMs.push(r.drawn);
      console.log(JSON.stringify({ measure: 'cold load to a drawn robot', ms: round(r.drawn), seenByTheTestMs: seen, softwareWebGL: r.software }));
    } finally { await browser.close(); }
  }

  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport, deviceScaleFactor: 1 })).newPage();
    await page.goto(`${srv.url}#robot=prototype-4a&view=teleop`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__achain?.ready && window.__achain.frames > 1, null, { timeout: 60000 });
    await page.waitForTimeout(500);
    const p = await zArrow(page);
    await page.evaluate(() => {
      window.__tasks = [];
      window.__frames = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push(e.duration); }).observe({ type: 'longtask' });
      const tick = (t) => { window.__frames.push(t); if (window.__frames.length < 100000) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    });
    await page.mouse.down();
    for (let k = 1; k <= 150; k++) {
      await page.mouse.move(p.x, p.y + 0.6 * k);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    await page.waitForTimeout(300);
    const r = await page.evaluate(() => ({ frames: window.__frames, tasks: window.__tasks }));
    const dt = r.frames.slice(1).map((t, i) => t - r.frames[i]);
    console.log(JSON.stringify({ measure: 'drag frame interval', frames: dt.length, p50: round(pct(dt, 0.5)), p90: round(pct(dt, 0.9)), p99: round(pct(dt, 0.99)),
      longestTask: round(Math.max(0, ...r.tasks)), tasksOver50ms: r.tasks.length }));
    console.log(`# cold load to a drawn robot: ${loadMs.map(round).join(', ')} ms (median ${round(pct(loadMs, 0.5))}); `
      + `drag: frame interval p50 ${round(pct(dt, 0.5))} ms, p99 ${round(pct(dt, 0.99))} ms, longest task ${round(Math.max(0, ...r.tasks))} ms`);
  } finally { await browser.close(); }
} finally { await srv.close(); }
