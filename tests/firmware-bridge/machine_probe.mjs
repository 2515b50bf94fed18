// What the machine delivered to real-time work while a test ran (issue 37, item 4).
//
// The PTY tests stream to `achain controller-sim` on wall time: its watchdog, its segment queue and the host's
// silence detection are real-time properties. On a machine whose cores other processes keep busy, the host or
// the simulator can go unscheduled long enough to trip them, and the test would fail although nothing is wrong.
//
// A MachineProbe is a worker thread (its own OS thread) that asks for a 1 ms timer over and over and records how
// late each fires, and how long the kernel kept the main thread (a JS host's event loop) runnable but waiting for
// a CPU (/proc schedstat), summed over any 200 ms. A host that blocks its own event loop does not show here: only
// a machine that did not run this process does. (`achain send` paused 1.9 s in a loaded node stage while this
// timer was at most 18.5 ms late: starvation hits one thread, not the whole machine at once.) judgedAgainstMachine() runs a real-time check; when the check fails with a real-time cause
// while the probe saw the machine stall beyond `stallMs`, the test is reported as skipped with the figures (the
// machine was too loaded to say), otherwise the failure stands. Every run logs the probe's figures.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker, isMainThread, workerData } from 'node:worker_threads';

/** The main thread's time spent runnable but not running (ns, schedstat's 2nd field), or null where not kept. */
function mainThreadRunQueueWaitNs(pid) {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]);
  } catch {
    return null;
  }
}

// The window in which the main thread's run-queue wait is summed: a thread the kernel kept waiting for a CPU for
// most of it went unscheduled as surely as a late timer.
const WAIT_WINDOW_MS = 200;

// In the probe's worker thread (this same module): [0] the longest lateness since the last reset, µs; [1] stop;
// [2] the main thread's longest run-queue wait within WAIT_WINDOW_MS since the last reset, µs.
if (!isMainThread && workerData?.machineProbe) {
  const cell = new Int32Array(workerData.machineProbe);
  const pid = workerData.pid;
  const waits = []; // [ms, main thread's run-queue wait in ms], the last WAIT_WINDOW_MS
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    const late = Math.round((now - last - 1) * 1000);
    if (late > Atomics.load(cell, 0)) Atomics.store(cell, 0, late);
    last = now;
    const w = mainThreadRunQueueWaitNs(pid);
    if (w !== null) {
      waits.push([now, w / 1e6]);
      while (now - waits[0][0] > WAIT_WINDOW_MS) waits.shift();
      const inWindow = Math.round((waits[waits.length - 1][1] - waits[0][1]) * 1000);
      if (inWindow > Atomics.load(cell, 2)) Atomics.store(cell, 2, inWindow);
    }
    if (Atomics.load(cell, 1) === 0) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
}

export class MachineProbe {
  constructor() {
    this.cell = new Int32Array(new SharedArrayBuffer(12));
    this.worker = new Worker(new URL(import.meta.url), { workerData: { machineProbe: this.cell.buffer, pid: process.pid }, execArgv: [] });
    this.worker.unref();
  }

  /** Starts measuring afresh (the longest stall since now). */
  reset() {
    Atomics.store(this.cell, 0, 0);
    Atomics.store(this.cell, 2, 0);
  }

  /**
   * {maxStallMs, mainWaitMs}: the longest a 1 ms timer fired late since the last reset, and the longest the kernel
   * kept this process's main thread (the host's event loop) waiting for a CPU within any 200 ms (0 where Linux
   * keeps no schedstat). Time the thread spends running its own code is not waiting: a host that blocks its own
   * event loop does not show in either.
   */
  read() {
    return { maxStallMs: Atomics.load(this.cell, 0) / 1000, mainWaitMs: Atomics.load(this.cell, 2) / 1000 };
  }

  async stop() {
    Atomics.store(this.cell, 1, 1);
    await this.worker.terminate();
  }
}

/** The failures a starved process causes on a real-time link: the controller's underrun and watchdog stops, the
 * host's silence detection and resend give-up, a CLI host that exits early on one of those. */
export const realtimeCauses = /underrun|watchdog|silen(t|ce)|no status|did not (start|reply)|exited early/;

/** The machine's CPU time counters (/proc/stat's first line): {steal, total} in ticks; null where there is none. */
function cpuTimes() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    return { steal: f[7] ?? 0, total: f.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

/**
 * Runs `check` (a test's real-time part) with `probe` measuring. A failure whose message matches `causes` while the
 * machine stalled the probe, or another real-time process that reports its own lateness (`others()`: [{what,
 * lateMs}], e.g. controller-sim's log), for at least `stallMs`, or took `stealShare` of the CPU time away from this
 * virtual machine, is reported with `t.skip` and the figures; any other failure fails the test. The figures (and the
 * event loop's own longest delay, which is the code under test's and never excuses a failure) are logged either way.
 * @param {import('node:test').TestContext} t
 */
export async function judgedAgainstMachine(t, probe, check, { stallMs = 100, stealShare = 0.2, causes = realtimeCauses, others = () => [] } = {}) {
  probe.reset();
  const cpu0 = cpuTimes();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const figures = () => {
    loop.disable();
    const cpu1 = cpuTimes();
    const steal = cpu0 && cpu1 && cpu1.total > cpu0.total ? (cpu1.steal - cpu0.steal) / (cpu1.total - cpu0.total) : 0;
    const r = probe.read();
    const stalls = [{ what: 'a 1 ms timer in this process', lateMs: r.maxStallMs },
      { what: 'this process\'s main thread', lateMs: r.mainWaitMs, says: (ms) => `kept waiting for a CPU up to ${ms} ms within 200 ms` },
      ...others()];
    const say = (x) => `${x.what} ${x.says ? x.says(x.lateMs.toFixed(1)) : `up to ${x.lateMs.toFixed(1)} ms late`}`;
    const worst = stalls.reduce((a, b) => (b.lateMs > a.lateMs ? b : a));
    const text = `machine: ${stalls.map(say).join('; ')}; ` +
      `steal ${(100 * steal).toFixed(1)} % of CPU time; this event loop delayed up to ${(loop.max / 1e6).toFixed(1)} ms`;
    return { worst, worstText: say(worst), steal, text, loaded: worst.lateMs >= stallMs || steal >= stealShare };
  };
  try {
    const r = await check();
    t.diagnostic(figures().text);
    return r;
  } catch (e) {
    const f = figures();
    const message = String(e?.message ?? e);
    if (causes.test(message) && f.loaded) {
      const why = `the machine was too loaded to judge real time (${f.worstText}, ` +
        `${(100 * f.steal).toFixed(1)} % of CPU time stolen; the limits are ${stallMs} ms and ${100 * stealShare} %) and the check ` +
        `failed with: ${message.split('\n')[0]}`;
      t.diagnostic(`${why}. ${f.text}`);
      t.skip(why);
      return undefined;
    }
    t.diagnostic(`${f.text} (below ${stallMs} ms late and ${100 * stealShare} % stolen: the failure stands)`);
    throw e;
  }
}
