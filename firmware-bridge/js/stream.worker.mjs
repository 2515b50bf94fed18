// The streaming worker: the browser's host engine (a Streamer over the C++ HostEngine) and its transport run here,
// off the page's thread. Heartbeats, resends, credit refills and a send's segments therefore keep flowing while
// the page is busy (a workspace point cloud, a long layout, a hidden tab): only a real stop of the host trips the
// controller's watchdog. The page talks to it through WorkerStreamer (worker_streamer.mjs).
//   page → worker  {type:'open', id, source:'virtual'|'serial', port?, portInfo?, baudRate, silencePeriods}
//                  {type:'call', id, method, args}
//   worker → page  {type:'reply', id, ok, value | error, snap}   {type:'event', name, detail, snap}
//                  {type:'progress', id, progress}
// `snap` is {status, counters, caps}: what the page shows between messages.
import { loadBridge } from './bridge.mjs';
import { Streamer, intervalClock } from './streamer.mjs';
import { PortTransport, WebSerialTransport, findGrantedPort } from './transports.mjs';

let streamer = null;

const snap = () => (streamer ? { status: streamer.status, counters: streamer.counters, caps: streamer.caps } : null);
const post = (m) => self.postMessage({ ...m, snap: snap() });
const errorOf = (e) => ({ message: e?.message ?? String(e), status: e?.status, faults: e?.faults });

async function open(m) {
  const bridge = await loadBridge();
  const transport = m.source === 'serial'
    ? await WebSerialTransport.open(await findGrantedPort(m.portInfo), { baudRate: m.baudRate })
    : new PortTransport(m.port);
  streamer = new Streamer(bridge, transport, { clock: intervalClock(2), silencePeriods: m.silencePeriods });
  streamer.addEventListener('status', (e) => post({ type: 'event', name: 'status', detail: { status: e.status } }));
  streamer.addEventListener('faults', (e) => post({ type: 'event', name: 'faults', detail: { status: e.status, faults: e.faults } }));
  streamer.addEventListener('estop', (e) => post({ type: 'event', name: 'estop', detail: { engaged: e.engaged } }));
  streamer.addEventListener('link-lost', (e) => post({ type: 'event', name: 'link-lost', detail: { reason: e.reason } }));
}

const METHODS = new Set(['connect', 'configure', 'sendTrajectory', 'start', 'pause', 'resume', 'clearFaults', 'stop', 'estop', 'streamTarget', 'close']);

async function call(m) {
  if (!METHODS.has(m.method)) throw new Error(`the streaming worker has no method ${m.method}`);
  if (!streamer) throw new Error('the streaming worker is not open');
  const args = m.args ?? [];
  if (m.method === 'sendTrajectory') {
    const opts = { ...(args[1] ?? {}), onProgress: (progress) => self.postMessage({ type: 'progress', id: m.id, progress }) };
    return streamer.sendTrajectory(args[0], opts);
  }
  const value = await streamer[m.method](...args);
  if (m.method === 'close') streamer = null;
  return value;
}

self.onmessage = async (e) => {
  const m = e.data;
  if (m.type === 'stall') { // test hook: this worker descheduled for m.ms (a starved CPU); no reply
    const t = performance.now();
    while (performance.now() - t < m.ms);
    return;
  }
  try {
    const value = m.type === 'open' ? await open(m) : await call(m);
    post({ type: 'reply', id: m.id, ok: true, value });
  } catch (err) {
    post({ type: 'reply', id: m.id, ok: false, error: errorOf(err) });
  }
};
