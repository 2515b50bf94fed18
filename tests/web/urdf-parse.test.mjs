// URDF in the browser: achain.loadModel(urdfText) parses with the page's DOMParser (no line numbers of its
// own: the start-tag lines are counted in wasm/js/xml.mjs) and gives the native FK; errors name element and line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openPage, waitReady, repo } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

const fixture = (name) => path.join(repo, 'tests/fixtures/urdf', name);
const read = (name) => fs.readFileSync(fixture(name), 'utf8');

test('loadModel(urdfText) in the page: DOMParser path, native FK, warnings and errors with lines', async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=puma560`);
  try {
    await waitReady(page);
    const q = [0.1, 0.5, -1.0, 0.7, -0.4, 2.0];
    const r = await page.evaluate(({ puma, missing, malformed, q }) => {
      const a = window.__achain.achain;
      const m = a.loadModel(puma);
      const out = { dof: m.dof, tool: Array.from(m.fkTool(q)), notes: m.info.notes, geometry: m.info.geometry.length };
      m.dispose();
      try { a.loadModel(missing); } catch (e) { out.missing = e.message; }
      try { a.loadModel(malformed); } catch (e) { out.malformed = e.message; }
      try { a.loadModel(puma.slice(0, Math.floor(puma.length / 2))); } catch (e) { out.truncated = e.message; }
      out.domParser = typeof DOMParser;
      return out;
    }, { puma: read('puma560.urdf'), missing: read('missing_parent.urdf'), malformed: read('malformed.urdf'), q });
    assert.equal(r.domParser, 'function');
    assert.equal(r.dof, 6);
    assert.equal(r.geometry, 8);
    const native = JSON.parse(execFileSync(path.join(repo, 'build/native/achain'),
      ['fk', '--robot', fixture('puma560.urdf'), '--q', q.join(',')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const flat = native.T.flat();
    for (let i = 0; i < 16; i++) assert.ok(Math.abs(r.tool[i] - flat[i]) < 1e-12, `T[${i}]`);
    assert.ok(r.notes.some((s) => s.includes("<transmission name='trans1'> (line 80)")), r.notes.join('\n'));
    assert.match(r.missing, /^URDF <parent> \(line 7\): parent link 'shoulder' is not defined/);
    assert.match(r.malformed, /^\(document\): malformed XML/);
    // a URDF cut in half: Chromium's own message with its line, without the page-rendering text around it
    assert.match(r.truncated, /^\(document\): malformed XML: error on line \d+ at column \d+: \S/, r.truncated);
    assert.doesNotMatch(r.truncated + r.malformed, /This page contains|Below is a rendering/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
