// Reads the JSON Lines log that `achain controller-sim --log` streams to disk (header, samples, events,
// and the summary a clean exit appends) into one object: {header, samples: {t, q, q_cmd, state, done},
// events, exec (finished segments), counters, estop, final}. A last line cut by a SIGKILL is skipped and reported as `truncated`.
// Also the PTY tests' process helpers (waitFile, spawnControllerSim, stopProcess).
import { spawn } from 'node:child_process';
import fs from 'node:fs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until `p` exists (a socat PTY link), at most `ms`. */
export async function waitFile(p, ms = 5000) {
  const t0 = Date.now();
  while (!fs.existsSync(p)) {
    if (Date.now() - t0 > ms) throw new Error(`${p} did not appear`);
    await sleep(20);
  }
}

/**
 * Starts `achain controller-sim ARGS…` and waits for its banner (the first stdout line, JSON). Rejects naming
 * the cause when the CLI was not built, cannot start, or exits first; a test then fails instead of waiting.
 * @returns {Promise<{sim: import('node:child_process').ChildProcess, banner: object}>}
 */
export async function spawnControllerSim(cliPath, args, stderr = 'pipe') {
  if (!fs.existsSync(cliPath)) throw new Error(`${cliPath} is missing: build the CLI first (npm run build)`);
  const sim = spawn(cliPath, ['controller-sim', ...args], { stdio: ['ignore', 'pipe', stderr] });
  const banner = await new Promise((resolve, reject) => {
    let out = '';
    sim.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
    });
    sim.once('error', (e) => reject(new Error(`controller-sim did not start: ${e.message}`)));
    sim.once('exit', (c, sig) => reject(new Error(`controller-sim exited (${c ?? sig}) before its banner`)));
  });
  return { sim, banner };
}

/** Ends a child process (SIGTERM, then SIGKILL after 3 s); resolves when it has exited. */
export function stopProcess(child, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const to = setTimeout(() => { child.kill('SIGKILL'); }, 3000);
    child.once('exit', () => { clearTimeout(to); resolve(); });
    child.kill(signal);
  });
}

export function readSimLog(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out = { header: null, samples: { t: [], q: [], q_cmd: [], state: [], done: [] }, events: [], exec: [], truncated: false };
  lines.forEach((line, i) => {
    if (!line) return;
    let j;
    try {
      j = JSON.parse(line);
    } catch (e) {
      if (i >= lines.length - 2) { out.truncated = true; return; }
      throw new Error(`${file}:${i + 1}: ${e.message}`);
    }
    if (j.log) out.header = j;
    else if (j.summary) Object.assign(out, j.summary);
    else if (j.event) out.events.push(j);
    else if (j.exec !== undefined) out.exec.push(j);
    else for (const k of Object.keys(out.samples)) out.samples[k].push(j[k]);
  });
  return out;
}
