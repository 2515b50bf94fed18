// The bridge under faults (issue 17, item 6): about 60 s of soak over a real socat PTY pair between the
// Node host and `achain controller-sim`, with damaged frames both ways, e-stops at random instants, a
// stalled motor, an encoder glitch, the host killed mid-stream and the simulator restarted mid-stream
// (tests/firmware-bridge/soak.mjs; the long run and its figures are in docs/reliability-bridge.md).
// ACHAIN_SOAK_SECONDS overrides the length.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { MachineProbe, judgedAgainstMachine } from './machine_probe.mjs';
import { runSoak } from './soak.mjs';

// Judged against what the machine delivered (issue 37, item 4; machine_probe.mjs): a failed real-time figure
// (silence, watchdog) while a 1 ms timer in this process ran 100 ms late or more, or the hypervisor took a fifth of the
// CPU time, is reported, not failed.
const probe = new MachineProbe();
after(() => probe.stop());

const seconds = Number(process.env.ACHAIN_SOAK_SECONDS ?? 55);

// The simulators' own lateness (their logs) is the machine's too: a silence while one of them waited 100 ms or more
// for the CPU says nothing about the code.
let simLateMs = 0;
test(`bridge soak: ${seconds} s of injected faults over a PTY`, { timeout: (seconds + 60) * 1000 }, (t) => judgedAgainstMachine(t, probe, async () => {
  const r = await runSoak({ seconds, seed: 17 });
  simLateMs = r.sim_late_ms_max;
  console.log(JSON.stringify(r));
  // every kind of fault was injected
  for (const k of ['flip', 'drop', 'dup', 'reorder', 'garbage', 'truncate', 'rxFlip', 'rxDrop']) assert.ok(r.injected[k] > 0, `injected ${k}`);
  for (const k of ['clean', 'estop', 'stall', 'glitch', 'hostkill', 'simrestart']) assert.ok(r.scenarios[k] >= 1, `scenario ${k}`);
  assert.ok(r.host_naks > 0 && r.host_resent > 0, 'damaged frames were NAKed and resent');
  // zero segments lost, duplicated or reordered into execution; none out of the limits
  assert.ok(r.segments_executed > 300, `segments executed: ${r.segments_executed}`);
  assert.equal(r.lost_or_duplicated_or_reordered, 0);
  assert.equal(r.exec_multi, 0);
  assert.ok(r.samples_checked > 5000);
  assert.equal(r.out_of_limit_samples, 0);
  // every fault reported to the host with its cause. On a loaded machine (npm test runs suites in parallel)
  // a starved simulator can go quiet for 100 ms or a starved host miss its watchdog: the host then reports
  // that (silence, watchdog) instead; never nothing
  for (const m of r.faults_missed) assert.ok(m.reported.length > 0 || /silent/.test(m.error ?? ''), `fault not reported: ${JSON.stringify(m)}`);
  assert.ok(r.faults_reported_with_cause >= 0.8 * r.faults_injected, `${r.faults_reported_with_cause} of ${r.faults_injected} with their cause`);
  // sends fail only where a fault was injected, or (load) by a reported session loss / fault
  for (const u of r.sends_failed_unexpected) assert.ok(u.error.length > 0);
  assert.ok(r.sends_failed_unexpected.length <= 0.25 * r.rounds, JSON.stringify(r.sends_failed_unexpected));
  assert.deepEqual(r.harness_errors, []);
  assert.ok(r.sends_ok >= 1);
  // a controller reset is detected (silence within a few status periods) and nothing stale runs after it
  assert.ok(r.resets >= 1);
  assert.equal(r.resets_detected, r.resets);
  assert.ok(r.silence_detect_ms.max <= 5 * 20 + 60, `silence detected after ${r.silence_detect_ms.max} ms`);
  assert.equal(r.stale_segments_after_reset, 0);
  // latencies: e-stop within one servo period of its last byte; watchdog stop within 3 ms past watchdog_ms
  assert.ok(r.estop_ticks_to_halt.n >= 1);
  assert.ok(r.estop_ticks_to_halt.max <= 1);
  assert.ok(r.watchdog_stop_ms.n >= 1);
  assert.ok(r.watchdog_excess_ms.max <= 3 + 1e-6, `watchdog stop ${r.watchdog_excess_ms.max} ms past watchdog_ms`);
}, { others: () => [{ what: 'controller-sim', lateMs: simLateMs }] }));
