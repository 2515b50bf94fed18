// Types of the bridge host library (bridge.mjs). Checked by `tsc` against tests/firmware-bridge/types/usage.ts.
import type { Model } from '../../wasm/achain';
import type { TrajectoryJSON } from '../../wasm/types/trajectory';
export * from './servo.mjs';  // the servo-bus host and simulated buses: loadServoBus() and its types

/** One joint's controller configuration (the C++ JointConfig; SI, joint side). */
export interface JointConfig {
  joint: number;
  /** motor turns per joint turn, with sign */
  gearRatio: number;
  /** encoder counts per motor revolution */
  countsPerRev: number;
  /** encoder count at q = 0 */
  zeroOffset: number;
  qMin: number; qMax: number; vMax: number; aMax: number;
  /** N·m (N) at the joint */
  torqueMax: number;
  kp: number; ki: number; kd: number;
  inertiaFf: number; viscousFf: number;
}
export interface GlobalConfig {
  watchdogMs: number; statusPeriodMs: number; accelMargin: number; followingErrorMax: number; startTolerance: number;
}
export interface Fault { bit: number; name: string; text: string; }
export interface ControllerStatus {
  time: number; state: string; estop: boolean; faults: number; faultNames: string[]; faultJoint: number | null;
  queueFill: number; credits: number; segmentId: number; segmentsDone: number; trajTime: number;
  q: number[]; v: number[]; qCmd: number[];
}
export interface Caps {
  version: number; schema: number; joints: number; servoHz: number; queueCapacity: number; maxBody: number; statusHz: number; name: string;
}
export interface Counters {
  framesSent: number; framesResent: number; acks: number; naks: number; rxCrcErrors: number; rxMalformed: number;
  statuses: number; events: number; segmentsSent: number; segmentsAcked: number;
}
export interface ControllerEvent { fault: string; joint: number | null; segmentId: number; value: number; }
export interface QueueOptions {
  segmentDt?: number; blendFirst?: boolean; firstId?: number; checkLimits?: boolean;
  /** One flag per joint (true: angular): a limit refusal is worded in degrees / metres instead of SI rad. */
  angular?: boolean[];
}
export interface QueuedPlan { segments: number; firstId: number; lastId: number; duration: number; planned: number[]; sendId?: number; }
export interface SendOptions extends QueueOptions {
  settleMs?: number;
  /** Move from the controller's commanded position to the plan's start first (a trapezoid planned within the
   *  limits, ending at rest; the plan must start at rest), as `achain send --approach`. Not with blendFirst. */
  approach?: boolean;
}
export interface SendProgress { segmentsTotal: number; segmentsAcked: number; segmentsDone: number; queueFill: number; queueCapacity: number; state: string; trajTime: number; }
/** One step of a send: the phase, its progress, and (when done or failed) the outcome. */
export interface SendStep {
  phase: 'streaming' | 'stopping' | 'settling' | 'done' | 'failed';
  /** The latest beginSend's id (QueuedPlan.sendId): another than yours means your send was replaced. */
  sendId: number;
  progress: SendProgress;
  ok?: boolean; controllerFault?: boolean; error?: string; finalError?: number[]; planned?: number[]; maxAbsError?: number;
  /** this host's longest pause between two steps of the send, ms (a busy or suspended machine) */
  maxHostPauseMs?: number;
}
export interface PieceCheck { violation: 'none' | 'position' | 'velocity' | 'acceleration' | 'duration'; worst: number; }

/** The host streaming engine (Embind object: free it with delete()). */
export interface HostEngine {
  receive(bytes: Uint8Array, nowMs: number): void;
  update(nowMs: number): void;
  takeOutput(): Uint8Array;
  connect(nowMs: number): void;
  readonly connected: boolean;
  linkLost(nowMs: number): boolean;
  /** '' while the session holds; 'reset' (the controller's sequence restarted) or 'silent' (no status for a
   *  few status periods) once the controller's side ended it: nothing more is sent until connect(). */
  readonly sessionLost: '' | 'reset' | 'silent';
  configureGlobal(g: GlobalConfig): void;
  configureJoint(c: JointConfig): void;
  /** Builds the segments of an achain-trajectory (JSON text) in C++, checks them against the configured limits, queues them. */
  queueTrajectory(text: string, options: QueueOptions): QueuedPlan;
  /** Begins a send as `achain send` runs it (status checks, prefill, START, settle, measure); throws naming a refusal. */
  beginSend(text: string, options: SendOptions, nowMs: number): QueuedPlan;
  /** Advances the send begun by beginSend (call after each pump). */
  sendStep(nowMs: number): SendStep;
  start(): void; pause(): void; resume(): void;
  /** Clears latched faults and the e-stop; a request made while the controller still stops the arm waits for rest. */
  clearFaults(): void;
  /** True while the last clearFaults() waits: for the arm to stop, to be sent, or for a status showing it done. */
  readonly clearFaultsPending: boolean;
  /** Why the last clearFaults() has not taken effect, in words ('' once cleared). */
  readonly clearFaultsWhy: string;
  stop(nowMs: number): void; estop(nowMs: number): void;
  streamTarget(q: ArrayLike<number>, lookAhead: number): void;
  inject(drop: number, corrupt: number, seed: number): void;
  readonly backlog: number;
  readonly segmentsPending: number;
  readonly credits: number;
  readonly error: string;
  readonly caps: Caps;
  readonly status: ControllerStatus | null;
  readonly counters: Counters;
  readonly events: ControllerEvent[];
  delete(): void;
}
/** The firmware on a simulated robot (Embind object: free it with delete()). */
export interface VirtualController {
  write(bytes: Uint8Array): void;
  read(): Uint8Array;
  step(ticks: number): void;
  readonly time: number;
  readonly joints: number;
  state(): string; faults(): number; estop(): boolean; segmentsDone(): number;
  positions(): number[]; commanded(): number[];
  delete(): void;
}
export interface Codec {
  readonly protocolVersion: number; readonly schemaId: number; readonly queueCapacity: number;
  crc16(bytes: Uint8Array): number;
  cobsEncode(bytes: Uint8Array): Uint8Array;
  cobsDecode(bytes: Uint8Array): Uint8Array | null;
  buildFrame(type: number, seq: number, body?: Uint8Array): Uint8Array;
  decodeFrame(bytes: Uint8Array): { type: number; seq: number; body: Uint8Array } | { error: string };
  checkPiece(q0: number, v0: number, q1: number, v1: number, T: number,
    limits: Pick<JointConfig, 'qMin' | 'qMax' | 'vMax' | 'aMax'>, margin?: number): PieceCheck;
}
/** Bytes for the servo codecs: a Uint8Array or an array of whole numbers 0-255 (checked, never wrapped). */
export type ServoBytes = Uint8Array | ArrayLike<number>;
/** A Dynamixel Protocol 2.0 status packet: error is the ERR byte (bit 7 alert, bits 0-6 the error number). */
export interface DynamixelPacket {
  kind: 'packet'; id: number; error: number; alert: boolean; errorNumber: number;
  /** What the error number and the alert mean and what to do (empty when error is 0). */
  errorTexts: string[];
  params: Uint8Array;
}
/** A Feetech reply: error is the status byte (voltage 0x01, angle sensor 0x02, overheat 0x04, overcurrent 0x08, overload 0x20). */
export interface FeetechPacket {
  kind: 'packet'; id: number; error: number; errorNames: string[]; errorTexts: string[]; params: Uint8Array;
}
/** What a status decoder could not read, with a message naming the likely cause. */
export interface ServoDecodeError {
  kind: 'error'; code: 'badLength' | 'checksum' | 'badStuffing' | 'notStatus' | 'truncated'; message: string;
}
/** A streaming status decoder (Embind object: free it with delete()). */
export interface ServoStatusDecoder<P> {
  /** Feeds received bytes; returns the packets and errors they completed, in order. */
  feed(bytes: ServoBytes): (P | ServoDecodeError)[];
  /** The line went quiet: a half-read packet (header and ID read) is reported as 'truncated' and its bytes searched
   *  again; a bare header fragment is dropped silently. */
  timeout(): (P | ServoDecodeError)[];
  reset(): void;
  readonly midPacket: boolean;
  delete(): void;
}
export type DynamixelStatusDecoder = ServoStatusDecoder<DynamixelPacket>;
export type FeetechStatusDecoder = ServoStatusDecoder<FeetechPacket>;
/** The servo-bus codecs (C++ firmware-bridge/servo/): every builder returns the packet's bytes or throws naming the bad argument. */
export interface ServoCodec {
  dynamixelPing(id: number): Uint8Array;
  dynamixelRead(id: number, address: number, length: number): Uint8Array;
  dynamixelWrite(id: number, address: number, data: ServoBytes): Uint8Array;
  dynamixelRegWrite(id: number, address: number, data: ServoBytes): Uint8Array;
  dynamixelAction(id: number): Uint8Array;
  dynamixelReboot(id: number): Uint8Array;
  dynamixelSyncRead(address: number, length: number, ids: ServoBytes): Uint8Array;
  /** data: ids.length × length bytes, servo by servo. */
  dynamixelSyncWrite(address: number, length: number, ids: ServoBytes, data: ServoBytes): Uint8Array;
  dynamixelBulkRead(ids: ServoBytes, addresses: ArrayLike<number>, lengths: ArrayLike<number>): Uint8Array;
  /** data: each servo's lengths[i] bytes, concatenated in servo order. */
  dynamixelBulkWrite(ids: ServoBytes, addresses: ArrayLike<number>, lengths: ArrayLike<number>, data: ServoBytes): Uint8Array;
  /** A status packet as a servo sends it (simulated buses, tests). */
  dynamixelStatus(id: number, error: number, params: ServoBytes): Uint8Array;
  dynamixelCrc16(bytes: ServoBytes): number;
  feetechPing(id: number): Uint8Array;
  feetechRead(id: number, address: number, length: number): Uint8Array;
  feetechWrite(id: number, address: number, data: ServoBytes): Uint8Array;
  feetechRegWrite(id: number, address: number, data: ServoBytes): Uint8Array;
  feetechAction(id: number): Uint8Array;
  /** data: ids.length × length bytes, servo by servo. */
  feetechSyncWrite(address: number, length: number, ids: ServoBytes, data: ServoBytes): Uint8Array;
  /** STS/SMS series only. */
  feetechSyncRead(address: number, length: number, ids: ServoBytes): Uint8Array;
  feetechStatus(id: number, error: number, params: ServoBytes): Uint8Array;
  feetechChecksum(bytes: ServoBytes): number;
  readonly dynamixelErrors: readonly { number: number; name: string; text: string }[];
  readonly dynamixelAlertText: string;
  readonly feetechStatusBits: readonly { bit: number; name: string; text: string }[];
  DynamixelStatusDecoder: new () => DynamixelStatusDecoder;
  FeetechStatusDecoder: new () => FeetechStatusDecoder;
}
export interface Bridge {
  readonly module: unknown;
  readonly codec: Codec;
  /** The servo-bus codecs: Dynamixel Protocol 2.0 and Feetech SCS/STS. */
  readonly servo: ServoCodec;
  readonly faults: readonly Fault[];
  describeFaults(bits: number): Fault[];
  readonly stateNames: readonly string[];
  /** options.silencePeriods: no status for this many status periods (5 by default) → the controller is declared silent. */
  HostEngine: new (options?: { silencePeriods?: number }) => HostEngine;
  VirtualController: new (servoHz: number, robotJson: string) => VirtualController;
  trajectoryText(traj: TrajectoryJSON | string): string;
  jointConfigsFromModel(model: Model): JointConfig[];
  defaultGlobalConfig(): GlobalConfig;
  thesisTrapezoid(dt?: number): TrajectoryJSON;
  validateTrajectory(traj: TrajectoryJSON | string): { dof: number; samples: number; duration: number };
}
export const SegmentFlags: Readonly<{ blend: 1; last: 2; stream: 4 }>;
export function loadBridge(): Promise<Bridge>;
