// Typed usage of the bridge host library's declarations (firmware-bridge/js/bridge.d.mts): type-checked
// by `npx tsc --noEmit -p tests/firmware-bridge/types/tsconfig.json`, never run.
import loadAchain from '../../../wasm/achain';
import { loadBridge, SegmentFlags } from '../../../firmware-bridge/js/bridge.mjs';
import type { JointConfig, QueuedPlan, ControllerStatus, PieceCheck, SendStep, DynamixelPacket, FeetechPacket, ServoDecodeError } from '../../../firmware-bridge/js/bridge.mjs';
import { loadServoBus } from '../../../firmware-bridge/js/bridge.mjs';
import type { ServoBus, FoundServo, ServoSendReport, ServoFeedback, ServoSendJob } from '../../../firmware-bridge/js/bridge.mjs';
import { ServoBusSession } from '../../../firmware-bridge/js/servo_session.mjs';
import type { ServoBusSnap } from '../../../firmware-bridge/js/servo_session.mjs';

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
  // servo-bus codecs: builders and the streaming status decoders
  const { servo } = bridge;
  const goals = new Uint8Array([0x96, 0, 0, 0, 0xaa, 0, 0, 0]);
  const dxlOut: Uint8Array[] = [servo.dynamixelPing(1), servo.dynamixelRead(1, 132, 4), servo.dynamixelSyncRead(132, 4, [1, 2]),
    servo.dynamixelSyncWrite(116, 4, [1, 2], goals), servo.dynamixelBulkRead([1, 2], [144, 146], [2, 1]),
    servo.dynamixelBulkWrite([1, 2], [32, 31], [2, 1], [0xa0, 0, 0x50]), servo.dynamixelWrite(1, 116, [0, 2, 0, 0])];
  const ftOut: Uint8Array[] = [servo.feetechPing(1), servo.feetechRead(1, 0x38, 2), servo.feetechSyncRead(0x38, 8, [1, 2]),
    servo.feetechSyncWrite(0x2a, 2, [1, 2], [0, 8, 0, 8]), servo.feetechWrite(1, 0x2a, [0, 8])];
  const dxl = new servo.DynamixelStatusDecoder();
  const dxlEvents: (DynamixelPacket | ServoDecodeError)[] = [...dxl.feed(servo.dynamixelStatus(1, 0x84, [1])), ...dxl.timeout()];
  const alerts = dxlEvents.filter((e): e is DynamixelPacket => e.kind === 'packet' && e.alert).length;
  dxl.delete();
  const ft = new servo.FeetechStatusDecoder();
  const ftEvents: (FeetechPacket | ServoDecodeError)[] = ft.feed(servo.feetechStatus(1, 0x20, []));
  const overloads = ftEvents.flatMap((e) => (e.kind === 'packet' ? e.errorNames : [e.code])).length;
  const pending: boolean = ft.midPacket;
  ft.delete();
  const texts = servo.dynamixelErrors.length + servo.feetechStatusBits.length + servo.dynamixelAlertText.length;
  const sums = servo.dynamixelCrc16([1, 2]) + servo.feetechChecksum(new Uint8Array([1, 2, 1]));
  return plan.segments + dxlOut.length + ftOut.length + alerts + overloads + (pending ? 1 : 0) + texts + sums + v.samples + (st ? st.q.length : 0) + ('error' in d ? 0 : d.body.length) + names.length
    + (check.violation === 'none' ? 1 : 0) + SegmentFlags.last + host.counters.framesSent + phase;
}

// The servo-bus host and simulated buses (firmware-bridge/js/servo.d.mts).
export async function servoUsage(): Promise<number> {
  const sb: ServoBus = await loadServoBus();
  const achain = await loadAchain();
  const model = achain.builtinModel('so101');
  const bus = new sb.ServoBusSim('feetech', [1, 2, 3, { id: 4, startPosition: 2100 }, 5]);
  const host = new sb.ServoHost('feetech', { periodUs: 10000, estopAction: 'hold' });
  const found: FoundServo[] = sb.scanServos(host, bus, [1, 2, 3, 4, 5, 6], [1000000]);
  const cal: string = sb.calibrateAtZero(host, bus, 'feetech', 1000000, model, [1, 2, 3, 4, 5]);
  sb.connectServos(host, bus, cal);
  const notes: string[] = sb.rangeNotes(cal, model);
  const plan = model.planJointPath([0, 0, 0, 0, 0], [0.2, 0.1, -0.1, 0.2, 0.3], { duration: 1.5 });
  const report: ServoSendReport = sb.sendToServos(host, bus, plan, { settle: 0.2, progress: (t: number) => t < 10 });
  const fb: ServoFeedback[] = host.feedback();
  const counts: number = sb.jointToCounts(cal, 0, 0.1) + sb.countsToJoint(cal, 0, 2048);
  // the same send in pieces, pumped by the caller (the studio's bus worker)
  const job: ServoSendJob = new sb.ServoSendJob(host, plan, { settle: 0.2, torqueOffAtEnd: false });
  while (!job.step(bus.now())) {
    bus.step(1000);
    host.receive(bus.read(), bus.now());
    host.update(bus.now());
    bus.write(host.takeOutput());
  }
  const jobReport: ServoSendReport = job.report();
  const where: string = job.phase();
  const reached: number = job.t() + job.duration();
  job.delete();
  const map: string = sb.servoJointMap('feetech', 1000000, model, [1, 2, 3, 4, 5], [1, 1, -1, 1, 1]);
  const zeroed: string = sb.zeroAtPresent(map, host, model);
  model.dispose();
  return found.length + notes.length + (report.ok ? 1 : 0) + report.finalErrorCounts.length + fb.length + counts +
    jobReport.finalQ.length + where.length + reached + map.length + zeroed.length +
    host.periods() + bus.now() + sb.servoModelName('feetech', 777).length;
}

// The studio's servo-bus session (firmware-bridge/js/servo_session.d.mts): a host in a worker.
export async function busSessionUsage(): Promise<number> {
  const bus = await ServoBusSession.open({ protocol: 'feetech', source: 'sim', servos: [1, 2, { id: 3, startPosition: 2100 }], baudRate: 1000000 });
  const found: FoundServo[] = await bus.scan([1, 2, 3], [1000000]);
  const cal: string = await bus.connect({ format: 'achain-servo-calibration', version: 1, protocol: 'feetech', baud: 1000000, joints: [] });
  await bus.teleop(true);
  const refusal: string = await bus.follow([0.1, 0.2, 0.3]);
  const report: ServoSendReport = await bus.send({ t: [0, 1], q: [[0, 0, 0], [0.1, 0.1, 0.1]] }, { settle: 0.2 });
  const snap: ServoBusSnap | null = bus.snap;
  const safe: string = await bus.estop();
  await bus.inject('silence', 3);
  await bus.close();
  return found.length + cal.length + refusal.length + report.periods + (snap?.feedback.length ?? 0) + safe.length;
}
