// Browser tests of the studio's first page (issue 2): loads cleanly, draws a non-blank
// picture, the prototype shows 24 legs, a slider moves the arm and the readout, the robot
// picker switches robots. Screenshots go to test-results/web/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot, canvasStats, imageDiff } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function studio() {
  const o = await openPage(browser, srv.url);
  await waitReady(o.page);
  return o;
}

test('studio loads the prototype without console errors and renders a non-blank canvas', async () => {
  const { page, errors, context } = await studio();
  try {
    assert.equal(await page.evaluate(() => window.__achain.robot), 'prototype-4a');
    await page.waitForTimeout(300);
    const s = await canvasStats(page, '#viewport canvas');
    assert.ok(s.width > 300 && s.height > 300, `canvas size ${s.width}×${s.height}`);
    assert.ok(s.nonBackground / s.total > 0.02, `only ${s.nonBackground}/${s.total} sampled pixels differ from the background`);
    assert.ok(s.distinct > 20, `only ${s.distinct} distinct colours`);
    await screenshot(page, 'studio-prototype-home');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the prototype 4A-chain draws its 24 legs (6 per A-pair) from the core', async () => {
  const { page, errors, context } = await studio();
  try {
    const info = await page.evaluate(() => ({
      legCount: window.__achain.legCount,
      apairs: window.__achain.studio.model.joints.filter((j) => j.kind === 'A').length,
      coreLegs: window.__achain.studio.lastLegs.length,
    }));
    assert.equal(info.apairs, 4);
    assert.equal(info.coreLegs, 4);
    assert.equal(info.legCount, 24);
    // each drawn leg spans exactly the core's B_k → P_k (leg length constant = 6 in)
    const lengths = await page.evaluate(() => window.__achain.studio.chain.legLengths());
    assert.equal(lengths.length, 24);
    for (const l of lengths) assert.ok(Math.abs(l - 6 * 0.0254) < 1e-6, `leg length ${l}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('all θ_v = 180° gives the thesis pose p = (0, 0, 38.657 in) in the readout', async () => {
  const { page, errors, context } = await studio();
  try {
    await page.click('.view-panel[data-view="teleop"] .home'); // a fresh open starts bent (issue 18); Home is the thesis pose
    const text = await page.locator('#readout').innerText();
    assert.match(text, /38\.657/);
    assert.match(text, /981\.88/);
    const pz = Number(await page.locator('#readout').getAttribute('data-pz'));
    assert.ok(Math.abs(pz - 0.98189) < 1e-5, `pz = ${pz}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('dragging a joint slider changes the pose readout and the picture', async () => {
  const { page, errors, context } = await studio();
  try {
    await page.waitForTimeout(300);
    const canvas = page.locator('#viewport canvas');
    const before = await screenshot(page, 'studio-slider-before', { locator: canvas });
    const readBefore = await page.locator('#readout').innerText();
    const slider = page.locator('.view-panel[data-view="teleop"] input[type=range][data-joint="1"]');
    const box = await slider.boundingBox();
    await page.mouse.click(box.x + box.width * 0.85, box.y + box.height / 2);
    await page.waitForTimeout(400);
    const q = await page.evaluate(() => window.__achain.q);
    assert.ok(q[1] > 4.0 && q[1] <= 300 * Math.PI / 180 + 1e-12, `shoulder moved to ${q[1]} rad`);
    const readAfter = await page.locator('#readout').innerText();
    assert.notEqual(readAfter, readBefore);
    const num = Number(await page.locator('.view-panel[data-view="teleop"] input[type=number][data-joint="1"]').inputValue());
    assert.ok(Math.abs(num - q[1] * 180 / Math.PI) < 0.01, `number box ${num}° vs q ${q[1]} rad`);
    const after = await screenshot(page, 'studio-slider-after', { locator: canvas });
    const d = await imageDiff(page, before, after);
    assert.ok(d > 0.005, `only ${(100 * d).toFixed(3)} % of pixels changed`);
    // the readout is the core's FK of the new q
    const tool = await page.evaluate(() => window.__achain.tool);
    const pz = Number(await page.locator('#readout').getAttribute('data-pz'));
    assert.equal(pz, tool[11]);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the number box clamps to the joint limits', async () => {
  const { page, errors, context } = await studio();
  try {
    const box = page.locator('.view-panel[data-view="teleop"] input[type=number][data-joint="0"]');
    await box.fill('400');
    await box.press('Enter');
    await page.waitForTimeout(100);
    const q = await page.evaluate(() => window.__achain.q);
    assert.ok(Math.abs(q[0] - 300 * Math.PI / 180) < 1e-12, `q0 = ${q[0]}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the robot picker switches robots, sliders and legs follow', async () => {
  const { page, errors, context } = await studio();
  try {
    const names = await page.locator('#robot-select option').evaluateAll((os) => os.map((o) => o.value));
    for (const n of ['prototype-4a', 'prototype-4r', 'puma560', 'stanford', 'planar-2r']) assert.ok(names.includes(n), n);
    await page.selectOption('#robot-select', 'puma560');
    await page.waitForFunction(() => window.__achain.robot === 'puma560');
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.view-panel[data-view="teleop"] .sliders input[type=range]').count(), 6);
    assert.equal(await page.evaluate(() => window.__achain.legCount), 0);
    const s = await canvasStats(page, '#viewport canvas');
    assert.ok(s.nonBackground / s.total > 0.01, 'puma picture not blank');
    await screenshot(page, 'studio-puma560');
    await page.selectOption('#robot-select', 'prototype-4r');
    await page.waitForFunction(() => window.__achain.robot === 'prototype-4r');
    assert.equal(await page.evaluate(() => window.__achain.legCount), 0);
    await page.selectOption('#robot-select', 'stanford');
    await page.waitForFunction(() => window.__achain.robot === 'stanford');
    await page.waitForTimeout(300);
    await screenshot(page, 'studio-stanford');
    await page.selectOption('#robot-select', 'prototype-4a');
    await page.waitForFunction(() => window.__achain.robot === 'prototype-4a');
    assert.equal(await page.evaluate(() => window.__achain.legCount), 24);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the layout follows a window resize', async () => {
  const { page, errors, context } = await studio();
  try {
    const w0 = await page.evaluate(() => document.querySelector('#viewport canvas').width);
    await page.setViewportSize({ width: 900, height: 650 });
    await page.waitForTimeout(400);
    const w1 = await page.evaluate(() => document.querySelector('#viewport canvas').width);
    assert.notEqual(w0, w1);
    const s = await canvasStats(page, '#viewport canvas');
    assert.ok(s.nonBackground / s.total > 0.01);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
