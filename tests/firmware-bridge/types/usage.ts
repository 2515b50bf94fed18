// Typed usage of the bridge host library's declarations (firmware-bridge/js/bridge.d.mts): type-checked
// by `npx tsc --noEmit -p tests/firmware-bridge/types/tsconfig.json`, never run.
import loadAchain from '../../../wasm/achain';
import { loadBridge, SegmentFlags } from '../../../firmware-bridge/js/bridge.mjs';
import type { JointConfig, QueuedPlan, ControllerStatus, PieceCheck, SendStep } from '../../../firmware-bridge/js/bridge.mjs';

export async function usage(): Promise<number> {
  const bridge = await loadBridge();
  const achain = await loadAchain();
  const model = achain.builtinModel('prototype-4a');
  const joints: JointConfig[] = bridge.jointConfigsFromModel(model);
  model.dispose();
  const host = new bridge.HostEngine();
  const patient = new bridge.HostEngine({ silencePeriods: 50 });
  patient.delete();
  host.configureGlobal(bridge.defaultGlobalConfig());
  joints.forEach((c) => host.configureJoint(c));
  host.clearFaults();
  const clearing: boolean = host.clearFaultsPending;
  const clearWhy: string = host.clearFaultsWhy;
  const traj = bridge.thesisTrapezoid(0.001);
  const v = bridge.validateTrajectory(traj);
  const plan: QueuedPlan = host.queueTrajectory(bridge.trajectoryText(traj), { segmentDt: 0.01, blendFirst: false });
  const st: ControllerStatus | null = host.status;
  let step: SendStep | null = null;
  try {
    host.beginSend(bridge.trajectoryText(traj), { segmentDt: 0.01, settleMs: 200, angular: [true, true, true, true] }, 0);
    step = host.sendStep(1);
    host.beginSend(bridge.trajectoryText(traj), { approach: true, settleMs: 200 }, 2);
  } catch {
    step = null;  // not connected: refused by name
  }
  const lost: '' | 'reset' | 'silent' = host.sessionLost;
  const phase = lost === 'silent' ? -1 : step?.phase === 'done' ? step.maxAbsError ?? 0 : step?.progress.segmentsDone ?? 0;
  const vc = new bridge.VirtualController(1000, '');
  vc.write(host.takeOutput());
  vc.step(10);
  host.receive(vc.read(), 10);
  const frame = bridge.codec.buildFrame(1, 0, new Uint8Array([1, 2]));
  const d = bridge.codec.decodeFrame(frame);
  const check: PieceCheck = bridge.codec.checkPiece(0, 0, 1, 0, 1, joints[0]);
  const names = bridge.describeFaults(host.status?.faults ?? 0).map((f) => f.name);
  host.delete();
  vc.delete();
  return plan.segments + v.samples + (st ? st.q.length : 0) + ('error' in d ? 0 : d.body.length) + names.length
    + (check.violation === 'none' ? 1 : 0) + SegmentFlags.last + host.counters.framesSent + phase;
}
