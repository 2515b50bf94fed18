// What the Controller view's panels share: the element helper and their style sheet (our controller's panel,
// panel.js, and the servo-bus panel, bus_panel.js).

const STYLE = `
.ctl-row { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 4px 0; }
label.ctl-row { flex-wrap: nowrap; }  /* a check box keeps its text beside it; a long text wraps within itself */
label.ctl-row > input { flex: none; }
.ctl-state { font-family: ui-monospace, monospace; font-size: 12px; padding: 6px 8px; border-radius: 4px; background: var(--panel2, #16213a); }
.ctl-state.estop, .ctl-state.fault { background: #7f1d1d; }
.ctl-faults div { background: rgba(127, 29, 29, .85); border: 1px solid #ef4444; border-radius: 4px; padding: 4px 6px; margin: 3px 0; }
.ctl-meter { height: 8px; background: #25324d; border-radius: 4px; overflow: hidden; flex: 1; min-width: 80px; }
.ctl-meter > div { height: 100%; background: #38bdf8; width: 0; }
.ctl-progress > div { background: #22c55e; }
.ctl-cfg { border-collapse: collapse; font-size: 11px; width: 100%; table-layout: fixed; }
.ctl-cfg td, .ctl-cfg th { padding: 2px 2px; text-align: right; overflow: hidden; text-overflow: ellipsis; }
.ctl-cfg col.ctl-cfg-joint { width: 3.4em; }
/* three editable fields per joint across the panel: each at least 64 px, so a click lands on the text, not the spinner */
.ctl-cfg input { width: 100%; min-width: 64px; box-sizing: border-box; }
.ctl-cfg tr.ctl-cfg-limits td { text-align: left; color: #94a3b8; padding: 0 2px 5px; border-bottom: 1px solid #25324d; white-space: normal; }
.ctl-stats { color: #94a3b8; font-size: 11px; }
.ctl-stopbar { position: fixed; right: 16px; bottom: 32px; z-index: 1000; display: flex; gap: 8px; }
.ctl-stopbar button { font-size: 18px; font-weight: 700; padding: 14px 22px; border-radius: 10px; border: 3px solid #fff; cursor: pointer; }
.ctl-stopbar .ctl-stop { background: #b45309; color: #fff; }
.ctl-stopbar .ctl-estop { background: #dc2626; color: #fff; }
.ctl-stopbar .ctl-estop.engaged { background: #450a0a; }
.ctl-na { color: #94a3b8; font-size: 12px; }
.bus-guide { border: 1px solid #38bdf8; border-radius: 6px; padding: 6px 8px; margin: 6px 0; }
.bus-step { font-size: 12px; margin-bottom: 4px; }
.bus-picture { display: block; width: 100%; height: auto; border: 1px solid #25324d; border-radius: 4px; margin: 4px 0; }
.bus-joints { border-collapse: collapse; font-size: 11px; width: 100%; }
.bus-joints td, .bus-joints th { padding: 1px 3px; text-align: right; white-space: nowrap; }
.bus-joints tr.bus-out td { color: #fca5a5; }
`;

/** Adds the panels' style sheet to the page once. */
export function ensureControllerStyle() {
  if (!document.getElementById('achain-controller-style')) document.head.append(el('style', { id: 'achain-controller-style' }, STYLE));
}

/** An element: attributes (class, text, on<event> listeners, the rest as attributes) and children. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
