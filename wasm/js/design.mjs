// Design sweeps (docs/sweeps.md): design k's robot description and parameters from a design space — the
// "design_space" of a merged sweep (`achain sweep-merge`) or a design-space file with an inline or built-in robot.
// Carried by the Achain instance. C++: wasm/bind_design.cpp → core/io/design_json.*. Types: wasm/types/design.d.ts.

/** The design space as JSON text: a string is passed as it is, an object is serialised. */
function spaceText(space) {
  if (typeof space === 'string') return space;
  if (space && typeof space === 'object') return JSON.stringify(space);
  throw new Error('space: must be a design space (an object, or its JSON text)');
}

/** Achain.designRobotJson: design k's robot description, the base robot with design k's values written in. */
export function designRobotJson(module, space, index) {
  return JSON.parse(module.designRobotJson(spaceText(space), Number(index)));
}

/** Achain.designParametersJson: design k's parameter values by name, in the robot file's units. */
export function designParametersJson(module, space, index) {
  return JSON.parse(module.designParametersJson(spaceText(space), Number(index)));
}
