// A closed chain's coordinates for the UI (the studio's LoopPanel and <achain-viewer>): y = (α; f), the
// joints the robot file keeps as coordinates (model.info.loop.coordinates) then, for a planar pin, the tool
// angle θz. Moving to y is one core call, model.closeLoop, from the current configuration so the branch is
// kept. Nothing is computed here.

/** The planar pin's free closure component, described like a joint for sliders and units. */
export const FREE_ANGLE = Object.freeze({ name: 'tool angle θz', kind: 'R', angular: true, lower: null, upper: null });  // turns freely: its slider spans one turn

/** The coordinate descriptors of a closed chain (joints of model.info, then FREE_ANGLE for a planar pin). */
export function loopCoordinates(model) {
  const L = model.info.loop;
  return [...L.coordinates.map((c) => model.coordinates[c]), ...(L.closure === 'planar_pin' ? [FREE_ANGLE] : [])];
}

/** Closes the loop at coordinates y from configuration q: {q, iterations}; throws the core's "loop cannot close …". */
export function closeAt(model, q, y) {
  const L = model.info.loop;
  const start = Float64Array.from(q);
  L.coordinates.forEach((c, k) => { start[c] = y[k]; });
  return model.closeLoop(start, L.closure === 'planar_pin' ? { fTarget: [y[L.coordinates.length]] } : {});
}
