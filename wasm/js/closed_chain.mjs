// Model methods of closed chains: the single loop a robot file declares in its "loop" section
// (model.info.loop; docs/robot-format.md#loops). C++: wasm/bind_closed_chain.cpp →
// core/dynamics/closed_chain.*. Types: wasm/types/closed_chain.d.ts. Docs: docs/dynamics.md#closed-chains.
//
// The closed chain's coordinates y = (α; f): the joints the file keeps as coordinates (loop.coordinates)
// then the free components of the closure (the tool angle θz of a planar pin; none for a pose closure).
// SI throughout; T_y are the loads the actuators at y apply, T_c the loads the ground applies to the tool
// along the constrained directions (the pin's bearing forces in the world frame).
import { encode, readLinearization } from './dynamics.mjs';
import { finiteNumber, integer } from './args.mjs';

/** The loop's sizes: {ny: coordinates y, nf: free closure components, R: constraint loads}. */
function shape(model) {
  const loop = model.info.loop;
  if (!loop) throw new Error(`closed chain: '${model.name}' is not a closed chain (its robot file has no loop section; docs/robot-format.md#loops)`);
  const N = loop.space, R = loop.constraints;  // the core's closureSpaceSize / closureConstraintCount
  return { ny: loop.coordinates.length + N - R, nf: N - R, R };
}

export function install(Model) {
  /** The coordinates y = (α; f) of a closed configuration q. */
  Model.prototype.closedChainCoordinates = function closedChainCoordinates(q) {
    const { ny } = shape(this);
    return this._output(this.achain.module.closedChainCoordinates(this._q(q)), ny);
  };

  /**
   * Closes the loop: q holds the kept coordinates α and a start for the other joints (the previous
   * solution while dragging, so the branch is kept); opts.fTarget sets the free closure components too
   * (the tool angle of a planar pin). Returns {q, iterations}; throws "loop cannot close …" with the residual.
   */
  Model.prototype.closeLoop = function closeLoop(q, opts = {}) {
    const n = this.dof;
    const { nf } = shape(this);
    const f = opts.fTarget;
    const k = f == null ? 0 : nf;
    const raw = f == null ? this._q(q) : this._input([q, 'q', n], [f, 'fTarget', nf]);
    const a = this._output(this.achain.module.closeLoop(raw, k), n + 1);
    return { q: a.subarray(0, n), iterations: a[n] };
  };

  /**
   * Actuator loads T_y and constraint loads T_c of the closed chain at the closed configuration q moving
   * with coordinate rates yd, ydd (Freeman 4-30, 4-31); also the joint rates qd, qdd of the whole loop.
   * opts: legs, motors, friction as the dynamics calls.
   */
  Model.prototype.closedChainLoads = function closedChainLoads(q, yd, ydd, opts = {}) {
    const n = this.dof;
    const { ny, R } = shape(this);
    const { legs, flags } = encode(opts);
    const raw = this._input([q, 'q', n], [yd, 'yd', ny], [ydd, 'ydd', ny]);
    const a = this._output(this.achain.module.closedChainLoads(raw, legs, flags & 3), ny + R + 2 * n);
    return { Ty: a.subarray(0, ny), Tc: a.subarray(ny, ny + R), qd: a.subarray(ny + R, ny + R + n), qdd: a.subarray(ny + R + n) };
  };

  /**
   * The closed chain's linearised dynamics in its own coordinates y = (α; f) about the closed configuration q moving
   * with yd, ydd: the state x = (δy, δẏ), inputs δT_y, outputs y; the same object as linearizeDynamics (dTdq and
   * dTdqd are ∂T_y/∂y and ∂T_y/∂ẏ, Istar is I*_yy). opts: legs, motors, friction as the dynamics calls.
   */
  Model.prototype.linearizeClosedChain = function linearizeClosedChain(q, yd, ydd, opts = {}) {
    const n = this.dof;
    const { ny } = shape(this);
    const { legs, flags } = encode(opts);
    const raw = this._input([q, 'q', n], [yd, 'yd', ny], [ydd, 'ydd', ny]);
    return readLinearization(this, this.achain.module.linearizeClosedChain(raw, legs, flags & 3), 2 * ny, ny, ny, ny);
  };

  /** ÿ of the closed chain under actuator loads Ty at the closed configuration q with rates yd. */
  Model.prototype.closedChainForwardDynamics = function closedChainForwardDynamics(q, yd, Ty, opts = {}) {
    const n = this.dof;
    const { ny } = shape(this);
    const { legs, flags } = encode(opts);
    const raw = this._input([q, 'q', n], [yd, 'yd', ny], [Ty, 'Ty', ny]);
    return this._output(this.achain.module.closedChainForwardDynamics(raw, legs, flags & 3), ny);
  };

  /**
   * Simulates the closed chain under constant loads Ty: opts.steps (default 1) classical Runge–Kutta steps
   * of opts.dt seconds, the loop re-closed at every stage. Returns {q, y, yd} at the end.
   */
  Model.prototype.closedChainStep = function closedChainStep(q, yd, Ty, opts = {}) {
    const n = this.dof;
    const { ny } = shape(this);
    const { legs, flags } = encode(opts);
    const dt = finiteNumber(opts.dt, 'dt');
    const steps = integer(opts.steps, 'steps', 1, 1, 100000);
    const raw = this._input([q, 'q', n], [yd, 'yd', ny], [Ty, 'Ty', ny]);
    const a = this._output(this.achain.module.closedChainStep(raw, legs, flags & 3, dt, steps), n + 2 * ny);
    return { q: a.subarray(0, n), y: a.subarray(n, n + ny), yd: a.subarray(n + ny) };
  };

  /**
   * The closed chain's model at the closed configuration q (Freeman §4.1): sizes M, N, R; index lists
   * alpha, beta, yInW, cInW; the transfer Ge, GwPhi, GphiW, HphiWw; the models open (in φ), w and y
   * ({Istar, Pstar, TL}); and Icy, Pcyy, TLc. Matrices as nested arrays, P[k][m][n].
   */
  Model.prototype.closedChainModel = function closedChainModel(q, opts = {}) {
    shape(this);
    const { legs, flags } = encode(opts);
    return JSON.parse(this.achain.module.closedChainModel(this._q(q), legs, flags & 3));
  };
}
