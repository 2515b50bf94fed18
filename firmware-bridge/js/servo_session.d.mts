// Types of servo_session.mjs: the page's side of the servo-bus worker (servo.worker.mjs).
import type { EstopAction, FoundServo, ServoFeedback, ServoHostOptions, ServoPeriodStats, ServoProtocol, ServoSendReport,
  ServoTrajectory, SimServo } from './servo.mjs';

/** What the worker sends 30 times a second and with every reply. */
export interface ServoBusSnap {
  ready: boolean; monitoring: boolean; streaming: boolean; estopped: boolean; busy: boolean;
  /** the host's standing bus error ('' when none): the servo ID, what happened, the safe state */
  error: string;
  safeText: string;
  feedback: ServoFeedback[];
  /** the goals (counts) of the last sync write */
  goals: number[];
  periods: number; overruns: number; lastPeriod: ServoPeriodStats; baud: number;
  /** the running send, if any */
  job: { phase: string; t: number; duration: number } | null;
  link: 'sim' | 'serial' | null;
}

export interface ServoBusOpenOptions {
  protocol: ServoProtocol;
  /** 'sim': a simulated bus in the worker; 'serial': a WebSerial port chosen here (needs a click) */
  source?: 'sim' | 'serial';
  /** the simulated bus's servos, as ServoBusSim takes them */
  servos?: SimServo[];
  baudRate?: number;
  hostOptions?: ServoHostOptions;
}

export class ServoBusSession extends EventTarget {
  static open(options: ServoBusOpenOptions): Promise<ServoBusSession>;
  readonly protocol: ServoProtocol;
  readonly source: 'sim' | 'serial';
  /** the latest state the worker sent ('snap' events carry each one) */
  readonly snap: ServoBusSnap | null;
  scan(ids: ArrayLike<number>, bauds: ArrayLike<number>): Promise<FoundServo[]>;
  /** connects and monitors; the calibration's normalized JSON text */
  connect(calibration: string | object): Promise<string>;
  /** robot: its description (model.modelToJson()); the calibration taken at the zero pose (JSON text), connected */
  calibrateAtZero(robot: string | object, baud: number, ids: ArrayLike<number>, directions?: ArrayLike<number>): Promise<string>;
  /** joint `joint` at one end of its travel (moved by hand; on a simulated bus to handQ, rad) becomes its lower or
   *  upper limit, 1° inside; the calibration (JSON text) and a note ('' or why the model's limit was kept), connected */
  limitAtPresent(robot: string | object, calibration: string | object, joint: number, upper: boolean, handQ?: number | null):
    Promise<{ calibration: string; note: string }>;
  torque(on: boolean): Promise<boolean>;
  teleop(on: boolean): Promise<boolean>;
  /** '' when taken as the stream's goal, else the refusal (nothing sent) */
  follow(q: ArrayLike<number>): Promise<string>;
  check(q: ArrayLike<number>): Promise<string>;
  send(trajectory: ServoTrajectory, options?: { settle?: number; timeout?: number; torqueOffAtEnd?: boolean }): Promise<ServoSendReport>;
  /** the safe state in words */
  estop(): Promise<string>;
  setEstopAction(action: EstopAction): Promise<boolean>;
  /** simulated bus only */
  inject(kind: 'corrupt' | 'silence' | 'overload' | 'clear', id: number): Promise<boolean>;
  /** simulated bus only: when the last E-STOP reached the bus (estopWallMs: when the worker took it, on the
   *  performance.timeOrigin + now() scale; hostToBusUs: from then to the end of its safe state's sync write) */
  estopTiming(): Promise<{ estopWallMs: number; hostToBusUs: number; address: number; periodUs: number }>;
  /** simulated bus only: a hand turns servo id (torque off) to counts; false when its torque holds it */
  moveByHand(id: number, counts: number): Promise<boolean>;
  close(): Promise<void>;
  terminate(): void;
}
