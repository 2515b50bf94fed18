// The Controller view's servo-bus panel (issue 33): a Dynamixel or a Feetech bus on a WebSerial port (a USB
// adapter) or simulated in the page. Scan, calibrate (guided, at the zero pose), connect, torque, teleoperate
// from the studio's joints (the IK gizmo and the sliders), send the Motion view's plan, and a live twin: the arm
// as the servos measure it, drawn in orange beside the commanded one. The host runs in a worker
// (firmware-bridge/js/servo.worker.mjs) and every job is the C++ one; this panel draws and routes events.
import { loadServoBus } from '../../../firmware-bridge/js/servo.mjs';
import { ServoBusSession } from '../../../firmware-bridge/js/servo_session.mjs';
import { webSerialUnavailableReason } from '../../../firmware-bridge/js/transports.mjs';
import { el, ensureControllerStyle } from './ui.js';
import { readFileText } from '../ui/readFile.js';

/** The built-in arms' default calibrations (core/robots/calibration/<robot>.<protocol>.json), as text. */
const BUILTIN_CALIBRATIONS = import.meta.glob('../../../core/robots/calibration/*.json', { query: '?raw', import: 'default', eager: true });
const builtinCalibration = (robot, protocol) => {
  const key = Object.keys(BUILTIN_CALIBRATIONS).find((k) => k.endsWith(`/${robot}.${protocol}.json`));
  return key ? { name: key.split('/').pop(), text: BUILTIN_CALIBRATIONS[key] } : null;
};
const PROTOCOL_TEXT = { dynamixel: 'Dynamixel', feetech: 'Feetech' };
const MAX_ID = 252;  // the highest ID a scan pings (both protocols; 253/254 are reserved or broadcast)
const BAUDS = [1000000, 2000000, 3000000, 4000000, 57600, 115200, 500000];
const DEG = 180 / Math.PI;
const TELEOP_MS = 10;  // one goal per host period (100 Hz)

/**
 * Mounts the panel for one protocol into container. ctx: the Controller view's context (getModel, getQ, setQ,
 * onQ, onModel, getTrajectory, setMeasured, getCalibration/setCalibration: the studio session's calibration).
 */
export function mountBusPanel(container, ctx, protocol) {
  ensureControllerStyle();
  const P = PROTOCOL_TEXT[protocol];
  const ui = {};
  let session = null;
  let calibration = null;  // {key, text, from, json}: the joint map to connect with (json: its text, parsed once)
  const useCalibration = (c) => { calibration = c ? { ...c, json: JSON.parse(c.text) } : null; };
  let connected = false;
  let teleop = false;
  let lastTeleop = 0;
  let sending = false;
  const serialWhy = webSerialUnavailableReason();
  const model = () => ctx.getModel();

  // ---------------- DOM ----------------
  const tid = (name) => `bus-${name}`;
  ui.source = el('select', { 'data-testid': tid('source'), 'aria-label': `${P} bus: where` },
    el('option', { value: 'sim', text: 'Simulated bus (in the page)' }),
    el('option', { value: 'serial', text: 'Serial port (WebSerial)', title: 'a USB adapter on the servos\' bus' }));
  if (serialWhy) ui.source.options[1].disabled = true;
  ui.baud = el('select', { 'aria-label': 'baud rate', title: 'the bus\'s baud rate' }, ...BAUDS.map((b) => el('option', { value: String(b), text: `${b / 1000} kbit/s` })));
  ui.echo = el('input', { type: 'checkbox', 'data-testid': tid('echo'), 'aria-label': 'the adapter echoes what it sends' });
  ui.echoLabel = el('label', { title: 'a half-duplex adapter without direction control (TX and RX tied) returns every byte sent: the host reads its own packets back and discards them (the simulated bus then echoes too)' }, ui.echo, ' adapter echoes');
  ui.open = el('button', { class: 'primary', 'data-testid': tid('open'), onclick: () => (session ? close() : open()) }, 'Open bus');
  ui.message = el('div', { class: 'ctl-na', 'data-testid': tid('message') });
  ui.state = el('div', { class: 'ctl-state', 'data-testid': tid('state') }, 'bus closed');
  ui.error = el('div', { class: 'ctl-faults', 'data-testid': tid('error') });
  ui.clear = el('button', { 'data-testid': tid('clear'), disabled: '', onclick: () => reconnect(), title: 'connects again with the calibration: the servos are read afresh, torque stays off' }, 'Clear fault (reconnect)');
  ui.allBauds = el('input', { type: 'checkbox', 'aria-label': 'scan every baud rate' });
  ui.scan = el('button', { 'data-testid': tid('scan'), disabled: '', onclick: scan }, 'Scan');
  ui.found = el('table', { class: 'ctl-cfg', 'data-testid': tid('found') });
  ui.calSelect = el('select', { 'data-testid': tid('calibration'), 'aria-label': 'calibration', style: 'max-width: 100%', onchange: () => { chooseCalibration(); ui.calSelect.title = ui.calSelect.selectedOptions[0]?.text ?? ''; } });
  ui.calFile = el('input', { type: 'file', accept: '.json,application/json', 'aria-label': 'calibration file', onchange: loadCalibrationFile });
  ui.calibrate = el('button', { 'data-testid': tid('calibrate'), disabled: '', onclick: () => guide(1) }, 'Calibrate at zero…');
  ui.download = el('button', { disabled: '', onclick: downloadCalibration, title: 'the calibration file, for `achain send --bus … --calibration`' }, 'Download');
  ui.guide = el('div', { class: 'bus-guide', 'data-testid': tid('guide'), hidden: '' });
  ui.connect = el('button', { class: 'primary', 'data-testid': tid('connect'), disabled: '', onclick: connect }, 'Connect');
  ui.torqueOn = el('button', { 'data-testid': tid('torque-on'), disabled: '', onclick: () => torque(true) }, 'Torque on');
  ui.torqueOff = el('button', { 'data-testid': tid('torque-off'), disabled: '', onclick: () => torque(false) }, 'Torque off');
  ui.estopAction = el('select', { 'aria-label': 'what E-STOP does', title: 'what E-STOP and a bus error do to the servos', onchange: () => session?.setEstopAction(ui.estopAction.value) },
    el('option', { value: 'torque-off', text: 'E-STOP: torque off' }), el('option', { value: 'hold', text: 'E-STOP: hold where they stand' }));
  ui.twin = el('input', { type: 'checkbox', checked: '', 'data-testid': tid('twin'), onchange: () => { if (!ui.twin.checked) ctx.setMeasured(null); } });
  ui.follow = el('input', { type: 'checkbox', 'data-testid': tid('follow') });
  ui.teleop = el('input', { type: 'checkbox', 'data-testid': tid('teleop'), disabled: '', onchange: (e) => setTeleop(e.target.checked) });
  ui.send = el('button', { class: 'primary', 'data-testid': tid('send'), disabled: '', onclick: send, title: 'the Motion view\'s planned move, streamed at 100 Hz' }, 'Send the planned move');
  ui.progress = el('div', { class: 'ctl-meter ctl-progress', title: 'trajectory time' }, el('div'));
  ui.sendMsg = el('div', { class: 'ctl-na', 'data-testid': tid('send-message') });
  ui.faultKind = el('select', { 'aria-label': 'fault to inject', 'data-testid': tid('fault-kind') },
    el('option', { value: 'corrupt', text: 'corrupt replies (CRC / checksum)' }), el('option', { value: 'silence', text: 'a servo stops answering' }),
    el('option', { value: 'overload', text: 'overload bit' }), el('option', { value: 'clear', text: 'clear the injected faults' }));
  ui.faultId = el('input', { type: 'number', min: '0', max: String(MAX_ID), value: '3', 'aria-label': 'servo ID', style: 'width: 5em' });
  ui.inject = el('button', { 'data-testid': tid('inject'), onclick: inject, title: 'what a real bus does now and then: see the message, the safe state and how to clear it' }, 'Inject');
  ui.faultRow = el('div', { class: 'ctl-row', hidden: '' }, 'simulated fault:', ui.faultKind, 'on ID', ui.faultId, ui.inject);
  ui.joints = el('table', { class: 'bus-joints', 'data-testid': tid('joints') });
  ui.stats = el('div', { class: 'ctl-stats', 'data-testid': tid('stats') });
  ui.stopbar = el('div', { class: 'ctl-stopbar' },
    el('button', { class: 'ctl-estop', 'data-testid': tid('estop'), title: 'emergency stop (space bar, whatever has the focus): the E-STOP action on every servo', onclick: () => estop() }, 'E-STOP (Space)'));

  container.append(
    el('div', { class: 'ctl-row' }, ui.source, ui.baud, ui.echoLabel, ui.open),
    serialWhy ? el('div', { class: 'ctl-na' }, serialWhy) : '',
    ui.message, ui.state, ui.error, el('div', { class: 'ctl-row' }, ui.clear),
    el('h3', {}, 'Servos on the bus'),
    el('div', { class: 'ctl-row' }, ui.scan, el('label', {}, ui.allBauds, ' every baud rate')), ui.found,
    el('h3', {}, 'Calibration'),
    el('div', { class: 'ctl-row' }, ui.calSelect),
    el('div', { class: 'ctl-row' }, ui.calibrate, ui.calFile, ui.download), ui.guide,
    el('div', { class: 'ctl-row' }, ui.connect),
    el('h3', {}, 'The arm'),
    el('div', { class: 'ctl-row' }, ui.torqueOn, ui.torqueOff, ui.estopAction),
    el('label', { class: 'ctl-row', title: 'the arm as the servos measure it, drawn in orange beside the commanded arm' }, ui.twin, 'live twin (measured pose, orange)'),
    el('label', { class: 'ctl-row', title: 'with torque off, move the real arm by hand: the studio follows it' }, ui.follow, 'studio arm follows the measured pose'),
    el('label', { class: 'ctl-row', title: 'the IK gizmo and the sliders move the arm' }, ui.teleop, 'teleoperate: stream the studio\'s joints'),
    el('div', { class: 'ctl-row' }, ui.send, ui.progress), ui.sendMsg,
    ui.joints, ui.stats, ui.faultRow);

  // ---------------- behaviour ----------------
  const say = (text) => { ui.message.textContent = text; };
  const setEnabled = () => {
    const open = !!session;
    ui.scan.disabled = !open || sending;
    ui.calibrate.disabled = !open || sending;
    ui.connect.disabled = !open || !calibration || sending;
    for (const b of [ui.torqueOn, ui.torqueOff, ui.teleop]) b.disabled = !connected || sending;
    ui.send.disabled = !connected || sending || teleop;
    ui.clear.disabled = !open || !calibration;
    ui.download.disabled = !calibration;
    ui.open.textContent = open ? 'Close bus' : 'Open bus';
    ui.source.disabled = ui.baud.disabled = ui.echo.disabled = open;
    ui.faultRow.hidden = !open || session.source !== 'sim';
  };

  /** The calibrations offered: the session's (taken here, or read from a file), the robot's built-in one. */
  function listCalibrations() {
    const m = model();
    const kept = ctx.getCalibration?.();
    const builtin = m ? builtinCalibration(m.name, protocol) : null;
    const opts = [el('option', { value: '', text: 'no calibration yet: calibrate, or load a file' })];
    if (kept && kept.protocol === protocol && kept.robot === m?.name) opts.push(el('option', { value: 'session', text: `this session's (${kept.from})` }));
    if (builtin) opts.push(el('option', { value: 'builtin', text: `built-in ${builtin.name}` }));
    ui.calSelect.replaceChildren(...opts);
    const pick = calibration ? calibration.key : opts.length > 1 ? opts[1].value : '';
    ui.calSelect.value = pick;
    chooseCalibration();
  }
  function chooseCalibration() {
    const m = model();
    const v = ui.calSelect.value;
    const kept = ctx.getCalibration?.();
    if (v === 'session' && kept) useCalibration({ key: 'session', text: kept.text, from: kept.from });
    else if (v === 'builtin') { const b = builtinCalibration(m.name, protocol); useCalibration({ key: 'builtin', text: b.text, from: b.name }); }
    else useCalibration(null);
    if (calibration) ui.baud.value = String(calibration.json.baud);
    setEnabled();
  }
  async function loadCalibrationFile(e) {
    const f = e.target.files?.[0];
    if (!f) return;
    try {
      const sb = await loadServoBus();
      const text = sb.servoCalibrationFromJson(await readFileText(f, 'the file'));  // the C++ reader names what is wrong
      if (JSON.parse(text).protocol !== protocol) throw new Error(`it is for a ${JSON.parse(text).protocol} bus, this is the ${P} bus`);
      useCalibration({ key: 'session', text, from: f.name });
      keepCalibration(text, f.name);  // a file read is this session's calibration from now on
      listCalibrations();
      say(`Calibration ${f.name} read: ${JSON.parse(text).joints.length} joints.`);
    } catch (err) {
      say(`Calibration ${f.name}: ${err.message}`);
    }
    e.target.value = '';
  }
  function keepCalibration(text, from) {
    ctx.setCalibration?.({ robot: model()?.name, protocol, text, from });
  }
  function downloadCalibration() {
    if (!calibration) return;
    const a = el('a', { href: URL.createObjectURL(new Blob([calibration.text], { type: 'application/json' })), download: `${model()?.name ?? 'arm'}.${protocol}.json` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  /** The simulated servos: the calibration's IDs (or 1 … n), standing a little off their zero, as an arm at rest. */
  function simServos() {
    const m = model();
    const cal = calibration?.json;
    const ids = cal ? cal.joints.map((j) => j.id) : Array.from({ length: m?.dof ?? 6 }, (_, i) => i + 1);
    return ids.map((id, i) => ({ id, startPosition: (cal ? cal.joints[i].zero_offset : 2048) + 40 * (i % 2 ? -1 : 1) }));
  }

  async function open() {
    say(`Opening the ${P} bus…`);
    try {
      session = await ServoBusSession.open({ protocol, source: ui.source.value, servos: simServos(), baudRate: Number(ui.baud.value),
        hostOptions: { estopAction: ui.estopAction.value, echo: ui.echo.checked } });
    } catch (e) {
      session = null;
      say(`The ${P} bus did not open: ${e.message}`);
      setEnabled();
      return;
    }
    session.addEventListener('snap', (e) => onSnap(e.snap));
    session.addEventListener('link-lost', (e) => { say(`The ${P} bus link was lost: ${e.reason}`); });
    document.body.append(ui.stopbar);
    say(ui.source.value === 'sim' ? `A simulated ${P} bus runs in the page: ${simServos().length} servos. Scan, or connect with the calibration.`
      : `The port is open at ${ui.baud.value} baud. Scan to find the servos.`);
    setEnabled();
  }
  async function close() {
    const s = session;
    session = null;
    connected = false;
    setTeleop(false);
    ui.stopbar.remove();
    ctx.setMeasured(null);
    await s?.close();
    ui.state.textContent = 'bus closed';
    ui.state.className = 'ctl-state';
    setEnabled();
  }

  async function scan() {
    const bauds = ui.allBauds.checked ? BAUDS : [Number(ui.baud.value)];
    say(`Scanning IDs 0 … ${MAX_ID} at ${bauds.map((b) => `${b / 1000} k`).join(', ')}…`);
    ui.scan.disabled = true;
    try {
      const found = await session.scan(Array.from({ length: MAX_ID + 1 }, (_, i) => i), bauds);
      ui.found.replaceChildren(el('tr', {}, el('th', {}, 'ID'), el('th', {}, 'model'), el('th', {}, 'baud')),
        ...found.map((f) => el('tr', {}, el('td', {}, String(f.id)), el('td', {}, f.modelName), el('td', {}, String(f.baud)))));
      say(found.length ? `${found.length} servo${found.length > 1 ? 's' : ''} answered.` : 'No servo answered: check power, wiring and the baud rate (or scan every baud rate).');
      connected = false;  // a scan leaves the host unconnected
    } catch (e) {
      say(/^scan/i.test(e.message) ? e.message : `Scan: ${e.message}`);
    }
    setEnabled();
  }

  async function connect() {
    if (!calibration) return;
    const m = model();
    const cal = calibration.json;
    if (m && cal.joints.length !== m.dof) {
      say(`The calibration has ${cal.joints.length} joints, ${m.name} has ${m.dof}: load the robot it was made for.`);
      return;
    }
    say(`Connecting with ${calibration.from}…`);
    try {
      await session.connect(calibration.text);
      connected = true;
      say(`Connected: ${cal.joints.length} servos read (${calibration.from}). Torque is as it was; the orange twin is the arm as measured.`);
    } catch (e) {
      connected = false;
      say(`Connect: ${e.message}`);
    }
    setEnabled();
  }
  const reconnect = connect;

  async function torque(on) {
    try {
      if (!on && teleop) setTeleop(false);
      await session.torque(on);
      say(on ? 'Torque on where each servo stands (no jump).' : 'Torque off: the arm can be moved by hand.');
    } catch (e) {
      say(`Torque ${on ? 'on' : 'off'}: ${e.message}`);
    }
  }

  async function setTeleop(on) {
    teleop = !!on && !!session && connected;
    ui.teleop.checked = teleop;
    setEnabled();
    if (!session) return;
    try {
      await session.teleop(teleop);
      if (teleop) {
        const refusal = await session.follow(ctx.getQ());
        say(refusal ? `Teleoperation on; the studio's pose is refused: ${refusal}` : 'Teleoperation on: the arm follows the studio (IK gizmo, sliders) under each joint\'s speed limit.');
      }
    } catch (e) {
      teleop = false;
      ui.teleop.checked = false;
      say(`Teleoperation: ${e.message}`);
      setEnabled();
    }
  }

  async function send() {
    const traj = ctx.getTrajectory?.();
    if (!traj) { say('Plan a move in the Motion view first: Send streams that plan.'); return; }
    sending = true;
    setEnabled();
    ui.sendMsg.textContent = 'Sending…';
    try {
      const r = await session.send(traj, { settle: 0.3 });
      ui.sendMsg.textContent = r.ok
        ? `Done: ${r.elapsed.toFixed(2)} s after a ${r.approach.toFixed(2)} s move to the start; final error ${r.finalErrorCounts.map((c) => `${c}`).join(', ')} counts (${r.periods} periods, ${r.overruns} overruns).`
        : `Not done: ${r.error}`;
    } catch (e) {
      ui.sendMsg.textContent = `Send: ${e.message}`;
    } finally {
      sending = false;
      setEnabled();
    }
  }

  async function inject() {
    try {
      await session.inject(ui.faultKind.value, Number(ui.faultId.value));
      say(ui.faultKind.value === 'clear' ? `Injected faults on ID ${ui.faultId.value} cleared: Clear fault (reconnect) reads the servos afresh.`
        : `Injected on ID ${ui.faultId.value}: ${ui.faultKind.selectedOptions[0].text}. The host notices it at its next transaction with that servo.`);
    } catch (e) {
      say(`Inject: ${e.message}`);
    }
  }

  async function estop() {
    if (!session) return;
    try {
      const safe = session.estop();  // first: nothing else goes before it
      if (teleop) setTeleop(false);
      say(`E-STOP: ${await safe}.`);
    } catch (e) {
      say(`E-STOP: ${e.message}`);
    }
  }

  // ---------------- guided calibration ----------------
  /** A picture of what the step asks for: the studio's view of the arm at that pose. */
  function picture(alt) {
    const canvas = document.querySelector('.viewport canvas, canvas');
    const img = el('img', { alt, class: 'bus-picture', 'data-testid': tid('picture') });
    try { img.src = canvas.toDataURL('image/png'); } catch { img.alt = `${alt} (no picture: the 3D view is not drawn)`; }
    return img;
  }
  async function guide(step) {
    const m = model();
    ui.guide.hidden = false;
    if (step === 1) {
      const zero = new Float64Array(m.dof);
      ctx.setQ(zero);
      await frames();
      const builtin = builtinCalibration(m.name, protocol);
      const ids = builtin ? JSON.parse(builtin.text).joints.map((j) => j.id) : Array.from({ length: m.dof }, (_, i) => i + 1);
      ui.ids = el('input', { type: 'text', value: ids.join(','), 'aria-label': 'servo IDs, one per joint', 'data-testid': tid('ids'), style: 'width: 12em' });
      ui.dirs = el('input', { type: 'text', value: ids.map(() => 1).join(','), 'aria-label': 'directions, one per joint (1 or -1)', style: 'width: 12em' });
      ui.guide.replaceChildren(
        el('div', { class: 'bus-step' }, `Step 1 of 3 — ${m.name} at its zero pose. Torque goes off; move the arm by hand to the pose in the picture (every joint at 0), then take the zero.`),
        picture(`${m.name} at the zero pose`),
        el('div', { class: 'ctl-row' }, el('label', {}, 'servo IDs q1…qn ', ui.ids)),
        el('div', { class: 'ctl-row' }, el('label', {}, 'directions ', ui.dirs)),
        el('div', { class: 'ctl-row' },
          el('button', { class: 'primary', 'data-testid': tid('take-zero'), onclick: takeZero }, 'Take zero here'),
          el('button', { onclick: () => { ui.guide.hidden = true; } }, 'Cancel')));
      try { await session.torque(false); } catch { /* not connected yet: nothing holds the arm */ }
    }
  }
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  async function takeZero() {
    const m = model();
    const list = (s) => s.split(/[\s,]+/).filter(Boolean).map(Number);
    try {
      const text = await session.calibrateAtZero(m.modelToJson(), Number(ui.baud.value), list(ui.ids.value), list(ui.dirs.value));
      storeCalibration(text, 'taken at zero');
      connected = true;
      say(`Calibrated at zero: ${JSON.parse(text).joints.length} joints; zero offsets ${JSON.parse(text).joints.map((j) => j.zero_offset).join(', ')} counts.`);
      await limitStep(0, false);
    } catch (e) {
      say(`Calibration: ${e.message}`);
    }
    setEnabled();
  }
  function storeCalibration(text, from) {
    useCalibration({ key: 'session', text, from });
    keepCalibration(text, from);
    listCalibrations();
  }
  /** Step 2 of 3: each joint's two ends of travel, one at a time, the picture showing the model at that end. */
  async function limitStep(j, upper) {
    const m = model();
    if (j >= m.dof) return checkStep();
    const c = m.coordinates[j];
    const which = upper ? 'upper' : 'lower';
    const end = upper ? (c.upper ?? Math.PI / 2) : (c.lower ?? -Math.PI / 2);  // the picture's pose (an unbounded joint: ±90°)
    const pose = new Float64Array(m.dof);
    pose[j] = end;
    ctx.setQ(pose);
    await frames();
    const next = () => limitStep(upper ? j + 1 : j, !upper);
    const sim = session?.source === 'sim';
    ui.guide.replaceChildren(
      el('div', { class: 'bus-step' }, `Step 2 of 3 — the limits, joint ${j + 1} of ${m.dof}: move q${j + 1} ${c.name} by hand to its ${which} end ` +
        `(the picture: the model's ${which} limit, ${(end * DEG).toFixed(1)}°), then record it. The limit is kept 1° inside the end measured, ` +
        `never past the model's; streams are refused beyond it.${sim ? ' On the simulated bus, Record first turns the servo there as a hand would.' : ''}`),
      picture(`${m.name}: q${j + 1} at its ${which} end`),
      el('div', { class: 'ctl-row' },
        el('button', { class: 'primary', 'data-testid': tid('record-limit'), onclick: () => recordLimit(j, upper, sim ? end : null, next) }, `Record the ${which} end`),
        el('button', { 'data-testid': tid('skip-limit'), onclick: next, title: 'keep this limit as it is (the model\'s, or one servo turn)' }, 'Skip'),
        el('button', { 'data-testid': tid('finish-limits'), onclick: checkStep, title: 'keep the remaining limits as they are' }, 'Done with the limits')));
  }
  async function recordLimit(j, upper, handQ, next) {
    const m = model();
    try {
      const r = await session.limitAtPresent(m.modelToJson(), calibration.text, j, upper, handQ);
      storeCalibration(r.calibration, 'taken at zero and the limits');
      const limit = calibration.json.joints[j][upper ? 'max' : 'min'];
      say(`q${j + 1} ${upper ? 'upper' : 'lower'} limit: ${(limit * DEG).toFixed(1)}°.${r.note ? ` ${r.note}.` : ''}`);
      await next();
    } catch (e) {
      say(`Limits: ${e.message}`);  // stays on this step
    }
  }
  /** Step 3 of 3: the calibration in use; the range notes; keep it, or start again. */
  async function checkStep() {
    const m = model();
    ctx.setQ(new Float64Array(m.dof));
    await frames();
    const sb = await loadServoBus();
    const notes = sb.rangeNotes(calibration.text, m);
    const range = (x) => `${(x.min * DEG).toFixed(1)}° … ${(x.max * DEG).toFixed(1)}°`;
    ui.guide.replaceChildren(
      el('div', { class: 'bus-step' }, 'Step 3 of 3 — check. Move each joint by hand through its range: the orange twin follows the arm as now calibrated, and the table marks a joint past its limits (the stream refuses goals there). If a joint turns the wrong way, set its direction to -1 and take the zero again.'),
      picture(`${m.name}: the measured pose`),
      el('div', { class: 'ctl-na', 'data-testid': tid('limits') }, `limits: ${calibration.json.joints.map((x, i) => `q${i + 1} ${range(x)}`).join('; ')}`),
      ...notes.map((n) => el('div', { class: 'ctl-na' }, n)),
      el('div', { class: 'ctl-row' },
        el('button', { class: 'primary', 'data-testid': tid('keep'), onclick: () => { ui.guide.hidden = true; say('Calibration kept in this session (Download saves the file).'); } }, 'Keep this calibration'),
        el('button', { onclick: () => guide(1) }, 'Take the zero again')));
  }

  // ---------------- the live state ----------------
  let snapCount = 0;
  function onSnap(s) {
    if (!s) return;
    snapCount++;
    const m = model();
    const cal = calibration?.json;
    ui.state.textContent = `${s.link === 'sim' ? 'simulated bus' : 'serial port'} at ${s.baud / 1000} kbit/s — ${s.estopped ? 'E-STOP' : s.streaming ? 'streaming' : s.monitoring ? 'monitoring' : s.busy ? 'busy' : s.ready ? 'connected' : 'open'}` +
      (s.job ? ` — ${s.job.phase} ${s.job.t.toFixed(2)} / ${s.job.duration.toFixed(2)} s` : '');
    ui.state.className = `ctl-state ${s.error || s.estopped ? 'estop' : ''}`;
    ui.error.replaceChildren(...(s.error ? [el('div', {}, s.error)] : []));
    if (s.error && teleop) {  // the host stopped streaming in its safe state: teleoperation is off until reconnected
      teleop = false;
      ui.teleop.checked = false;
      setEnabled();
    }
    ui.progress.firstChild.style.width = s.job && s.job.duration ? `${Math.min(100, (100 * s.job.t) / s.job.duration)}%` : sending ? '0%' : ui.progress.firstChild.style.width;
    // a streaming period's bytes and wire time (the monitor's reads are not periods of a stream)
    ui.stats.textContent = `periods ${s.periods}, overruns ${s.overruns}` + (s.streaming && s.lastPeriod.endedUs > s.lastPeriod.startedUs
      ? `; last period ${s.lastPeriod.bytesOut} bytes out, ${s.lastPeriod.bytesIn} in, ${((s.lastPeriod.endedUs - s.lastPeriod.startedUs) / 1000).toFixed(2)} ms on the wire` : '');
    const valid = connected && s.feedback.length && s.feedback.every((f) => f.valid);
    const q = valid ? s.feedback.map((f) => f.position) : null;
    if (ui.twin.checked && m && q && q.length === m.dof) ctx.setMeasured(q);
    if (ui.follow.checked && !teleop && m && q && q.length === m.dof) ctx.setQ(q);
    if (snapCount % 3 === 0 || !valid) renderJoints(s, cal);
  }
  function renderJoints(s, cal) {
    if (!cal || !s.feedback.length) { ui.joints.replaceChildren(); return; }
    ui.joints.replaceChildren(el('tr', {}, ...['joint', 'ID', 'measured', 'range', 'load', '°C', 'V'].map((h) => el('th', {}, h))),
      ...s.feedback.map((f, j) => {
        const c = cal.joints[j];
        const out = f.valid && (f.position < c.min - 1e-9 || f.position > c.max + 1e-9);
        return el('tr', { class: out ? 'bus-out' : '' }, el('td', {}, `q${j + 1}`), el('td', {}, String(c?.id ?? '')),
          el('td', {}, f.valid ? `${(f.position * DEG).toFixed(1)}°` : '–'),
          el('td', {}, `${(c.min * DEG).toFixed(0)}…${(c.max * DEG).toFixed(0)}°${out ? ' past' : ''}`),
          el('td', {}, f.valid ? String(f.load) : '–'), el('td', {}, f.valid ? String(f.temperature) : '–'), el('td', {}, f.valid ? f.voltage.toFixed(1) : '–'));
      }));
  }

  // teleoperation: the studio's joint vector at the host's period
  const offQ = ctx.onQ?.((q, source) => {
    if (!teleop || !session || source === 'controller') return;
    const now = performance.now();
    if (now - lastTeleop < TELEOP_MS) return;
    lastTeleop = now;
    session.follow(q).then((refusal) => { if (refusal) say(`Not sent: ${refusal}`); }, () => {});
  });
  const offModel = ctx.onModel?.(() => {
    ui.guide.hidden = true;  // a guided calibration in progress was the old robot's
    ui.guide.replaceChildren();
    useCalibration(null);
    connected = false;
    setTeleop(false);
    ctx.setMeasured(null);
    listCalibrations();
  });
  // a session file brought a calibration: offered (and chosen) unless a stream runs
  const offCalibration = ctx.onCalibration?.(() => {
    if (sending || teleop) return;
    useCalibration(null);
    listCalibrations();
  });
  const onKey = (e) => {
    if (!session || (e.code !== 'Space' && e.key !== ' ')) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (!e.repeat) estop();
  };
  window.addEventListener('keydown', onKey, true);
  listCalibrations();
  setEnabled();

  return {
    activate() {},
    deactivate() {},
    async dispose() {
      window.removeEventListener('keydown', onKey, true);
      if (typeof offQ === 'function') offQ();
      if (typeof offModel === 'function') offModel();
      if (typeof offCalibration === 'function') offCalibration();
      await close();
    },
    get busy() { return sending; },
    stop() { estop(); },
    // for tests and scripting
    get session() { return session; },
    get calibration() { return calibration?.text ?? null; },
    open,
    connect,
  };
}
