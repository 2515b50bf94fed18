// The bridge host library's entry: the C++ bridge through the one achain wasm module
// (firmware-bridge/wasm/bind_bridge.cpp). Nothing here re-implements C++: the codec, the segment
// builder and its limit check, trajectory validation, the Model → controller joint configuration and
// the thesis demo trajectory are all the C++ functions that `achain send` uses.
//   HostEngine          the host streaming engine (sequencing, resend, credit, heartbeats, stop/e-stop)
//   VirtualController   the unchanged firmware on a simulated robot (the virtual controller)
//   codec               CRC, COBS, frames and the firmware's limit check
//   servo               the servo-bus codecs: Dynamixel Protocol 2.0 and Feetech SCS/STS packet builders and
//                       status decoders (firmware-bridge/servo/)
// Used by the studio (web/src/controller/panel.js), Node (send.mjs) and the tests.
import { loadAchain } from '../../wasm/achain.mjs';
export { loadServoBus } from './servo.mjs';  // the servo-bus host and simulated buses (bind_servo.cpp)

export const SegmentFlags = Object.freeze({ blend: 1, last: 2, stream: 4 });

let bridgePromise = null;

/** Loads (once) the achain module and returns the bridge API. */
export function loadBridge() {
  if (!bridgePromise) bridgePromise = loadAchain().then((achain) => makeApi(achain.module));
  return bridgePromise;
}

function makeApi(M) {
  const faults = Object.freeze(Array.from(M.faultList()));
  /** Fault bits → [{bit, name, text}] with the firmware's own words. */
  const describeFaults = (bits) => faults.filter((f) => bits & f.bit);

  const codec = Object.freeze({
    protocolVersion: M.protocolVersion(),
    schemaId: M.schemaId(),
    queueCapacity: M.queueCapacity(),
    crc16: (bytes) => M.crc16(bytes),
    cobsEncode: (bytes) => M.cobsEncode(bytes),
    /** null when the bytes are not valid COBS */
    cobsDecode: (bytes) => M.cobsDecode(bytes),
    buildFrame: (type, seq, body = new Uint8Array(0)) => M.buildFrame(type, seq, body),
    /** One wire frame → {type, seq, body} or {error}. */
    decodeFrame: (bytes) => M.decodeFrame(bytes),
    /** The firmware's limit check of one cubic piece: limits {qMin, qMax, vMax, aMax} → {violation, worst}. */
    checkPiece(q0, v0, q1, v1, T, limits, margin = 1.5) {
      return M.checkPiece(q0, v0, q1, v1, T, { ...blankJoint, ...limits }, margin);
    },
  });

  /** The servo-bus codecs in C++ (firmware-bridge/servo/): packet builders returning Uint8Array (they throw
   *  naming a bad argument), the streaming status decoders (Embind classes: free them with delete()) and the
   *  status-error texts. */
  const servo = Object.freeze({
    ...Object.fromEntries(servoBuilders.map((name) => [name, M[name]])),
    /** [{number, name, text}] of the Dynamixel status error numbers 1-7. */
    dynamixelErrors: Object.freeze(Array.from(M.dynamixelErrors())),
    /** What the Dynamixel alert bit (0x80) means and what to do. */
    dynamixelAlertText: M.dynamixelAlertText(),
    /** [{bit, name, text}] of the Feetech status bits. */
    feetechStatusBits: Object.freeze(Array.from(M.feetechStatusBits())),
    DynamixelStatusDecoder: M.DynamixelStatusDecoder,
    FeetechStatusDecoder: M.FeetechStatusDecoder,
  });

  /** An achain-trajectory as the JSON text the C++ side reads (objects are stringified once). */
  const trajectoryText = (traj) => (typeof traj === 'string' ? traj : JSON.stringify(traj));

  return Object.freeze({
    module: M,
    codec,
    servo,
    faults,
    describeFaults,
    stateNames: Object.freeze(Array.from(M.stateNames())),
    /** new HostEngine(): the host streaming engine (an Embind object: free it with .delete()). Its
     *  queueTrajectory(text, options) builds and checks the segments in C++; pass trajectoryText(traj). */
    HostEngine: M.HostEngine,
    /** new VirtualController(servoHz, robotJsonText): the firmware on a simulated robot ('' = the prototype); .delete() frees it. */
    VirtualController: M.VirtualController,
    trajectoryText,
    /** The controller's joint configuration for an achain Model (wasm/achain.mjs): limits, gear ratio, encoder counts. */
    jointConfigsFromModel: (model) => Array.from(M.jointConfigsFromModel(model._raw())),
    defaultGlobalConfig: () => M.defaultGlobalConfig(),
    /** Robinson's rest-to-rest trapezoid (Sec. 3.8.7), θ_v 60° → 300° on all four joints, sampled every dt. */
    thesisTrapezoid: (dt = 0.001) => JSON.parse(M.thesisTrapezoid(dt)),
    /** Checks an achain-trajectory (object or text) as `achain send` does: throws naming the field, else {dof, samples, duration}. */
    validateTrajectory: (traj) => M.validateTrajectory(trajectoryText(traj)),
  });
}

/** The servo packet builders and checksums bound by firmware-bridge/wasm/bind_bridge.cpp, under their C++-side names. */
const servoBuilders = Object.freeze([
  'dynamixelPing', 'dynamixelRead', 'dynamixelWrite', 'dynamixelRegWrite', 'dynamixelAction', 'dynamixelReboot',
  'dynamixelSyncRead', 'dynamixelSyncWrite', 'dynamixelBulkRead', 'dynamixelBulkWrite', 'dynamixelStatus',
  'dynamixelCrc16', 'feetechPing', 'feetechRead', 'feetechWrite', 'feetechRegWrite', 'feetechAction',
  'feetechSyncWrite', 'feetechSyncRead', 'feetechStatus', 'feetechChecksum',
]);

/** A JointConfig with every field, for checkPiece callers that pass only the four limits. */
const blankJoint = Object.freeze({
  joint: 0, gearRatio: 1, countsPerRev: 4096, zeroOffset: 0, qMin: 0, qMax: 0, vMax: 0, aMax: 0, torqueMax: 0,
  kp: 0, ki: 0, kd: 0, inertiaFf: 0, viscousFf: 0,
});
