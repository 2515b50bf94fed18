// IK for dragging: one core ikNumeric from the current q (continuity: stays on the seed's branch), with
// the core's singularity escape (options.escapeSingularity: at a stretched or folded pose, e.g. the
// prototype's 180° home, one more start from a seed nudged 3° per joint, kept if it succeeds or halves the
// residual). The logic lives in C++ (core/src/ik/numeric.cpp); this only sets the option.

/** model.ikNumeric(target, q, opts) with the singularity escape. Throws the core's errors. */
export function ikFollow(model, target, q, opts) {
  return model.ikNumeric(target, q, { ...opts, escapeSingularity: true });
}
