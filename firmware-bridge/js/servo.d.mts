// Types of the servo-bus part of the bridge host library (servo.mjs, exported by bridge.mjs). Every name is the
// C++ one (firmware-bridge/host/servo_host.hpp, servo_jobs.hpp, sim/servo_bus_sim.hpp). Times are µs, joint
// values rad (m), servo positions counts.
import type { Model } from '../../wasm/achain';
import type { TrajectoryJSON } from '../../wasm/types/trajectory';

export type ServoProtocol = 'dynamixel' | 'feetech';
/** What the host does on estop() and on every bus error: torque off on every servo, or hold (torque on, every goal
 *  at the servo's last present position). */
export type EstopAction = 'torque-off' | 'hold';
/** Bytes: a Uint8Array or an array of whole numbers 0-255 (checked, never wrapped). */
export type ServoBusBytes = Uint8Array | ArrayLike<number>;

/** One joint of a calibration file (keys as in the file). */
export interface ServoJointJSON {
  name: string;
  id: number;
  /** 1: the joint angle grows with the servo's counts; -1: the other way */
  direction: 1 | -1;
  /** servo counts at joint angle 0 */
  zero_offset: number;
  counts_per_turn: number;
  /** rad */
  min: number;
  max: number;
  /** rad/s: the stream's rate limit */
  max_velocity: number;
}
/** A calibration file (docs/servo-buses.md, "Calibration file"). */
export interface ServoCalibrationJSON {
  format: 'achain-servo-calibration';
  version: 1;
  protocol: ServoProtocol;
  baud: number;
  joints: ServoJointJSON[];
  [key: string]: unknown;
}
/** A calibration as its JSON text or the parsed object; read (and checked) by the C++ servoCalibrationFromJson. */
export type ServoCalibrationInput = string | ServoCalibrationJSON;

/** One simulated servo: its ID, or its parameters (SimServoParams; defaults: the protocol's usual servo, as
 *  `achain bus-sim` makes it: XM430-W350 at 12 V or STS3215 at 7.4 V, 1 Mbit/s, return delay 0, at 2048 counts). */
export type SimServo = number | {
  id: number;
  /** model number (XM430-W350 1020, XL430-W250 1060, XL330-M288 1200; STS3215 777) */
  model?: number;
  baud?: number;
  /** Return Delay Time register (× 2 µs) */
  returnDelay?: number;
  /** counts/s (default 3000) */
  maxSpeed?: number;
  /** s, of the first-order tracking of the goal (default 0.02) */
  timeConstant?: number;
  /** counts, 0 … 4095 (default 2048) */
  startPosition?: number;
  /** the servo's own position limits, counts (default 0 … 4095) */
  minLimit?: number;
  maxLimit?: number;
  /** V */
  voltage?: number;
  /** °C */
  temperature?: number;
};

/** A simulated Dynamixel or Feetech bus (Embind object: free it with delete()). */
export interface ServoBusSim {
  protocol(): ServoProtocol;
  /** Host → servos bytes, sent from now() on. */
  write(bytes: ServoBusBytes): void;
  /** Servos → host bytes that have arrived by now(). */
  read(): Uint8Array;
  /** Runs the bus clock to tUs (at most 60 s past now()). */
  advance(tUs: number): void;
  /** Runs the bus clock dtUs forward (at most 60 s per call). */
  step(dtUs: number): void;
  /** µs since the bus was made. */
  now(): number;
  /** The host side's baud rate: a servo at another rate never answers. */
  setPortBaud(baud: number): void;
  portBaud(): number;
  /** The adapter echoes: every byte written comes back to read() ahead of any reply. */
  setEcho(on: boolean): void;
  echo(): boolean;
  servoCount(): number;
  /** Index of the servo with this ID, -1 if none. */
  find(id: number): number;
  /** Servo i's position (counts, not rounded). */
  position(i: number): number;
  /** Servo i's Goal Position register (counts). */
  goal(i: number): number;
  torqueOn(i: number): boolean;
  /** One byte of servo i's control table. */
  reg8(i: number, address: number): number;
  /** Instructions received intact / with a bad CRC or checksum / sync writes received. */
  instructions(): number;
  badInstructions(): number;
  syncWrites(): number;
  /** µs at which the last sync write of this address completed, or -1. */
  lastSyncWriteAt(address: number): number;
  /** The address and completion time (µs) of the last sync write of any address (atUs -1 when none yet). */
  lastSyncWrite(): { address: number; atUs: number };
  /** The next `count` replies of servo `id` carry a wrong CRC/checksum. */
  injectCorruptReplies(id: number, count: number): void;
  /** Servo `id` does not answer the next `count` instructions (-1: never again). */
  injectSilence(id: number, count: number): void;
  /** Hardware fault bits (servoHardwareErrors(protocol)) appear now; 0 clears them. */
  injectHardwareError(id: number, bits: number): void;
  /** A hand turns servo `id` (torque off) to `counts`; false when its torque is on (it holds). */
  moveByHand(id: number, counts: number): boolean;
  delete(): void;
}

export interface ServoHostOptions {
  /** streaming period, µs (default 10000: 100 Hz) */
  periodUs?: number;
  /** longest return delay allowed per reply, µs (default 500, the Dynamixel factory value) */
  returnDelayUs?: number;
  /** added to each transaction's expected duration, µs (default 1000) */
  timeoutMarginUs?: number;
  /** default 'torque-off' */
  estopAction?: EstopAction;
  /** the adapter echoes every byte sent (TX and RX tied): read back, checked and discarded (default false) */
  echo?: boolean;
}
export interface FoundServo { baud: number; id: number; model: number; modelName: string; }
/** The last present state read from one joint's servo. */
export interface ServoFeedback {
  valid: boolean;
  counts: number;
  /** rad (joint side) */
  position: number;
  /** rad/s */
  velocity: number;
  /** raw, signed: Dynamixel Present Current/Load units, Feetech 0.1 % */
  load: number;
  /** V */
  voltage: number;
  /** °C */
  temperature: number;
  atUs: number;
}
/** Bytes and time of the last completed streaming period (first byte out … last reply byte in). */
export interface ServoPeriodStats { bytesOut: number; bytesIn: number; startedUs: number; endedUs: number; }

/** The bus host engine (Embind object: free it with delete()): no I/O and no clock of its own. Feed it received
 *  bytes, give it the time, write what takeOutput() returns at baud(). */
export interface ServoHost {
  protocol(): ServoProtocol;
  receive(bytes: ServoBusBytes, nowUs: number): void;
  update(nowUs: number): void;
  takeOutput(): Uint8Array;
  /** The baud rate the port must be set to now (it changes during a scan). */
  baud(): number;
  /** Pings each ID (0 … 252) at each baud rate and reads the model numbers; found() lists the answers. */
  scan(ids: ArrayLike<number>, bauds: ArrayLike<number>): void;
  found(): FoundServo[];
  /** Reads each joint's servo model and position limits at the calibration's baud rate; ready() once done. */
  connect(calibration: ServoCalibrationInput): void;
  /** The calibration connect() was given, as JSON text. */
  calibration(): string;
  ready(): boolean;
  /** On: reads the present positions, writes them as goals, then torque on (no jump). Off: torque off. */
  enableTorque(on: boolean): void;
  /** '' when started, else why not. */
  startStreaming(nowUs: number): string;
  streaming(): boolean;
  /** '' when accepted; else the refusal (joint, goal, limit) and nothing was changed or written. */
  setTarget(q: ArrayLike<number>): string;
  /** What setTarget(q) would answer, changing nothing. */
  checkTarget(q: ArrayLike<number>): string;
  startMonitoring(nowUs: number): string;
  monitoring(): boolean;
  stopMonitoring(): void;
  stopStreaming(): void;
  estop(nowUs: number): void;
  setEstopAction(action: EstopAction): void;
  busy(): boolean;
  /** The standing bus error ('' when none): the servo ID, what happened, what to do, the safe state. */
  error(): string;
  /** The safe state (the e-stop action) in words. */
  safeText(): string;
  estopped(): boolean;
  feedback(): ServoFeedback[];
  /** The goals (counts) sent in the last sync write. */
  lastGoals(): number[];
  lastPeriod(): ServoPeriodStats;
  periods(): number;
  overruns(): number;
  models(): number[];
  options(): Required<ServoHostOptions>;
  delete(): void;
}

/** An achain-trajectory (text or object: the reader of `achain send`), or sampled arrays: q as rows, or flat
 *  (samples × joints, row-major, as model.planJointPath returns it). */
export type ServoTrajectory = string | TrajectoryJSON | { t: ArrayLike<number>; q: ArrayLike<number> | ArrayLike<number>[] };
export interface ServoSendOptions {
  /** s held at the last sample before the final error is read (default 0.5) */
  settle?: number;
  /** s for the whole job (default 120) */
  timeout?: number;
  /** turn torque off after the trajectory (default: hold the last pose) */
  torqueOffAtEnd?: boolean;
  /** Called about every 0.1 s of bus time; returning false stops the job as Ctrl-C does (the e-stop action). An
   *  exception it throws stops the job the same way and is then rethrown (as `cause`), with the job's outcome. */
  progress?: (t: number, duration: number) => boolean | void;
}
/** What sendToServos did (`achain send --bus`'s report). */
export interface ServoSendReport {
  ok: boolean;
  /** why not ok: a refusal (nothing moved, finalQ empty), or a bus error or a stop with the safe state sent */
  error: string;
  /** s from the present pose to the first sample */
  approach: number;
  /** s from the first sample to the end of the settle time */
  elapsed: number;
  periods: number;
  overruns: number;
  /** rad, read back (where the arm stopped, when not ok) */
  finalQ: number[];
  /** goal − present, rad */
  finalError: number[];
  finalErrorCounts: number[];
  lastPeriod: ServoPeriodStats;
}

/** sendToServos as a job its caller steps (ServoSendJob in servo_jobs.hpp; Embind object: free it with delete()).
 *  Made on a connected host; after each pump of the host (receive, update) call step(nowUs), then send the host's
 *  output. The host must outlive the job (a job whose host was deleted throws on step). */
export interface ServoSendJob {
  /** Advances the job to nowUs; true once done. */
  step(nowUs: number): boolean;
  /** Stops as Ctrl-C does (the e-stop action goes out; done a moment later); `reason` completes the report's
   *  "stopped by … during the trajectory" ('' : "the user"). */
  stop(reason: string): void;
  done(): boolean;
  /** "start", "torque on", "moving to the first sample", "running", "torque off", "stopping", "done" */
  phase(): string;
  /** s reached along the trajectory, 0 … duration() */
  t(): number;
  duration(): number;
  /** final once done() */
  report(): ServoSendReport;
  delete(): void;
}

export interface ServoBus {
  ServoHost: new (protocol: ServoProtocol, options?: ServoHostOptions) => ServoHost;
  ServoBusSim: new (protocol: ServoProtocol, servos: SimServo[]) => ServoBusSim;
  /** Every sample is checked against the host's limits here: a refused trajectory gives a job done at once, with
   *  the refusal in report().error. Options as sendToServos' but without progress (read t() and duration()). */
  ServoSendJob: new (host: ServoHost, trajectory: ServoTrajectory, options?: Omit<ServoSendOptions, 'progress'>) => ServoSendJob;
  /** The joint map of a calibration for a model (zero offsets at the default 2048, mid-turn): joint i driven by
   *  servo ids[i]; connect with it
   *  to read where each servo stands, then zeroAtPresent. JSON text. */
  servoJointMap(protocol: ServoProtocol, baud: number, model: Model, ids: ArrayLike<number>, directions?: ArrayLike<number>): string;
  /** The map with each zero offset at the host's present position (the arm held at the model's zero pose), limits
   *  and speed narrowed to the model. JSON text; throws when a position has not been read. */
  zeroAtPresent(calibration: ServoCalibrationInput, host: ServoHost, model: Model): string;
  /** Joint `joint` (index) stands at one end of its travel, moved by hand with torque off: that end, 1° inside,
   *  becomes its lower (`upper` false) or upper limit, kept within the model's. The calibration's JSON text and a
   *  note ('' or why the model's limit was kept); throws when no range would be left (moved the other way?). */
  limitAtPresent(calibration: ServoCalibrationInput, host: ServoHost, model: Model, joint: number, upper: boolean):
    { calibration: string; note: string };
  /** Pings every ID at every baud rate on the simulated bus; the servos that answered. */
  scanServos(host: ServoHost, bus: ServoBusSim, ids: ArrayLike<number>, bauds: ArrayLike<number>): FoundServo[];
  /** Connects and reads the present positions; throws with the host's message (the servo ID, what happened). */
  connectServos(host: ServoHost, bus: ServoBusSim, calibration: ServoCalibrationInput): void;
  /** The arm held at the model's zero pose: each servo's present position becomes its joint's zero; limits and
   *  speed from the model. Returns the calibration file's JSON text. */
  calibrateAtZero(host: ServoHost, bus: ServoBusSim, protocol: ServoProtocol, baud: number, model: Model,
    ids: ArrayLike<number>, directions?: ArrayLike<number>): string;
  /** Streams a trajectory to the connected bus as `achain send --bus` does. */
  sendToServos(host: ServoHost, bus: ServoBusSim, trajectory: ServoTrajectory, options?: ServoSendOptions): ServoSendReport;
  /** Reads and checks a calibration: its normalized JSON text, or throws naming the key and joint. */
  servoCalibrationFromJson(calibration: ServoCalibrationInput): string;
  /** The calibration with each joint's limits and speed narrowed to the model's (JSON text). */
  narrowToModel(calibration: ServoCalibrationInput, model: Model): string;
  /** Where the calibration covers less than the model's limits, one note per joint. */
  rangeNotes(calibration: ServoCalibrationInput, model: Model): string[];
  /** "XM430-W350", "STS3215", …; "model N" when unknown. */
  servoModelName(protocol: ServoProtocol, model: number): string;
  /** Joint angle (rad) → servo counts under joint `joint` (index) of the calibration. */
  jointToCounts(calibration: ServoCalibrationInput, joint: number, q: number): number;
  countsToJoint(calibration: ServoCalibrationInput, joint: number, counts: number): number;
  /** The hardware fault bits a protocol's servos report (ServoBusSim.injectHardwareError). */
  servoHardwareErrors(protocol: ServoProtocol): { bit: number; name: string }[];
}
export function loadServoBus(): Promise<ServoBus>;
