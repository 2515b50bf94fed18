// The streaming clock: ticks from a dedicated Worker keep the host engine (heartbeats, resends,
// credit refills) running while the studio tab is hidden, where page timers drop to ~1 Hz.
let id = null;
self.onmessage = (e) => {
  if (id !== null) clearInterval(id);
  const period = Math.max(1, Number(e.data?.periodMs) || 5);
  id = setInterval(() => self.postMessage(0), period);
};
