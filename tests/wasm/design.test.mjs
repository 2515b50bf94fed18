// Design sweeps in the wasm module (the studio's Sweep view): achain.designRobotJson / designParametersJson give,
// for every design of a space, the parameters the native sweep wrote (`achain sweep` + `sweep-merge`, the same C++
// core) and a robot whose A-pairs and links carry them; bad indices and spaces are refused by name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cliPath, loadAchain, root as repo } from './helpers.mjs';

const achain = await loadAchain();
const INCH = 0.0254;
const designFile = path.join(repo, 'docs', 'examples', 'sweep-prototype.json');

describe('design', () => {
  test('every design of the example space: wasm parameters = the native sweep\'s, and the robot carries them', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'achain-design-'));
    try {
      // two shards, merged: the merged file embeds the space with its robot inline (what the studio reads)
      for (const s of ['0/2', '1/2']) {
        execFileSync(cliPath, ['sweep', designFile, '--shard', s, '--out', path.join(dir, `s${s[0]}.jsonl`), '--threads', '1'], { stdio: 'ignore' });
      }
      const out = path.join(dir, 'merged.json');
      execFileSync(cliPath, ['sweep-merge', designFile, path.join(dir, 's0.jsonl'), path.join(dir, 's1.jsonl'), '--out', out], { stdio: 'ignore' });
      const merged = JSON.parse(fs.readFileSync(out, 'utf8'));
      assert.equal(merged.designs.length, merged.count);
      assert.ok(merged.count >= 50);
      for (const d of merged.designs) {
        assert.deepEqual(achain.designParametersJson(merged.design_space, d.design), d.parameters);
        const m = achain.loadModel(achain.designRobotJson(merged.design_space, d.design));
        try {
          const p = d.parameters;
          // rho = (2√2/3)·leg length; d1 = 13 in − rho; a2 = the upper arm; the legs' radius (file inches → m)
          for (const j of m.joints) assert.ok(Math.abs(j.rho - (2 * Math.SQRT2 / 3) * p.leg_length * INCH) < 1e-12);
          assert.ok(Math.abs(m.joints[0].d - (13 * INCH - m.joints[0].rho)) < 1e-12);
          assert.ok(Math.abs(m.joints[1].a - p.upper_arm * INCH) < 1e-12);
          for (const j of m.joints) assert.ok(Math.abs(j.legRadius - p.leg_radius * INCH) < 1e-12);
        } finally { m.dispose(); }
      }
      // the same from the design file itself (robot by built-in name) and from its text
      const space = JSON.parse(fs.readFileSync(designFile, 'utf8'));
      assert.deepEqual(achain.designRobotJson(space, 17), achain.designRobotJson(JSON.stringify(merged.design_space), 17));
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });

  test('bad input is refused by name', () => {
    const space = JSON.parse(fs.readFileSync(designFile, 'utf8'));
    assert.throws(() => achain.designRobotJson(space, 1e6), /design 1000000: out of range \(the design space has \d+ designs/);
    assert.throws(() => achain.designRobotJson(space, -1), /index: must be a whole number >= 0/);
    assert.throws(() => achain.designRobotJson(space, 1.5), /index: must be a whole number >= 0/);
    assert.throws(() => achain.designRobotJson(space, NaN), /index: must be a whole number >= 0/);
    assert.throws(() => achain.designRobotJson('{', 0), /malformed JSON/);
    assert.throws(() => achain.designRobotJson(42, 0), /space: must be a design space/);
    const bad = { ...space, parameters: [{ ...space.parameters[0], pointers: ['/joints/9/leg_length'] }] };
    assert.throws(() => achain.designRobotJson(bad, 0), /parameters\[0\]\.pointers\[0\]/);
  });
});
