// ControllerView: what the studio drives. "Our controller" mounts the firmware bridge's panel
// (web/src/controller/panel.js, owned by the firmware-bridge area); "Dynamixel bus" and "Feetech bus" mount the
// servo-bus panel (web/src/controller/bus_panel.js) for that protocol. Each panel is mounted the first time it is
// chosen and kept (a link stays open while another panel is shown). Each gets a container and a context
// {achain, getModel(), getQ(), setQ(q), onQ(cb), onModel(cb), getTrajectory(), setMeasured(q | null),
// getCalibration(), setCalibration(c), onCalibration(cb)}; when the bridge's panel is not in the build a placeholder explains what
// will be here.
const panels = import.meta.glob('../controller/panel.js');
const busPanels = import.meta.glob('../controller/bus_panel.js');

const LINKS = [
  ['controller', 'Our controller (achain firmware)'],
  ['dynamixel', 'Dynamixel bus (Protocol 2.0)'],
  ['feetech', 'Feetech bus (SCS/STS)'],
];

export class ControllerView {
  constructor() { this.id = 'controller'; this.title = 'Controller'; this.key = '5'; }

  mount(panel, studio) {
    this.studio = studio;
    panel.innerHTML = `<h3>Controller</h3>
      <label class="ctl-link-row">Link <select class="ctl-link" data-testid="controller-link" aria-label="what the studio drives">
        ${LINKS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select></label>
      <div class="controller-mount" data-testid="controller-mount"></div>
      <div class="bus-mount" data-testid="bus-mount-dynamixel" hidden></div>
      <div class="bus-mount" data-testid="bus-mount-feetech" hidden></div>`;
    this.container = panel.querySelector('.controller-mount');
    this.busContainers = { dynamixel: panel.querySelector('[data-testid=bus-mount-dynamixel]'), feetech: panel.querySelector('[data-testid=bus-mount-feetech]') };
    this.buses = {};       // link → the promise of its mounted panel
    this.busHandles = {};  // link → its panel's handle, once mounted
    this.ctx = {
      achain: studio.achain,
      getModel: () => studio.getModel(),
      getQ: () => studio.getQ(),
      setQ: (q) => studio.setQ(Float64Array.from(q), 'controller'),
      onQ: (cb) => studio.onQ((q, source) => cb(Float64Array.from(q), source)),
      onModel: (cb) => studio.onModel(cb),
      /** The Motion view's planned trajectory as an "achain-trajectory" v1 object (model.trajectoryToJson), or null. */
      getTrajectory: () => {
        const motion = studio.views.find((v) => v.id === 'motion');
        const tr = motion?.traj;
        if (!tr || tr.simulated || !studio.model) return null;
        return studio.model.trajectoryToJson(tr);
      },
      /** The measured pose (SI) drawn as the live twin; null hides it. */
      setMeasured: (q) => studio.setMeasured(q ? Float64Array.from(q) : null),
      /** The servo calibration kept in the studio session {robot, protocol, text, from}, or null. */
      getCalibration: () => studio.servoCalibration ?? null,
      setCalibration: (c) => { studio.servoCalibration = c; },
      /** cb() when a session file brings a servo calibration; returns the unsubscribe function. */
      onCalibration: (cb) => {
        studio.addEventListener('servo-calibration', cb);
        return () => studio.removeEventListener('servo-calibration', cb);
      },
    };
    panel.querySelector('.ctl-link').addEventListener('change', (e) => this.showLink(e.target.value));
    const load = panels['../controller/panel.js'];
    if (!load) { this._placeholder(); return; }
    this.loading = load().then((mod) => {
      if (typeof mod.mountControllerPanel !== 'function') throw new Error('web/src/controller/panel.js does not export mountControllerPanel(container, ctx)');
      this.handle = mod.mountControllerPanel(this.container, this.ctx);
      this.mounted = true;
    }).catch((e) => this._failed(this.container, 'controller', e));
  }

  /** Shows one link's panel: 'controller', 'dynamixel' or 'feetech' (a bus panel is mounted on first use). */
  async showLink(link) {
    this.container.hidden = link !== 'controller';
    for (const [p, c] of Object.entries(this.busContainers)) c.hidden = p !== link;
    if (link === 'controller' || this.buses[link]) return this.buses[link];
    const load = busPanels['../controller/bus_panel.js'];
    this.buses[link] = load().then((mod) => {
      const h = mod.mountBusPanel(this.busContainers[link], this.ctx, link);
      this.busHandles[link] = h;
      return h;
    }).catch((e) => this._failed(this.busContainers[link], `${link} bus`, e));
    return this.buses[link];
  }

  /** True while a trajectory streams to our controller or to a bus (the studio asks before switching robot). */
  get busy() { return !!this.handle?.busy || Object.values(this.busHandles).some((h) => h.busy); }
  /** Where the running trajectory goes, for that question. */
  get busyText() {
    const bus = Object.entries(this.busHandles).find(([, h]) => h.busy);
    return bus ? `the ${bus[0] === 'dynamixel' ? 'Dynamixel' : 'Feetech'} bus (stopping it is the E-STOP action)` : 'the controller (a controlled stop)';
  }
  /** Stops whatever streams: the controller's controlled stop, a bus's E-STOP action. */
  stop() {
    if (this.handle?.busy) this.handle.stop();
    for (const h of Object.values(this.busHandles)) if (h.busy) h.stop();
  }

  _failed(container, what, e) {
    container.innerHTML = '';
    const d = document.createElement('div');
    d.className = 'error-box';
    d.textContent = `The ${what} panel failed to load: ${e.message}`;
    container.appendChild(d);
    console.warn(e);
  }

  _placeholder() {
    this.container.innerHTML = `<div class="na">The controller panel (WebSerial link to the arm's firmware: connect,
      stream trajectories, always-visible stop) is provided by the firmware bridge and is not part of this build yet.</div>`;
  }

  activate() { this.handle?.activate?.(); }
  deactivate() { this.handle?.deactivate?.(); }
}
