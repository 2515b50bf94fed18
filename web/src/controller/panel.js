// The studio's Controller panel: connect to a real controller (WebSerial) or to the virtual
// controller (the reference firmware on the simulated prototype, wasm in a Worker), configure it,
// send a trajectory, teleoperate from the studio's joints, watch commanded vs measured joints, the
// buffer and faults. While connected, STOP / E-STOP buttons float over every view and the space bar
// triggers the e-stop. The streaming clock runs in a Worker so a hidden tab keeps the link alive.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

// The bridge host library (firmware-bridge/js/): the C++ engine, segment builder, validation and
// joint configuration through wasm. This panel only draws and routes events.
import { loadBridge } from '../../../firmware-bridge/js/bridge.mjs';
import { webSerialUnavailableReason } from '../../../firmware-bridge/js/transports.mjs';
import { WorkerStreamer } from '../../../firmware-bridge/js/worker_streamer.mjs';
import { el, ensureControllerStyle } from './ui.js';
import { readFileText } from '../ui/readFile.js';

/** Status periods without a status before the in-page virtual controller is declared silent (500 ms at 20 ms). */
const VIRTUAL_SILENCE_PERIODS = 25;

const DEG = 180 / Math.PI;

/**
 * The controller's joint configuration from the studio's model (the C++ jointConfigsFromModel: limits,
 * gear ratio, encoder counts), or from the prototype when the controller has another number of joints.
 */
function jointConfigs(bridge, achain, model, n) {
  if (model && model.dof === n) return bridge.jointConfigsFromModel(model);
  const proto = achain.builtinModel('prototype-4a');
  try {
    const c = bridge.jointConfigsFromModel(proto);
    if (c.length !== n) throw new Error(`the controller has ${n} joints; load a robot with ${n} joints to configure it`);
    return c;
  } finally {
    proto.dispose();
  }
}

export function mountControllerPanel(container, ctx) {
  ensureControllerStyle();
  const ui = {};
  let bridge = null;
  let streamer = null;
  let configs = null;
  let trajectory = null;
  let teleop = false;
  let followMeasured = false;
  let lastTeleop = 0;
  let offQ = null;
  let plot = null;
  const history = { t: [], cmd: [], meas: [] };

  // ---------------- DOM ----------------
  const serialWhy = webSerialUnavailableReason();
  ui.source = el('select', { 'data-testid': 'ctl-source' },
    el('option', { value: 'virtual', text: 'Virtual controller (simulated prototype)' }),
    el('option', { value: 'serial', text: 'Serial port (WebSerial)' }));
  if (serialWhy) ui.source.options[1].disabled = true;
  ui.baud = el('input', { type: 'number', value: '115200', title: 'baud rate', 'aria-label': 'baud rate', style: 'width:96px' });
  ui.connect = el('button', { class: 'primary', 'data-testid': 'ctl-connect', onclick: () => (streamer ? disconnect() : connect()) }, 'Connect');
  ui.state = el('div', { class: 'ctl-state', 'data-testid': 'ctl-state' }, 'not connected');
  ui.faults = el('div', { class: 'ctl-faults', 'data-testid': 'ctl-faults' });
  ui.clear = el('button', { 'data-testid': 'ctl-clear', onclick: () => clearFaults(), disabled: '' }, 'Clear faults');
  ui.buffer = el('div', { class: 'ctl-meter', title: 'controller queue fill' }, el('div'));
  ui.progress = el('div', { class: 'ctl-meter ctl-progress', title: 'segments executed' }, el('div'));
  ui.file = el('input', { type: 'file', accept: '.json,application/json', onchange: loadFile });
  ui.demo = el('button', { 'data-testid': 'ctl-demo', onclick: async () => { bridge ??= await loadBridge(); setTrajectory(bridge.thesisTrapezoid(0.001), 'thesis trapezoid (60°→300°)'); } }, 'Thesis trapezoid');
  ui.planned = el('button', { onclick: usePlanned, title: 'the studio\'s planned trajectory' }, 'Planned');
  if (typeof ctx.getTrajectory !== 'function') ui.planned.disabled = true;
  ui.trajName = el('span', { class: 'ctl-na' }, 'no trajectory');
  ui.send = el('button', { class: 'primary', 'data-testid': 'ctl-send', onclick: send, disabled: '' }, 'Send');
  ui.toStart = el('button', { 'data-testid': 'ctl-to-start', onclick: moveToStart, hidden: '', title: 'a rest-to-rest move from the arm\'s commanded position to the trajectory\'s start, planned by the core within the joint limits, then the trajectory' }, 'Move to start, then run');
  ui.sendMsg = el('div', { class: 'ctl-na', 'data-testid': 'ctl-send-message' });
  ui.pause = el('button', { onclick: () => streamer?.pause(), disabled: '' }, 'Pause');
  ui.resume = el('button', { onclick: () => streamer?.resume(), disabled: '' }, 'Resume');
  ui.teleop = el('input', { type: 'checkbox', 'data-testid': 'ctl-teleop', onchange: (e) => { teleop = e.target.checked; } });
  ui.follow = el('input', { type: 'checkbox', onchange: (e) => { followMeasured = e.target.checked; } });
  ui.cfg = el('table', { class: 'ctl-cfg' });
  ui.applyCfg = el('button', { onclick: applyConfig, disabled: '' }, 'Apply configuration');
  ui.stats = el('div', { class: 'ctl-stats', 'data-testid': 'ctl-stats' });
  ui.plot = el('div', { 'data-testid': 'ctl-plot' });
  ui.plotKey = el('div', { class: 'ctl-row ctl-stats', 'data-testid': 'ctl-plot-key' });
  ui.plotHover = el('div', { class: 'ctl-stats', 'data-testid': 'ctl-plot-hover' }, '\u00a0');
  // messages next to what caused them: connecting (under Connect), sending (under Send), configuring
  ui.message = el('div', { class: 'ctl-na', 'data-testid': 'ctl-message' });
  ui.cfgMsg = el('div', { class: 'ctl-na', 'data-testid': 'ctl-config-message' });
  ui.stopbar = el('div', { class: 'ctl-stopbar' },
    el('button', { class: 'ctl-stop', 'data-testid': 'ctl-stop', title: 'controlled stop (decelerates within limits)', onclick: () => streamer?.stop() }, 'STOP'),
    el('button', { class: 'ctl-estop', 'data-testid': 'ctl-estop', title: 'emergency stop (space bar, whatever has the focus): drive off, brake on', onclick: () => streamer?.estop() }, 'E-STOP (Space)'));

  container.append(
    el('div', { class: 'ctl-row' }, ui.source, ui.baud, ui.connect),
    ui.message,
    serialWhy ? el('div', { class: 'ctl-na' }, serialWhy) : '',
    ui.state, ui.faults,
    el('div', { class: 'ctl-row' }, ui.clear),
    el('h3', {}, 'Trajectory'),
    el('div', { class: 'ctl-row' }, ui.demo, ui.planned, ui.file),
    el('div', { class: 'ctl-row' }, ui.trajName),
    el('div', { class: 'ctl-row' }, ui.send, ui.toStart, ui.pause, ui.resume),
    ui.sendMsg,
    el('div', { class: 'ctl-row' }, 'buffer', ui.buffer), el('div', { class: 'ctl-row' }, 'done', ui.progress),
    el('h3', {}, 'Teleoperation'),
    el('label', { class: 'ctl-row' }, ui.teleop, 'stream the studio\'s joints (IK gizmo, sliders)'),
    el('label', { class: 'ctl-row' }, ui.follow, 'show the measured pose in the view'),
    el('h3', {}, 'Commanded vs measured'), ui.plotKey, ui.plot, ui.plotHover,
    el('h3', {}, 'Configuration'), ui.cfg, el('div', { class: 'ctl-row' }, ui.applyCfg), ui.cfgMsg,
    ui.stats);

  // ---------------- behaviour ----------------
  const say = (msg) => { ui.message.textContent = msg; };
  // Clear faults waits for the engine's answer: cleared, or why not (the controller still stopping the arm is waited
  // for; an ended session or a fault raised again is said). Before, a click the controller ignored said nothing.
  async function clearFaults() {
    if (!streamer) return;
    const s = streamer;
    say('Clearing faults…');
    try {
      const r = await s.clearFaults();
      if (s !== streamer) return;
      say(r.cleared ? 'Faults cleared.' : `Faults not cleared: ${r.why}.`);
      // the last send's fault text ends "… then clear faults": done, so it goes
      if (r.cleared && /fault|emergency/.test(ui.sendMsg.textContent)) ui.sendMsg.textContent = '';
    } catch (e) {
      if (s === streamer) say(`Faults not cleared: ${e.message}`);
    }
  }
  const setEnabled = (on) => {
    for (const b of [ui.send, ui.pause, ui.resume, ui.clear, ui.applyCfg]) b.disabled = !on;
    ui.connect.textContent = on ? 'Disconnect' : 'Connect';
  };

  /**
   * The joint configuration: per joint, the three editable fields (gear ratio, encoder counts per revolution,
   * zero offset) on one row, wide enough to click, each labelled; the limits it carries on a row under them.
   */
  function renderConfig() {
    const FIELDS = [['gearRatio', 'gear', 'gear ratio'], ['countsPerRev', 'counts/rev', 'encoder counts per revolution'], ['zeroOffset', 'zero', 'zero offset']];
    ui.cfg.replaceChildren(el('colgroup', {}, el('col', { class: 'ctl-cfg-joint' }), ...FIELDS.map(() => el('col'))),
      el('tr', {}, el('th', {}, 'joint'), ...FIELDS.map(([, h]) => el('th', {}, h))));
    configs.forEach((c, j) => {
      const inp = (key, name) => el('input', { type: 'number', value: String(c[key]), 'aria-label': `joint ${j + 1} ${name}`, 'data-field': key, 'data-joint': String(j),
        onchange: (e) => { c[key] = Number(e.target.value); } });
      ui.cfg.append(el('tr', {}, el('td', {}, String(j + 1)), ...FIELDS.map(([key, , name]) => el('td', {}, inp(key, name)))),
        el('tr', { class: 'ctl-cfg-limits' }, el('td', {}), el('td', { colspan: String(FIELDS.length) },
          `limits ${(c.qMin * DEG).toFixed(0)}° … ${(c.qMax * DEG).toFixed(0)}°, v ${(c.vMax * DEG).toFixed(0)}°/s, a ${(c.aMax * DEG).toFixed(0)}°/s²`)));
    });
  }

  function makePlot(n) {
    plot?.destroy();
    const colors = ['#a855f7', '#38bdf8', '#22c55e', '#f59e0b', '#ef4444', '#e2e8f0'];
    const series = [{}];
    for (let j = 0; j < n; j++) series.push({ label: `q${j + 1} cmd`, stroke: colors[j], dash: [6, 4], width: 1 });
    for (let j = 0; j < n; j++) series.push({ label: `q${j + 1} meas`, stroke: colors[j], width: 2 });
    const width = Math.max(260, (container.clientWidth || 300) - 8);
    // the y range spans at least 1°: a few thousandths of a degree of servo noise do not fill the plot
    const atLeastOneDegree = (u, min, max) => {
      const mid = (min + max) / 2;
      const half = Math.max((max - min) / 2, 0.5) * 1.05;
      return [mid - half, mid + half];
    };
    ui.plotKey.replaceChildren(...Array.from({ length: n }, (_, j) => el('span', { style: `color:${colors[j]}` }, `q${j + 1}`)),
      el('span', {}, 'dashed: commanded · solid: measured'));
    // hover readout: t and each joint's commanded / measured angle at the cursor
    const hover = (u) => {
      const k = u.cursor.idx;
      if (k == null || k < 0 || u.data[0][k] == null) { ui.plotHover.textContent = '\u00a0'; return; }
      const f = (v) => (v == null ? '–' : `${v.toFixed(3)}°`);
      ui.plotHover.textContent = [`t ${u.data[0][k].toFixed(2)} s`,
        ...Array.from({ length: n }, (_, j) => `q${j + 1} ${f(u.data[1 + j][k])} cmd / ${f(u.data[1 + n + j][k])} meas`)].join(' · ');
    };
    plot = new uPlot({ width, height: 180, series, legend: { show: false }, scales: { x: { time: false }, y: { range: atLeastOneDegree } },
      axes: [{ stroke: '#94a3b8', label: 's' }, { stroke: '#94a3b8', label: 'deg' }], hooks: { setCursor: [hover] } },
    [[], ...series.slice(1).map(() => [])], ui.plot);
  }

  function onStatus(s) {
    ui.state.textContent = `${s.state}${s.estop ? ' — E-STOP ENGAGED' : ''}   t=${s.time.toFixed(2)} s   segment ${s.segmentId}   traj ${s.trajTime.toFixed(2)} s`;
    ui.state.className = `ctl-state ${s.estop ? 'estop' : s.state}`;
    ui.stopbar.querySelector('.ctl-estop').classList.toggle('engaged', s.estop);
    ui.buffer.firstChild.style.width = `${(100 * s.queueFill) / (streamer.caps.queueCapacity || 64)}%`;
    const total = streamer.sending?.total ?? 0;
    ui.progress.firstChild.style.width = total ? `${Math.min(100, (100 * streamer.sending.done) / total)}%` : '0%';
    const c = streamer.counters;
    ui.stats.textContent = `sent ${c.framesSent}, resent ${c.framesResent}, NAKs ${c.naks}, CRC errors ${c.rxCrcErrors}, statuses ${c.statuses}`;
    // plots: last 10 s (positions mean nothing before the joints are configured)
    if (s.state === 'unconfigured') return;
    history.t.push(s.time);
    history.cmd.push(s.qCmd.map((x) => x * DEG));
    history.meas.push(s.q.map((x) => x * DEG));
    while (history.t.length && history.t[0] < s.time - 10) { history.t.shift(); history.cmd.shift(); history.meas.shift(); }
    if (plot && history.t.length % 3 === 0) {
      const n = s.q.length;
      const data = [history.t];
      for (let j = 0; j < n; j++) data.push(history.cmd.map((r) => r[j]));
      for (let j = 0; j < n; j++) data.push(history.meas.map((r) => r[j]));
      plot.setData(data);
    }
    if (followMeasured && !teleop) ctx.setQ(s.q);
  }

  function onFaults(e) {
    ui.faults.replaceChildren(...e.faults.map((f) => el('div', {}, `${f.name}: ${f.text}`)));
  }

  async function connect() {
    say('');
    try {
      bridge ??= await loadBridge();
      const baud = Number(ui.baud.value) || 115200;
      const serial = ui.source.value === 'serial';
      // The engine and the link run in a worker (WorkerStreamer): a busy page does not delay heartbeats or segments.
      // A real controller is declared silent after the engine's 5 status periods (100 ms). The virtual one is a worker
      // of this page too: a busy machine can delay its statuses that long with nothing wrong (a clean stream in the
      // browser tests failed "silent … 112 ms"), so it gets VIRTUAL_SILENCE_PERIODS; its watchdog is unchanged.
      streamer = await WorkerStreamer.open({ source: serial ? 'serial' : 'virtual', baudRate: baud, silencePeriods: serial ? undefined : VIRTUAL_SILENCE_PERIODS });
      streamer.addEventListener('status', (e) => onStatus(e.status));
      streamer.addEventListener('faults', onFaults);
      streamer.addEventListener('link-lost', (e) => { say(`Link lost: ${e.reason}. The controller's watchdog stops a moving arm; reconnect when ready.`); disconnect(); });
      const caps = await streamer.connect();
      configs = jointConfigs(bridge, ctx.achain, ctx.getModel?.(), caps.joints);
      const modelDof = ctx.getModel?.()?.dof;
      if (modelDof && modelDof !== caps.joints) say(`The controller has ${caps.joints} joints, the studio's model ${modelDof}: teleoperation is off.`);
      renderConfig();
      makePlot(caps.joints);
      await streamer.configure(configs);
      document.body.append(ui.stopbar);
      setEnabled(true);
      say(`Connected: ${caps.joints} joints, ${caps.servoHz} Hz servo, queue ${caps.queueCapacity}.`);
    } catch (e) {
      say(`Cannot connect: ${e.message}`);
      await disconnect();
    }
  }

  async function disconnect() {
    const s = streamer;
    streamer = null;
    setEnabled(false);
    ui.stopbar.remove();
    ui.state.textContent = 'not connected';
    ui.state.className = 'ctl-state';
    if (s) await s.close().catch(() => {});
  }

  async function applyConfig() {
    try {
      await streamer.configure(configs);
      ui.cfgMsg.textContent = 'Configuration applied.';
    } catch (e) {
      ui.cfgMsg.textContent = `Configuration failed: ${e.message}`;
    }
  }

  async function setTrajectory(traj, name) {
    try {
      bridge ??= await loadBridge();
      const v = bridge.validateTrajectory(traj);
      trajectory = traj;
      ui.trajName.textContent = `${name}: ${v.samples} samples, ${v.duration.toFixed(2)} s, ${v.dof} joints`;
    } catch (e) {
      ui.trajName.textContent = `Trajectory refused: ${e.message}`;
    }
  }
  function usePlanned() {
    const t = ctx.getTrajectory?.();
    if (t) setTrajectory(t, 'planned trajectory');
    else ui.trajName.textContent = 'No planned trajectory in the studio yet: plan one in Motion first.';
  }
  async function loadFile(e) {
    const f = e.target.files?.[0];
    if (!f) return;
    try {
      setTrajectory(JSON.parse(await readFileText(f, 'the file')), f.name);
    } catch (err) {
      ui.trajName.textContent = `${f.name}: ${err.message}`;
    }
  }

  // Messages about sending appear under the Send button (sayNear), the rest at the foot of the panel.
  const sayNear = (msg) => { ui.sendMsg.textContent = msg; };
  let running = false; // a send (with or without its move to the start) is streaming

  /** Where the trajectory starts, per joint (SI), from an achain-trajectory object or its JSON text. */
  function startOf(traj) {
    const t = typeof traj === 'string' ? JSON.parse(traj) : traj;
    return Array.from(t.q[0]);
  }

  const degList = (q) => q.map((x) => (x * DEG).toFixed(1)).join(', ');

  /**
   * Streams the trajectory. The core's send job refuses a start away from the arm's commanded position
   * ("… move there first"); then the panel offers "Move to start, then run", which sends the same
   * trajectory with approach: true (the core plans the move to the start within the configured joint
   * limits, as `achain send --approach`).
   */
  async function send() {
    if (!streamer || !trajectory) { sayNear(streamer ? 'Choose a trajectory first.' : 'Connect first.'); return; }
    const st = streamer.status;
    if (st.estop || st.faults) {
      sayNear(st.estop ? 'The controller is in emergency stop: clear faults once the cell is safe, then send again.'
        : 'The controller has latched faults (listed above): clear them first, then send again.');
      return;
    }
    ui.toStart.hidden = true;
    const r = await run(trajectory, 'Streaming');
    if (r.ok || !/move there first/.test(r.error)) return;
    ui.toStart.hidden = false;
    sayNear(`The arm is at (${degList(Array.from(streamer.status.qCmd))})°, the trajectory starts at (${degList(startOf(trajectory))})°: ` +
      'move to the start first: "Move to start, then run" plans that move within the joint limits and then runs the trajectory.');
  }

  async function moveToStart() {
    if (!streamer || !trajectory) return;
    ui.toStart.hidden = true;
    await run(trajectory, 'Moving to the start, then streaming', true);
  }

  /**
   * Streams one trajectory (after the core's move to its start when `approach`); reports under the Send
   * button. Resolves {ok: true} when it finished without faults, else {ok: false, error}.
   */
  async function run(traj, what, approach = false) {
    running = true;
    try {
      streamer.sending = { total: 0, done: 0 };
      sayNear(`${what}…`);
      const m = ctx.getModel?.();
      const r = await streamer.sendTrajectory(traj, {
        approach,
        // a refusal in the studio's units: degrees for rotary joints, metres for prismatic ones
        angular: m && m.dof === streamer.caps.joints ? m.coordinates.map((j) => j.angular) : undefined,
        onProgress: (p) => { if (streamer) streamer.sending = { total: p.segmentsTotal, done: p.segmentsDone }; },
      });
      sayNear(`${what}: done, final error ${r.finalError.map((x) => (x * DEG).toFixed(3)).join(', ')}° (max ${(r.maxAbsError * DEG).toFixed(3)}°).`);
      return { ok: true };
    } catch (e) {
      sayNear(`${what}: ${e.message}`);
      return { ok: false, error: e.message };
    } finally {
      running = false;
    }
  }

  // teleoperation: the studio's joint vector, rate-limited to 50 Hz
  offQ = ctx.onQ?.((q, source) => {
    if (!teleop || !streamer || source === 'controller') return;
    if (ctx.getModel?.()?.dof !== streamer.caps.joints) return;
    const now = performance.now();
    if (now - lastTeleop < 20) return;
    lastTeleop = now;
    streamer.streamTarget(Array.from(q), 0.1);
  });

  // a previously granted device plugged back in: offer to reconnect (never resume motion by itself)
  const onSerialConnect = () => {
    if (!streamer && ui.source.value === 'serial') say('A granted serial device was plugged in: click Connect to reconnect (the controller starts idle).');
  };
  if (!serialWhy) navigator.serial.addEventListener('connect', onSerialConnect);

  // e-stop on the space bar whatever has the focus (number fields and text fields included) while a
  // controller is connected: captured on window before any other handler, and the key does nothing else.
  const onKey = (e) => {
    if (!streamer || (e.code !== 'Space' && e.key !== ' ')) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (!e.repeat) streamer.estop();
  };
  window.addEventListener('keydown', onKey, true);

  return {
    activate() { if (plot && container.clientWidth) plot.setSize({ width: Math.max(260, container.clientWidth - 8), height: 180 }); },
    deactivate() {},
    async dispose() {
      window.removeEventListener('keydown', onKey, true);
      if (!serialWhy) navigator.serial.removeEventListener('connect', onSerialConnect);
      if (typeof offQ === 'function') offQ();
      await disconnect();
      plot?.destroy();
    },
    /** True while a trajectory streams to the controller (the studio asks before switching robot). */
    get busy() { return running && !!streamer; },
    /** Controlled stop of whatever runs. */
    stop() { streamer?.stop(); },
    // for tests and scripting
    get streamer() { return streamer; },
    get plot() { return plot; },
    connect,
    send,
    setTrajectory,
  };
}
