// Shared helpers of the node tests: the wasm module, the native CLI, seeded random numbers.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cliPath = path.join(root, 'build/native/achain');
export { loadAchain } from '../../wasm/achain.mjs';

/** Runs the native CLI and parses its JSON output. */
export function cli(...args) {
  return JSON.parse(execFileSync(cliPath, args, { encoding: 'utf8' }));
}

/** Runs the native CLI expecting failure; returns {status, stderr}. */
export function cliFails(...args) {
  try {
    execFileSync(cliPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return { status: e.status, stderr: String(e.stderr) };
  }
  throw new Error(`achain ${args.join(' ')} unexpectedly succeeded`);
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random configuration inside the model's limits (±π or ±1 m where unbounded). */
export function randomQ(model, rand) {
  return Float64Array.from(model.joints, (j) => {
    const f = j.kind === 'P' ? 1 : Math.PI;
    const lo = j.lower ?? -f, hi = j.upper ?? f;
    return lo + rand() * (hi - lo);
  });
}

export function maxAbsDiff(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/**
 * Imports a worker module with a stand-in global `self` (Node has no Worker global scope), so its message protocol
 * runs in this process: send(data) calls its onmessage, waitFor(pred) resolves with the first posted message that
 * matches, close() removes the stand-in. `url`: the module's URL (a query makes a fresh instance).
 */
export async function standInWorker(url) {
  const messages = [];
  let notify = () => {};
  globalThis.self = { postMessage: (m) => { messages.push(m); notify(); } };
  await import(url);
  const worker = globalThis.self;
  return {
    messages,
    send: (data) => worker.onmessage({ data }),
    waitFor: (pred) => new Promise((resolve) => {
      const check = () => { const m = messages.find(pred); if (m) resolve(m); };
      notify = check;
      check();
    }),
    close: () => { delete globalThis.self; },
  };
}
