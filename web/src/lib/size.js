// The size the studio and the viewer draw and frame a robot at.

/**
 * A model's characteristic size (m): the core's reach bound (model.reachBound(): an upper bound of the distance
 * from the base to every link origin and the tool over the joint limits), at least `min`. When a joint translates
 * without bound (no finite limits) the core gives none, and the farthest frame origin at q stands in.
 */
export function robotSize(model, q, min) {
  const r = model.reachBound().radius;
  if (r != null) return Math.max(r, min);
  const fk = model.forwardKinematics(q);
  const b = fk.base;
  let L = 0;
  for (const F of [...fk.frames, fk.tool]) L = Math.max(L, Math.hypot(F[3] - b[3], F[7] - b[7], F[11] - b[11]));
  return Math.max(L, min);
}
