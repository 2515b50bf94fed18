// SweepView: the result of a design sweep (`achain sweep` shards joined by `achain sweep-merge`; docs/sweeps.md).
// It plots one metric against another for every design, coloured by a third, marks the Pareto front the merge
// computed, and loads a clicked design into the studio (Design, Teleoperate, Workspace). The designs' robots come
// from the core (achain.designRobotJson: the merged file's design space and the design's index); the metrics, the
// feasibility and the front are the merged file's. The page only draws them and routes the clicks.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { escapeHtml } from '../ui/html.js';
import { readFileText } from '../ui/readFile.js';

/** A small merged sweep of the prototype, bundled for a first look (loaded only when asked for). */
const exampleLoaders = import.meta.glob('../../../docs/examples/sweep-prototype.merged.json', { query: '?raw', import: 'default' });
const EXAMPLE = Object.values(exampleLoaders)[0] || null;

const PICK_RADIUS_PX = 9;
const GREY = 'rgba(148, 163, 184, 0.45)';
const FRONT = '#f97316';

/** Viridis-like colour ramp, t in [0, 1]. */
function ramp(t) {
  const stops = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const c = stops[i].map((v, k) => Math.round(v + f * (stops[i + 1][k] - v)));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** A number to 4 significant digits (exponent form outside 1e-3…1e5). */
function num(v) {
  if (v == null) return '–';
  if (typeof v !== 'number') return String(v);
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? v.toExponential(3) : String(Number(v.toPrecision(4)));
}

/** The scalar metrics of a merged sweep: the summary's names (arrays such as per-joint peaks are not plotted). */
function scalarMetrics(merged) {
  const names = Object.keys(merged.summary?.metrics || {});
  return names.filter((k) => merged.designs.some((d) => typeof d.metrics?.[k] === 'number'));
}

/** Checks the parts of a merged file this view reads; throws an error naming what is missing. */
export function checkMerged(merged) {
  if (!merged || typeof merged !== 'object') throw new Error('not a merged sweep: expected a JSON object');
  if (merged.format !== 'achain-sweep') throw new Error(`not a merged sweep: "format" is ${JSON.stringify(merged.format)}, expected "achain-sweep" (write it with achain sweep-merge)`);
  if (!Array.isArray(merged.designs)) throw new Error('merged sweep: "designs" must be an array');
  if (!merged.design_space || typeof merged.design_space !== 'object') throw new Error('merged sweep: "design_space" is missing');
  if (!Array.isArray(merged.pareto)) throw new Error('merged sweep: "pareto" must be an array of design indices');
  return merged;
}

export class SweepView {
  constructor() { this.id = 'sweep'; this.title = 'Sweep'; this.key = '7'; }

  mount(panel, studio) {
    this.studio = studio;
    this.merged = null;
    this.selected = null;
    panel.innerHTML = `
      <h3>Design sweep</h3>
      <p class="hint">The result of <code>achain sweep</code> run over a design space (on one machine or as a Slurm job
      array) and joined by <code>achain sweep-merge</code>: one point per design, the Pareto front of its objectives
      ringed in orange. Click a point to load that design.</p>
      <div class="row">
        <label class="filebtn" title="A merged sweep (achain sweep-merge --out merged.json)"><input type="file" class="sw-open" accept=".json,application/json" hidden><span class="btnlike">Open merged sweep…</span></label>
        <button type="button" class="sw-example"${EXAMPLE ? '' : ' hidden'}>Example: prototype sweep</button>
      </div>
      <div class="sw-error error-box" hidden role="alert"></div>
      <div class="sw-summary muted" data-testid="sweep-summary"></div>
      <div class="sw-axes" hidden>
        <div class="row"><label>x <select class="sw-x" aria-label="x axis metric"></select></label>
          <label>y <select class="sw-y" aria-label="y axis metric"></select></label></div>
        <div class="row"><label>colour <select class="sw-c" aria-label="colour metric"></select></label>
          <label title="designs that break a constraint of the design space, drawn grey"><input type="checkbox" class="sw-infeasible" checked> infeasible</label></div>
      </div>
      <div class="sw-design" data-testid="sweep-design"></div>`;
    this.$ = (s) => panel.querySelector(s);
    this.dock = document.createElement('div');
    this.dock.className = 'dock sw-dock';
    this.dock.hidden = true;
    this.dock.dataset.testid = 'sweep-plot';
    studio.els.viewport.appendChild(this.dock);

    this.$('.sw-open').addEventListener('change', async (e) => {
      const f = e.target.files?.[0];
      e.target.value = '';
      if (!f) return;
      let text;
      try { text = await readFileText(f); } catch (err) { this._error(err.message); return; }
      this.openText(text, f.name);
    });
    this.$('.sw-example').addEventListener('click', async () => {
      try { this.openText(await EXAMPLE(), 'sweep-prototype.merged.json'); } catch (err) { this._error(err.message); }
    });
    for (const s of ['.sw-x', '.sw-y', '.sw-c']) this.$(s).addEventListener('change', () => this._plot());
    this.$('.sw-infeasible').addEventListener('change', () => this.plot?.redraw(false));
  }

  activate() { this.active = true; this._showDock(!!this.merged); this._resize(); }
  deactivate() { this._showDock(false); this.active = false; }

  _showDock(on) {
    this.dock.hidden = !on;
    this.studio.viewport.setBottomInset(on ? 0.47 : 0);
  }

  _error(text) {
    const box = this.$('.sw-error');
    box.hidden = !text;
    box.textContent = text || '';
  }

  /** Opens a merged sweep from its JSON text; a bad file is named in the error box, the last good sweep stays. */
  openText(text, name = 'merged sweep') {
    let merged;
    try {
      merged = checkMerged(JSON.parse(text));
    } catch (e) {
      this._error(`${name}: ${e.message}`);
      return false;
    }
    this._error('');
    this.merged = merged;
    this.name = name;
    this.byIndex = new Map(merged.designs.map((d) => [d.design, d]));
    this.front = new Set(merged.pareto);
    this.spaceText = JSON.stringify(merged.design_space);
    this.selected = null;
    const metrics = scalarMetrics(merged);
    const objectives = (merged.objectives || []).map((o) => o.metric).filter((m) => metrics.includes(m));
    const pick = (i) => objectives[i] ?? metrics[i] ?? metrics[0];
    const fill = (sel, value) => {
      sel.replaceChildren(...metrics.map((m) => new Option(m, m)));
      sel.value = value;
    };
    fill(this.$('.sw-x'), pick(0));
    fill(this.$('.sw-y'), pick(1));
    fill(this.$('.sw-c'), metrics.find((m) => m !== pick(0) && m !== pick(1)) ?? pick(0));
    this.$('.sw-axes').hidden = !metrics.length;
    const s = merged.summary || {};
    const goal = (merged.objectives || []).map((o) => `${o.goal === 'max' ? 'max' : 'min'} ${o.metric}`).join(', ');
    this.$('.sw-summary').textContent = `${name}: ${s.designs ?? merged.designs.length} designs, ${s.errors ?? 0} with errors, `
      + `${s.feasible ?? '?'} feasible, ${merged.pareto.length} on the Pareto front${goal ? ` (${goal})` : ''}.`;
    this.$('.sw-design').replaceChildren();
    if (!metrics.length) this._error(`${name}: no design has a numeric metric to plot`);
    if (this.active) this._showDock(true);
    this._plot();
    return true;
  }

  _values(metric) {
    return this.merged.designs.map((d) => {
      const v = d.metrics?.[metric];
      return typeof v === 'number' && Number.isFinite(v) && !d.error ? v : null;
    });
  }

  _plot() {
    this.plot?.destroy();
    this.plot = null;
    this.dock.replaceChildren();
    if (!this.merged) return;
    const xm = this.$('.sw-x').value;
    const ym = this.$('.sw-y').value;
    const cm = this.$('.sw-c').value;
    if (!xm || !ym) return;
    const xs = this._values(xm);
    const ys = this._values(ym);
    const cs = this._values(cm);
    // a loop, not Math.min(...values): spreading more than about 120,000 values overflows the call stack
    const span = (a) => {
      let lo = Infinity, hi = -Infinity;
      for (const v of a) if (v != null) { if (v < lo) lo = v; if (v > hi) hi = v; }
      return lo <= hi ? [lo, hi] : [0, 1];
    };
    const pad = ([lo, hi]) => { const d = (hi - lo) || Math.abs(hi) || 1; return [lo - 0.04 * d, hi + 0.04 * d]; };
    const [cLo, cHi] = span(cs);
    this.points = this.merged.designs.map((d, i) => ({ d, x: xs[i], y: ys[i], c: cs[i] })).filter((p) => p.x != null && p.y != null);
    // the front's designs are ringed; joined in x order only when the space has exactly two objectives and they are the
    // axes (with three or more, the front seen in two of them is a scatter, not a curve)
    const frontPts = this.points.filter((p) => this.front.has(p.d.design)).sort((a, b) => a.x - b.x);
    const objectives = (this.merged.objectives || []).map((o) => o.metric);
    const frontIsCurve = objectives.length === 2 && objectives.includes(xm) && objectives.includes(ym) && xm !== ym;
    const unit = (m) => this.merged.summary?.metrics?.[m]?.unit;
    const label = (m) => (unit(m) ? `${m} (${unit(m)})` : m);

    const wrap = document.createElement('div');
    wrap.className = 'chart sw-chart';
    this.dock.appendChild(wrap);
    const key = document.createElement('div');
    key.className = 'plot-key';
    key.innerHTML = `<span><i style="background:${FRONT}"></i>Pareto front of ${objectives.length} objective${objectives.length === 1 ? '' : 's'} (${frontPts.length} designs)</span>`
      + `<span><i style="background:${GREY}"></i>infeasible</span>`
      + `<span>colour: ${escapeHtml(label(cm))} <i style="background:${ramp(0)}"></i>${escapeHtml(num(cLo))} … <i style="background:${ramp(1)}"></i>${escapeHtml(num(cHi))}</span>`;
    this.dock.appendChild(key);
    this.hover = document.createElement('div');
    this.hover.className = 'chart-hover';
    this.hover.textContent = '\u00a0';
    this.dock.appendChild(this.hover);

    const draw = (u) => {
      const ctx = u.ctx;
      const showBad = this.$('.sw-infeasible').checked;
      ctx.save();
      ctx.beginPath();
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
      ctx.clip();
      const r = 2.2 * devicePixelRatio;
      const px = (p) => [u.valToPos(p.x, 'x', true), u.valToPos(p.y, 'y', true)];
      for (const p of this.points) {
        if (!p.d.feasible && !showBad) continue;
        const [X, Y] = px(p);
        ctx.fillStyle = p.d.feasible ? ramp((p.c - cLo) / ((cHi - cLo) || 1)) : GREY;
        ctx.fillRect(X - r, Y - r, 2 * r, 2 * r);
      }
      if (frontPts.length) {
        ctx.strokeStyle = FRONT;
        ctx.lineWidth = 1.5 * devicePixelRatio;
        if (frontIsCurve) {
          ctx.beginPath();
          frontPts.forEach((p, i) => { const [X, Y] = px(p); if (i) ctx.lineTo(X, Y); else ctx.moveTo(X, Y); });
          ctx.stroke();
        }
        for (const p of frontPts) {
          const [X, Y] = px(p);
          ctx.beginPath();
          ctx.arc(X, Y, 4 * devicePixelRatio, 0, 2 * Math.PI);
          ctx.stroke();
        }
      }
      if (this.selected != null) {
        const p = this.points.find((q) => q.d.design === this.selected);
        if (p) {
          const [X, Y] = px(p);
          ctx.strokeStyle = '#f8fafc';
          ctx.lineWidth = 2 * devicePixelRatio;
          ctx.beginPath();
          ctx.arc(X, Y, 7 * devicePixelRatio, 0, 2 * Math.PI);
          ctx.stroke();
        }
      }
      ctx.restore();
    };
    const [xLo, xHi] = pad(span(xs));
    const [yLo, yHi] = pad(span(ys));
    const width = Math.max(280, (this.dock.clientWidth || this.studio.els.viewport.clientWidth) - 24);
    const height = Math.max(160, Math.floor((this.dock.clientHeight || 300) - 56));
    const opts = {
      width, height,
      legend: { show: false },
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      scales: { x: { time: false, range: () => [xLo, xHi] }, y: { range: () => [yLo, yHi] } },
      axes: [
        { stroke: '#94a3b8', grid: { stroke: '#1e293b' }, label: label(xm), labelSize: 14, size: 34 },
        { stroke: '#94a3b8', grid: { stroke: '#1e293b' }, label: label(ym), labelSize: 16, size: 64, values: (u, vals) => vals.map((v) => num(v)) },
      ],
      // the points are drawn by the hook (one colour each); the series only carries the scales
      series: [{}, { show: false }],
      hooks: { draw: [draw] },
    };
    this.plot = new uPlot(opts, [[xLo, xHi], [yLo, yHi]], wrap);
    const over = this.plot.over;
    over.addEventListener('mousemove', (e) => {
      const p = this._nearest(e);
      this.hover.textContent = p ? this._describe(p.d, [xm, ym, cm]) : '\u00a0';
      over.style.cursor = p ? 'pointer' : '';
    });
    over.addEventListener('click', (e) => { const p = this._nearest(e); if (p) this.select(p.d.design); });
  }

  /** The drawn point nearest the mouse within PICK_RADIUS_PX, or null. */
  _nearest(e) {
    const u = this.plot;
    const rect = u.over.getBoundingClientRect();
    const mx = e.clientX - rect.left;
    const my = e.clientY - rect.top;
    const showBad = this.$('.sw-infeasible').checked;
    const rank = (p) => (this.front.has(p.d.design) ? 2 : p.d.feasible ? 1 : 0);
    let best = null;
    let bestD = PICK_RADIUS_PX * PICK_RADIUS_PX;
    for (const p of this.points) {
      if (!p.d.feasible && !showBad) continue;
      const dx = u.valToPos(p.x, 'x') - mx;
      const dy = u.valToPos(p.y, 'y') - my;
      const d = dx * dx + dy * dy;
      // designs drawn on the same spot (equal plotted metrics): a front design, then a feasible one, wins the click
      if (d < bestD || (d === bestD && best && rank(p) > rank(best)) || (d === bestD && !best)) { bestD = d; best = p; }
    }
    return best;
  }

  _describe(d, metrics) {
    return [`design ${d.design}${this.front.has(d.design) ? ' (Pareto)' : ''}${d.feasible ? '' : ' (infeasible)'}`,
      ...[...new Set(metrics)].map((m) => `${m} ${num(d.metrics?.[m])}`)].join(' · ');
  }

  /** Selects design k: its parameters and metrics in the panel, its robot (the core's designRobotJson) in the studio. */
  select(k) {
    const d = this.byIndex?.get(k);
    if (!d) throw new Error(`design ${k}: not in the merged sweep`);
    this.selected = k;
    this.plot?.redraw(false);
    const box = this.$('.sw-design');
    const rows = (obj) => Object.entries(obj || {}).map(([n, v]) => `<tr><td>${escapeHtml(n)}</td><td>${escapeHtml(Array.isArray(v) ? v.map(num).join(', ') : num(v))}</td></tr>`).join('');
    const unit = (m) => this.merged.summary?.metrics?.[m]?.unit;
    const metricRows = Object.entries(d.metrics || {}).map(([n, v]) => `<tr><td>${escapeHtml(n)}</td><td>${escapeHtml(Array.isArray(v) ? v.map(num).join(', ') : num(v))}${unit(n) ? ` ${escapeHtml(unit(n))}` : ''}</td></tr>`).join('');
    box.innerHTML = `<h3>Design ${k}${this.front.has(k) ? ' <span class="sw-badge">Pareto front</span>' : ''}</h3>
      ${d.error ? `<div class="error-box">${escapeHtml(d.error)}</div>` : ''}
      ${d.feasible === false ? `<div class="muted">infeasible: ${escapeHtml((d.violations || []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('; '))}</div>` : ''}
      <table class="sw-table"><tr><th>parameter</th><th>value</th></tr>${rows(d.parameters)}</table>
      <table class="sw-table"><tr><th>metric</th><th>value</th></tr>${metricRows}</table>
      <div class="row"><button type="button" class="sw-go" data-view="design">Design</button>
        <button type="button" class="sw-go" data-view="teleop">Teleoperate</button>
        <button type="button" class="sw-go" data-view="workspace">Workspace</button></div>
      <div class="sw-load muted"></div>`;
    for (const b of box.querySelectorAll('.sw-go')) b.addEventListener('click', () => this.studio.showView(b.dataset.view));
    try {
      const json = this.studio.achain.designRobotJson(this.spaceText, k);
      this.studio.setModel(json);
      box.querySelector('.sw-load').textContent = `loaded as the studio's robot: ${this.studio.model.name}`;
    } catch (e) {
      box.querySelector('.sw-load').textContent = '';
      this._error(`design ${k}: ${e.message}`);
    }
    return d;
  }

  _resize() {
    if (!this.plot || this.dock.hidden) return;
    const width = Math.max(280, this.dock.clientWidth - 24);
    const height = Math.max(160, this.dock.clientHeight - 56);
    this.plot.setSize({ width, height });
  }
}
