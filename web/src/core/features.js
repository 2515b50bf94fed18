// Feature detection for core methods that other areas add over time. A Model method may exist
// in the JS layer before the wasm binary that backs it is rebuilt, so a probe call decides:
// a TypeError "… is not a function" (or a missing binding) means "not available yet".
const cache = new WeakMap();

export function isMissingBinding(e) {
  const msg = String(e && e.message);
  return (e instanceof TypeError && /is not a function|Cannot read properties of undefined/.test(msg))
    || /not available|unbound|UnboundTypeError|not implemented/i.test(msg);
}

/**
 * True when model[method] exists and a probe call does not fail for lack of a binding.
 * probe(model) runs the method once with real input; any other error still counts as available.
 */
export function has(model, method, probe) {
  if (!model || typeof model[method] !== 'function') return false;
  let m = cache.get(model);
  if (!m) { m = new Map(); cache.set(model, m); }
  if (m.has(method)) return m.get(method);
  let ok = true;
  if (probe) {
    try { probe(model); } catch (e) { ok = !isMissingBinding(e); }
  }
  m.set(method, ok);
  return ok;
}
