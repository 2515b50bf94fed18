// Joint flexibility through the wasm module, the rows of bench/bench_flexible.cpp (prototype-4a with the derived
// drive of core/robots/variants/prototype-4a-drive.json, read from the file by the core):
//   FlexJointModes/prototype-4a/achain-wasm   model.jointFlexibilityModes about a configuration (locked motors)
//   FlexCheck/prototype-4a/achain-wasm        model.checkFlexibleTrajectory of the thesis trapezoid, unshaped
import fs from 'node:fs';
import { configurations } from './states.mjs';

const DEG = Math.PI / 180;

export function cases(achain) {
  const text = fs.readFileSync(new URL('../../core/robots/variants/prototype-4a-drive.json', import.meta.url), 'utf8');
  const m = achain.modelFromJsonString(text);
  const qs = configurations(m);
  const from = new Float64Array(m.dof).fill(60 * DEG), to = new Float64Array(m.dof).fill(300 * DEG);
  let i = 0;
  return [
    { name: 'FlexJointModes/prototype-4a/achain-wasm', fn: () => m.jointFlexibilityModes(qs[i++ & 255]) },
    { name: 'FlexCheck/prototype-4a/achain-wasm', fn: () => m.checkFlexibleTrajectory(from, to, { shaper: 'none' }),
      dispose: () => m.dispose() },
  ];
}
