// The streaming engine shared by every JS host (WebSerial, the virtual controller in a Worker, Node
// serialport): it owns a HostEngine (the C++ engine through wasm) and pumps it from a clock, writing
// to and reading from a transport {write(Uint8Array), ondata, onclose, close()}.
//
// In the browser the Streamer itself runs in a Worker (stream.worker.mjs, used through WorkerStreamer): page
// timers stall while the page works and drop to about 1 Hz in a hidden tab, which would starve the controller's
// watchdog; a dedicated worker's timer keeps running.

/** A clock on setInterval (Node, tests, the streaming worker). */
export function intervalClock(periodMs = 2) {
  let id = null;
  return {
    start(cb) {
      id = setInterval(cb, periodMs);
      id.unref?.(); // Node: never keep a process alive just for the clock
    },
    stop() {
      if (id !== null) clearInterval(id);
      id = null;
    },
  };
}

const nowMs = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export class Streamer extends EventTarget {
  /**
   * @param bridge    the object returned by loadBridge() (bridge.mjs)
   * @param transport {write(bytes), ondata, onclose, close()}
   * @param options   {clock, now, silencePeriods}: silencePeriods, the HostEngine's (no status for this many
   *                  status periods → the controller is declared silent; 5 when not given)
   */
  constructor(bridge, transport, { clock = intervalClock(2), now = nowMs, silencePeriods } = {}) {
    super();
    this.bridge = bridge;
    this.engine = new bridge.HostEngine({ silencePeriods });  // (undefined: the engine's default)
    this.transport = transport;
    this.now = now;
    this.clock = clock;
    this.closed = false;
    this.lastStatusCount = 0;
    this.lastFaults = 0;
    this.lastEstop = false;
    this.rxTap = null; // test hook: (bytes) => bytes (damage incoming bytes)
    transport.ondata = (bytes) => {
      if (this.closed) return;
      this.engine.receive(this.rxTap ? this.rxTap(bytes) : bytes, this.now());
      this.pump();
    };
    transport.onclose = (reason) => {
      if (this.closed) return;
      this.dispatchEvent(Object.assign(new Event('link-lost'), { reason: reason ?? 'the port closed' }));
    };
    this.clock.start(() => this.pump());
  }

  /** Runs the engine's timers and flushes its output. Called by the clock and on every receive. */
  pump() {
    if (this.closed) return;
    const t = this.now();
    this.engine.update(t);
    const out = this.engine.takeOutput();
    if (out.length) {
      try {
        const r = this.transport.write(out);
        if (r && typeof r.catch === 'function') r.catch((e) => this.dispatchEvent(Object.assign(new Event('link-lost'), { reason: String(e) })));
      } catch (e) {
        this.dispatchEvent(Object.assign(new Event('link-lost'), { reason: String(e) }));
      }
    }
    const c = this.engine.counters;
    if (c.statuses !== this.lastStatusCount) {
      this.lastStatusCount = c.statuses;
      const s = this.engine.status;
      this.dispatchEvent(Object.assign(new Event('status'), { status: s }));
      if (s.faults !== this.lastFaults) {
        this.lastFaults = s.faults;
        this.dispatchEvent(Object.assign(new Event('faults'), { status: s, faults: this.bridge.describeFaults(s.faults) }));
      }
      if (s.estop !== this.lastEstop) {
        this.lastEstop = s.estop;
        this.dispatchEvent(Object.assign(new Event('estop'), { engaged: s.estop }));
      }
    }
  }

  get status() {
    return this.engine.status;
  }
  get counters() {
    return this.engine.counters;
  }
  get caps() {
    return this.engine.caps;
  }

  /**
   * Resolves when pred() holds; checked on every pump; rejects after timeoutMs, or at once with the engine's own
   * error when the session is lost meanwhile (a silent or reset controller: nothing more will be acknowledged).
   */
  waitFor(pred, timeoutMs, what) {
    return new Promise((resolve, reject) => {
      const t0 = this.now();
      const check = () => {
        let v;
        try {
          v = pred();
        } catch (e) {
          cleanup();
          reject(e);
          return;
        }
        if (v) {
          cleanup();
          resolve(v);
        } else if (!this.closed && this.engine.sessionLost) {
          cleanup();
          reject(new Error(`${this.engine.error} (while waiting for ${what})`));
        } else if (this.now() - t0 > timeoutMs) {
          cleanup();
          reject(new Error(`timeout after ${timeoutMs} ms waiting for ${what}`));
        }
      };
      const id = setInterval(check, 2);
      const cleanup = () => clearInterval(id);
      check();
    });
  }

  async connect(timeoutMs = 3000) {
    this.engine.connect(this.now());
    this.pump();
    await this.waitFor(() => this.engine.connected, timeoutMs, 'the controller (CAPS): wrong port or baud rate, or no controller');
    const caps = this.engine.caps;
    if (caps.version !== this.bridge.codec.protocolVersion) throw new Error(`controller protocol ${caps.version}, host ${this.bridge.codec.protocolVersion}`);
    return caps;
  }

  /** Sends the configuration and waits for a status reflecting it. */
  async configure(joints, global = this.bridge.defaultGlobalConfig(), { clearFaults = false, timeoutMs = 3000 } = {}) {
    if (clearFaults) this.engine.clearFaults();
    this.engine.configureGlobal(global);
    for (const c of joints) this.engine.configureJoint(c);
    this.global = global;
    this.joints = joints;
    await this.waitFor(() => this.engine.backlog === 0, timeoutMs, 'the configuration to be acknowledged');
    const seen = this.engine.counters.statuses;
    await this.waitFor(() => this.engine.counters.statuses >= seen + 2, timeoutMs, 'a status after configuring');
    return this.engine.status;
  }

  /**
   * Streams an achain-trajectory (object or JSON text) and resolves with a report when the controller
   * has executed the last segment and settled; rejects on a refusal or a controller fault. The send is
   * the C++ SendJob that `achain send` runs (HostEngine.beginSend / sendStep): the segments are built
   * and checked against the configured joint limits, the controller's status is checked (emergency
   * stop, latched faults, the start position unless blendFirst or approach), START follows a prefill, and the final
   * error is measured after settling. This method only pumps the engine and reports progress.
   * `angular` (one boolean per joint) words a limit refusal in degrees / metres. `approach` first moves
   * from wherever the controller holds the arm to the plan's start (planned in C++, as `achain send --approach`). A send
   * started while this one runs replaces it: this one then rejects, saying so.
   */
  async sendTrajectory(traj, { segmentDt = 0.01, blendFirst = false, approach = false, settleMs = 500, timeoutMs = 120000, onProgress = null, checkLimits = true, angular } = {}) {
    const t0 = this.now();
    const plan = this.engine.beginSend(this.bridge.trajectoryText(traj), { segmentDt, blendFirst, approach, checkLimits, settleMs, angular }, t0);
    this.pump();
    let lastProgress = -Infinity;
    const end = await this.waitFor(() => {
      const now = this.now();
      const r = this.engine.sendStep(now);
      if (r.sendId !== plan.sendId) throw new Error('replaced by a newer trajectory (sent while this one was running)');
      // progress at most every 20 ms (the status rate), not on every 2 ms check: each report is a message to the page
      if (onProgress && r.phase === 'streaming' && now - lastProgress >= 20) {
        lastProgress = now;
        onProgress({ ...this.engine.status, ...r.progress });
      }
      return r.phase === 'done' || r.phase === 'failed' ? r : null;
    }, timeoutMs, 'the trajectory to finish');
    const s = this.engine.status;
    if (!end.ok) {
      const faults = end.controllerFault ? this.bridge.describeFaults(s.faults) : undefined;
      throw Object.assign(new Error(end.error), { status: s, faults, maxHostPauseMs: end.maxHostPauseMs });
    }
    return { status: s, planned: plan.planned, finalError: end.finalError, maxAbsError: end.maxAbsError, segments: plan.segments,
      elapsed: (this.now() - t0) / 1000, counters: this.engine.counters, events: this.engine.events, maxHostPauseMs: end.maxHostPauseMs };
  }

  start() { this.engine.start(); this.pump(); }
  pause() { this.engine.pause(); this.pump(); }
  resume() { this.engine.resume(); this.pump(); }
  /**
   * Clears the controller's latched faults and e-stop; resolves with {cleared, why}. The controller clears only at
   * rest, so a request made while it still stops the arm waits for that (in the C++ HostSession). `why` says, in
   * words, what stood in the way when the faults did not clear (an ended session, a fault raised again at once).
   */
  async clearFaults(timeoutMs = 5000) {
    this.engine.clearFaults();
    this.pump();
    await this.waitFor(() => this.closed || !this.engine.clearFaultsPending, timeoutMs, 'the controller to clear its faults').catch(() => {});
    if (this.closed) return { cleared: false, why: 'the link was closed' };
    const why = this.engine.clearFaultsWhy;
    return { cleared: why === '', why };
  }
  stop() { this.engine.stop(this.now()); this.pump(); }
  estop() { this.engine.estop(this.now()); this.pump(); }
  /** Teleoperation: blend to q (SI) with a short look-ahead; a newer target replaces an unsent one. */
  streamTarget(q, lookAhead = 0.1) { this.engine.streamTarget(q, lookAhead); this.pump(); }

  /** Stops the clock and closes the transport; the controller's watchdog stops a moving arm. */
  async close() {
    this.closed = true;
    this.clock.stop();
    try {
      await this.transport.close?.();
    } finally {
      this.engine.delete();
    }
  }
}
