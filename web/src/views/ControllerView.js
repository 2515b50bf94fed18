// ControllerView: the mount point of the firmware bridge's panel (web/src/controller/panel.js,
// owned by the firmware-bridge area). When that module exists it gets a container and a context
// {achain, getModel(), getQ(), setQ(q), onQ(cb), onModel(cb), getTrajectory()}; otherwise a placeholder
// explains what will be here.
const panels = import.meta.glob('../controller/panel.js');

export class ControllerView {
  constructor() { this.id = 'controller'; this.title = 'Controller'; this.key = '5'; }

  mount(panel, studio) {
    this.studio = studio;
    panel.innerHTML = '<h3>Controller</h3><div class="controller-mount" data-testid="controller-mount"></div>';
    this.container = panel.querySelector('.controller-mount');
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
    };
    const load = panels['../controller/panel.js'];
    if (!load) { this._placeholder(); return; }
    this.loading = load().then((mod) => {
      if (typeof mod.mountControllerPanel !== 'function') throw new Error('web/src/controller/panel.js does not export mountControllerPanel(container, ctx)');
      this.handle = mod.mountControllerPanel(this.container, this.ctx);
      this.mounted = true;
    }).catch((e) => {
      this.container.innerHTML = '';
      const d = document.createElement('div');
      d.className = 'error-box';
      d.textContent = `The controller panel failed to load: ${e.message}`;
      this.container.appendChild(d);
      console.warn(e);
    });
  }

  _placeholder() {
    this.container.innerHTML = `<div class="na">The controller panel (WebSerial link to the arm's firmware: connect,
      stream trajectories, always-visible stop) is provided by the firmware bridge and is not part of this build yet.</div>`;
  }

  activate() { this.handle?.activate?.(); }
  deactivate() { this.handle?.deactivate?.(); }
}
