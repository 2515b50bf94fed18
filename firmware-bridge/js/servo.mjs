// The servo-bus host and the simulated servo buses (issue 33) through the one achain wasm module
// (firmware-bridge/wasm/bind_servo.cpp). Nothing here re-implements C++: the host engine (ServoHost), the
// simulated Dynamixel and Feetech buses (ServoBusSim), the jobs of `achain bus …` / `achain send --bus` on a
// simulated bus (scanServos, connectServos, calibrateAtZero, sendToServos: synchronous, on the bus's own clock),
// the same jobs in pieces for a caller that pumps a host in real time (ServoSendJob, servoJointMap,
// zeroAtPresent, limitAtPresent: the studio's bus worker, servo.worker.mjs) and the calibration-file functions are the
// C++ ones, under their C++ names; every argument is checked there.
// Times are µs; joint values rad (m); a calibration is its JSON text or object, returned as the JSON text the
// C++ writes. Types: servo.d.mts. Exported by bridge.mjs.
import { loadAchain } from '../../wasm/achain.mjs';

let servoPromise = null;

/** Loads (once) the achain module and returns the servo-bus API. */
export function loadServoBus() {
  if (!servoPromise) servoPromise = loadAchain().then((achain) => makeServoApi(achain.module));
  return servoPromise;
}

/** The raw wasm handle of an achain Model (wasm/achain.mjs). */
const rawModel = (model) => {
  if (!model || typeof model._raw !== 'function') throw new Error('model: must be an achain Model (achain.loadModel)');
  return model._raw();
};

function makeServoApi(M) {
  return Object.freeze({
    /** new ServoHost(protocol, options?): the bus host engine (an Embind object: free it with delete()). */
    ServoHost: M.ServoHost,
    /** new ServoBusSim(protocol, servos): a simulated bus (an Embind object: free it with delete()). */
    ServoBusSim: M.ServoBusSim,
    /** new ServoSendJob(host, trajectory, options?): sendToServos as a job the caller steps on its own clock. */
    ServoSendJob: M.ServoSendJob,
    scanServos: (host, bus, ids, bauds) => M.scanServos(host, bus, ids, bauds),
    servoJointMap: (protocol, baud, model, ids, directions = []) => M.servoJointMap(protocol, baud, rawModel(model), ids, directions),
    zeroAtPresent: (calibration, host, model) => M.zeroAtPresent(calibration, host, rawModel(model)),
    limitAtPresent: (calibration, host, model, joint, upper) => M.limitAtPresent(calibration, host, rawModel(model), joint, upper),
    connectServos: (host, bus, calibration) => M.connectServos(host, bus, calibration),
    calibrateAtZero: (host, bus, protocol, baud, model, ids, directions = []) =>
      M.calibrateAtZero(host, bus, protocol, baud, rawModel(model), ids, directions),
    sendToServos: (host, bus, trajectory, options = {}) => {
      const progress = options?.progress;
      if (typeof progress !== 'function') return M.sendToServos(host, bus, trajectory, options);
      // An exception thrown by progress would cross the C++ job and leave the stream running: it stops the job
      // instead (the e-stop action, as when progress returns false), then it is rethrown with the job's outcome.
      let thrown = null;
      const report = M.sendToServos(host, bus, trajectory, {
        ...options,
        progress: (t, duration) => {
          try {
            return progress(t, duration);
          } catch (e) {
            thrown ??= e;
            return false;
          }
        },
      });
      if (thrown) throw new Error(`sendToServos: options.progress threw (${thrown?.message ?? thrown}); ${report.error}`, { cause: thrown });
      return report;
    },
    servoCalibrationFromJson: (calibration) => M.servoCalibrationFromJson(calibration),
    narrowToModel: (calibration, model) => M.narrowToModel(calibration, rawModel(model)),
    rangeNotes: (calibration, model) => Array.from(M.rangeNotes(calibration, rawModel(model))),
    servoModelName: (protocol, model) => M.servoModelName(protocol, model),
    jointToCounts: (calibration, joint, q) => M.jointToCounts(calibration, joint, q),
    countsToJoint: (calibration, joint, counts) => M.countsToJoint(calibration, joint, counts),
    servoHardwareErrors: (protocol) => Array.from(M.servoHardwareErrors(protocol)),
  });
}
