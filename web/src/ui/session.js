// Session files: the studio's state as one JSON file — robot (built-in name or the edited design, with
// q, view and units, as in the shareable link), the camera, the Motion view's settings and the
// Workspace view's settings. Saving downloads it; loading applies it and names what is wrong in a bad file.

export const SESSION_SCHEMA = 'achain-studio-session';

const MOTION_FIELDS = ['.m-from', '.m-to', '.m-profile', '.m-sync', '.m-duration', '.m-vscale', '.m-legs'];
const WORKSPACE_FIELDS = ['.w-voxel', '.w-method', '.w-surface', '.w-twin'];

function readFields(panel, selectors) {
  const out = {};
  for (const s of selectors) {
    const e = panel.querySelector(s);
    if (e) out[s.slice(1)] = e.type === 'checkbox' ? e.checked : e.value;
  }
  return out;
}

function writeFields(panel, values, what) {
  for (const [k, v] of Object.entries(values ?? {})) {
    const e = panel.querySelector(`.${k}`);
    if (!e) throw new Error(`${what}.${k}: not a field of this view`);
    if (e.type === 'checkbox') {
      if (typeof v !== 'boolean') throw new Error(`${what}.${k}: must be true or false`);
      e.checked = v;
    } else {
      if (typeof v !== 'string') throw new Error(`${what}.${k}: must be a string`);
      e.value = v;
    }
    e.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

/** The session object of the current studio state. */
export function captureSession(studio) {
  const cam = studio.viewport.camera.position;
  const target = studio.viewport.controls.target;
  const panel = (id) => studio.views.find((v) => v.id === id).panel;
  return {
    schema: SESSION_SCHEMA,
    version: 1,
    link: studio.hashState(),
    camera: { position: [cam.x, cam.y, cam.z], target: [target.x, target.y, target.z] },
    motion: readFields(panel('motion'), MOTION_FIELDS),
    workspace: readFields(panel('workspace'), WORKSPACE_FIELDS),
    // the servo calibration taken or loaded in the Controller view's bus panel: {robot, protocol, from, calibration}
    ...(studio.servoCalibration ? { servoCalibration: { robot: studio.servoCalibration.robot, protocol: studio.servoCalibration.protocol,
      from: studio.servoCalibration.from, calibration: JSON.parse(studio.servoCalibration.text) } } : {}),
  };
}

/**
 * Applies a session (object or JSON text): `applyLink(hash)` restores robot, q, view and units as a
 * shareable link does, then the camera and the views' settings. Throws naming the field that is wrong.
 */
export function applySession(studio, session, applyLink) {
  let s = session;
  if (typeof s === 'string') {
    try { s = JSON.parse(s); } catch (e) { throw new Error(`session: not JSON (${e.message})`); }
  }
  if (!s || typeof s !== 'object' || s.schema !== SESSION_SCHEMA) throw new Error(`session: schema must be "${SESSION_SCHEMA}"`);
  if (s.version !== 1) throw new Error(`session.version: ${JSON.stringify(s.version)} is not supported (1 is)`);
  if (typeof s.link !== 'string') throw new Error('session.link: must be a string (the shareable link\'s part after #)');
  const vec = (v, what) => {
    if (!Array.isArray(v) || v.length !== 3 || !v.every(Number.isFinite)) throw new Error(`${what}: must be 3 finite numbers`);
    return v;
  };
  const camera = s.camera ? { position: vec(s.camera.position, 'session.camera.position'), target: vec(s.camera.target, 'session.camera.target') } : null;
  let servo = null;
  if (s.servoCalibration !== undefined) {
    const c = s.servoCalibration;
    if (!c || typeof c !== 'object' || typeof c.robot !== 'string' || !['dynamixel', 'feetech'].includes(c.protocol) ||
      !c.calibration || c.calibration.format !== 'achain-servo-calibration') {
      throw new Error('session.servoCalibration: must be {robot, protocol: "dynamixel" | "feetech", from, calibration: an achain-servo-calibration}');
    }
    // the bus panel reads it with the C++ reader when it connects, which names any wrong field
    servo = { robot: c.robot, protocol: c.protocol, from: typeof c.from === 'string' ? c.from : 'the session file', text: JSON.stringify(c.calibration) };
  }
  applyLink(`#${s.link}`);
  if (servo) {
    studio.servoCalibration = servo;
    studio.dispatchEvent(new CustomEvent('servo-calibration', { detail: servo }));
  }
  const panel = (id) => studio.views.find((v) => v.id === id).panel;
  writeFields(panel('motion'), s.motion, 'session.motion');
  writeFields(panel('workspace'), s.workspace, 'session.workspace');
  if (camera) {
    studio.viewport.camera.position.set(...camera.position);
    studio.viewport.controls.target.set(...camera.target);
    studio.viewport.controls.update();
    studio.viewport.requestRender();
  }
}
