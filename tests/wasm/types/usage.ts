// Typed usage of the achain declarations (wasm/achain.d.ts, wasm/types/*.d.ts): calls every declared
// function with correct argument types and uses the results as their declared types, so
// `npx tsc --noEmit -p tests/wasm/types/tsconfig.json` fails when a declaration is wrong or missing.
// Type-checked only, never run.
import loadAchain, { Achain, Model, Workspace } from '../../../wasm/achain';
import type {
  FkResult, ApairLegs, ModelInfo, BuiltinRobot, GeometryInfo, ReachBound, UrdfTree, RobotDefaults, ApairStudyResult, ApairRangeResult, LegPairCurves, WorkspaceSummary,
} from '../../../wasm/achain';
import type { IkResult, IkAllResult, IkStatus, IkBranch, BranchEvent } from '../../../wasm/types/ik';
import type { DesignSpaceDocument, MergedSweep } from '../../../wasm/types/design';
import type {
  TorqueBreakdown, SimulationResult, LeeTerms, FreemanModel, ComputedTorqueResult, CartesianInertia, DynamicManipulability, TaskRows,
  Linearization, ToolRow, JointTransferFunction, DcMotor, FrequencyResponse,
} from '../../../wasm/types/dynamics';
import type { Influence, ManipulabilityMeasures, ManipulabilityReport, Singularity } from '../../../wasm/types/kinematics';
import type {
  PlannedTrajectory, CartesianTrajectory, TrajectoryAnalysis, TrajectoryJSON, CartesianInterpolation,
} from '../../../wasm/types/trajectory';
import type { WorkspaceSection, WorkspaceOverlap, WorkspaceEstimate } from '../../../wasm/types/workspace';
import type { CloseLoopResult, ClosedChainLoads, ClosedChainModelResult } from '../../../wasm/types/closed_chain';
import type { JointFlexibility, JointFlexibilityModes, FlexCheckResult, InputShaper } from '../../../wasm/types/flexibility';
import type { FlexibleChainModes, FlexibleKinematics, FlexibleLinkCurve, FlexibleSimulation, FlexibleStaticResult, FlexibleLinkInfo } from '../../../wasm/types/flexible_chain';

export async function usage(): Promise<number> {
  const achain: Achain = await loadAchain();
  const version: string = achain.version;
  const names: readonly IkStatus[] = achain.ikStatusNames;
  const robots: BuiltinRobot[] = achain.builtinRobots();
  const file: string = achain.builtinRobotFile(robots[0].name);
  const m: Model = achain.loadModel('prototype-4a');
  const b: Model = achain.builtinModel('puma560');
  const j: Model = achain.modelFromJsonString(file);
  const urdf: Model = achain.modelFromUrdf('<robot name="r"/>', { toolLink: 'tool0', balanceInertia: true, keepFixed: true });
  const urdfTree: Model = achain.modelFromUrdf({ name: 'robot', line: 1, attributes: [['name', 'r']], children: [] });
  const urdfLoaded: Model = achain.loadModel('<robot name="r"/>', { toolLink: 'tool0' });
  const tree = achain.urdfTree('<robot name="r"/>');
  const treeLeaf: string = tree.leaves[0] + tree.root + tree.toolLink + tree.links[0].name;
  const treeLimit: number | null = tree.links[1].joint?.limits.upper ?? null;
  const modelTree: UrdfTree = urdfLoaded.modelTree();
  const treeAngular: boolean = modelTree.links[1].joint?.angular ?? false;
  const treeMimic: string | undefined = tree.links[1].joint?.mimic?.joint;
  const treeDepth: number = tree.links[1].depth + tree.links[1].parent;
  const shapes: GeometryInfo[] = urdf.info.geometry;
  const shapeKind: 'box' | 'cylinder' | 'sphere' | 'mesh' = shapes[0].shape;
  const meshColor: [number, number, number, number] | null = shapes[0].rgba;
  const placed: boolean = urdf.info.joints[0].hasOrigin && urdf.info.hasDh && urdf.info.dh.startsWith("none");
  const toolLink: number = urdfTree.info.toolLink + urdfLoaded.info.joints[0].mimic;
  const coordinateOwner: number = urdfLoaded.info.coordJoint[0] + urdfLoaded.info.joints[0].coordinate;
  const angularFirst: boolean = urdfLoaded.coordinates[0].angular;
  const loopAssembly: number = urdfLoaded.info.loop ? urdfLoaded.info.loop.assembly.length + urdfLoaded.info.loop.coordinates[0] : 0;
  const exported: { urdf: string; warnings: string[] } = urdf.modelToUrdf();
  const mjcf: { mjcf: string; warnings: string[] } = urdf.modelToMjcf();
  const rpy: Float64Array = achain.matrixToRpy(new Float64Array(16));
  const range: ApairRangeResult = achain.apairUsableRange(1, 0.05);
  const curves: LegPairCurves = achain.legPairSample(1, { samples: 90 });
  const study: ApairStudyResult = achain.apairStudy({ duration: 10, profile: 'quintic', rhoIn: 4 * Math.SQRT2, exactLegInertia: true });

  // model
  const info: ModelInfo = m.info;
  const q = new Float64Array(m.dof);
  const fk: FkResult = m.forwardKinematics(q);
  const legs: ApairLegs[] = m.apairLegEndpoints(q);
  const ok: boolean = m.withinLimits([1, 2, 3, 4]);
  const conv: Model = m.convertConvention('modified');
  const twin: Model = m.rPairTwin();
  const reach: ReachBound = m.reachBound();
  const defaults: RobotDefaults | null = m.info.defaults;
  const factNumbers: number = (reach.radius ?? 0) + reach.tool! + (reach.links[0] ?? 0) + Number(m.info.hasApair) + m.info.joints[0].period
    + Number(m.info.joints[0].revolute) + (defaults?.move?.from[0] ?? 0) + (defaults?.workspaceVoxel ?? 0) + (defaults?.workspaceReference?.voxels ?? 0)
    + (defaults?.driveVariant?.length ?? 0) + (defaults?.move?.name.length ?? 0);
  twin.dispose();
  const desc: object = m.modelToJson();
  const tool: Float64Array = m.fkTool(q);
  const toolOut: number[] = m.fkTool(q, new Array<number>(16));
  const tools: Float64Array = m.fkToolSeries([q, q]);

  // kinematics
  const J: Float64Array = m.pointJacobian(q, { link: 1, point: [0, 0, 0.1], frame: 'tool', out: new Float64Array(6 * m.dof) });
  const Js: Float64Array = m.pointJacobianSeries(q, { frame: 'base' });
  const Jd: { Jdot: Float64Array; JdotQd: Float64Array } = m.pointJacobianDerivative(q, q, { link: 0 });
  const Ja: { Ja: Float64Array; rpy: Float64Array } = m.analyticalJacobian(q);
  const inf: Influence = m.influence(q, { order: 3 });
  const acc: Float64Array = m.influenceAcceleration(q, q, q, { point: [0, 0, 0] });
  const jerk: Float64Array = m.influenceJerk(q, q, q, q);
  const mm: ManipulabilityMeasures = m.manipulability(q, { rows: 'linear' });
  const rep: ManipulabilityReport = m.manipulabilityReport(q, { tol: 1e-6 });
  const sigmaMin: number = rep.linear.sigmaMin + rep.linear.forceEllipsoid.radii[0] + rep.lengthScale;
  const sing: Singularity[] = m.detectSingularities(q, { tol: 0.02 });
  const tau: Float64Array = m.staticTorques(q, [0, 0, 1, 0, 0, 0], { frame: 'tool' });

  // ik
  const T = fk.tool;
  const ik: IkResult = m.ikNumeric(T, q, { maxIterations: 50, positionOnly: true, maxStep: 0.05 });
  const status: IkStatus = ik.status;
  const all: IkAllResult = m.ikAll(T, { method: 'auto', seedQ: q, restarts: 4, positionOnly: true, minSeparation: 0.5 });
  const every6r: IkAllResult = m.ikAll(T, { method: 'general6r', seedQ: q });
  const used: 'closed' | 'algebraic' | 'general6r' | '3r3p' | 'sweep' | 'numeric' = every6r.method;
  m.startBranches(T, every6r.solutions.map((s) => s.q));
  const added: number = m.addBranch(q);
  const tracked = m.trackBranches(T, { maxJointStep: 0.2, maxHalvings: 10, tolerance: 1e-10, meetDistance: 1e-6 });
  const branch: IkBranch = tracked.branches[added];
  const event: BranchEvent = branch.event;
  const steps: number = tracked.newtonSteps + tracked.halvings + branch.partner + branch.error;

  // dynamics
  const opts = { legs: 'full' as const, motors: true, gravity: [0, 0, -9.81], wrench: [0, 0, 0, 0, 0, 0], wrenchFrame: 'tool' as const };
  const id: Float64Array = m.inverseDynamics(q, q, q, opts);
  const bd: TorqueBreakdown = m.torqueBreakdown(q, q, q);
  const ids: Float64Array[] = m.inverseDynamicsSeries({ q: [q, q], qd: [q, q] }, { legs: 'lumped' });
  const M: Float64Array = m.massMatrix(q);
  const g: Float64Array = m.gravityTorques(q, { legs: 'massless' });
  const C: Float64Array = m.coriolisMatrix(q, q);
  const fd: Float64Array = m.forwardDynamics(q, q, q);
  const ke: number = m.kineticEnergy(q, q);
  const pe: number = m.potentialEnergy(q, { legs: 'potential' });
  const lee: LeeTerms = m.leeTerms(q, q);
  const fm: FreemanModel = m.freemanModel(q, q);
  const motor: DcMotor = { torqueConstant: 0.05, backEmfConstant: 0.05, resistance: 1.2, inductance: 2e-3 };
  const lin: Linearization = m.linearizeDynamics(q, q, q, { output: 'tool', dcMotors: [motor], motors: true });
  const rowsOfTool: ToolRow[] = ['x', 'y', 'z', 'wx', 'wy', 'wz'];
  const linTool: Linearization = m.linearizeDynamics(q, q, q, { coordinates: 'tool', toolRows: rowsOfTool });
  const transform: Float64Array = linTool.T;
  const jd: JointTransferFunction[] = m.jointTransferFunctions(q, q, { legs: 'lumped' });
  const fr: FrequencyResponse = m.frequencyResponse(q, q, q, { input: 1, output: 1, points: 50, range: [0.1, 100], motors: true });
  const frTool: FrequencyResponse = m.frequencyResponse(q, q, q, { outputs: 'tool', output: 2, dcMotors: [motor] });
  const bodeDb: number = fr.magnitudeDb[0] + fr.phaseDeg[0] + fr.omega[0] + frTool.poleFrequencies.length;
  const sim: SimulationResult = m.simulate({ q, duration: 0.01, dt: 1e-3, integrator: 'euler', onProgress: (f: number) => f }, { limitStops: true });
  const ct: ComputedTorqueResult = m.simulateComputedTorque({ traj: { t: [0, 1], q: [q, q] }, kp: 100, kv: [1, 2, 3, 4] });
  const rows: TaskRows = 'linear';
  const ci: CartesianInertia = m.cartesianInertia(q, { rows, rankTol: 1e-10, legs: 'full', motors: true });
  const dm: DynamicManipulability = m.dynamicManipulability(q, { rows: 'all' });
  const dmNumbers: number = dm.yoshikawa + dm.asada + dm.rank + dm.radii[0] + dm.axes[0] + dm.inertia.Lambda[0] + ci.LambdaInv[0] +
    ci.eigenvalues[0] + ci.axes[0] + ci.rank + ci.rankTolerance;

  // trajectory
  const plan: PlannedTrajectory = m.planJointPath(q, q, { profile: 'quintic', rate: 100, torqueLimits: true, legs: 'full' });
  const cart: CartesianTrajectory = m.planCartesianPath(q, T, { kind: 'line', rate: 50 });
  const an: TrajectoryAnalysis = m.analyzeTrajectory(plan, { legs: 'lumped' });
  const tj: TrajectoryJSON = m.trajectoryToJson(plan);
  const jt: PlannedTrajectory = m.planJointPath(q, q, { profile: 'quintic', duration: 2, v0: q, v1: [0, 0, 0, 0], a0: q, a1: q });
  const ip: CartesianInterpolation = achain.interpolateCartesian(T, T, {
    profile: 'trapezoid', duration: 1, speed: 0.2, acceleration: 1, angularSpeed: 1, angularAcceleration: 4, rate: 50,
  });
  const ipNumbers: number = ip.poses[0] + ip.twists[0] + ip.accelerations[0] + ip.axis[0] + ip.s[0] + ip.sd[0] + ip.sdd[0] +
    ip.t[0] + ip.length + ip.rotation + ip.duration + ip.samples;

  // workspace
  const clear: Float64Array = m.apairClearance(q);
  const est: WorkspaceEstimate = m.estimateWorkspace({ voxel: 0.05, maxBytes: 2 ** 31, maxEvaluations: 1e11 });
  const estNumbers: number = est.cells + est.voxels + est.bytes + est.evaluations + est.seconds + est.caps.bytes + (est.withinCaps ? 1 : 0);
  const ws: Workspace = m.computeWorkspace({ voxel: 0.05 });
  const job: Workspace = m.workspaceJob({ voxel: 0.05, method: 'robinson' });
  const progress: number = job.step(1e5);
  const wsa: Workspace = await m.computeWorkspaceAsync({ voxel: 0.05 }, { onProgress: (f: number) => f, sliceMs: 10 });
  const summary: WorkspaceSummary = ws.summary();
  const centres: Float32Array = ws.voxelCentres({ surfaceOnly: true });
  const mesh: { positions: Float32Array; indices: Uint32Array } = ws.voxelSurfaceMesh();
  const section: WorkspaceSection = ws.voxelSection('z', 0.3);
  const overlap: WorkspaceOverlap = ws.voxelOverlap(wsa);
  const shared: Float32Array = ws.voxelIntersection(wsa);
  const lattice: Int32Array = ws.lattice();
  [ws, wsa, job].forEach((w) => w.dispose());
  // closed chains (wasm/types/closed_chain.d.ts)
  const fb: Model = achain.loadModel('five-bar');
  const closed: CloseLoopResult = fb.closeLoop(fb.info.loop?.assembly ?? [], { fTarget: [1.5] });
  const yc: Float64Array = fb.closedChainCoordinates(closed.q);
  const loads: ClosedChainLoads = fb.closedChainLoads(closed.q, [0, 0], [0, 0], { legs: 'full' });
  const yddc: Float64Array = fb.closedChainForwardDynamics(closed.q, [0, 0], loads.Ty);
  const linClosed: Linearization = fb.linearizeClosedChain(closed.q, [0, 0], [0, 0], { legs: 'massless' });
  const stepped = fb.closedChainStep(closed.q, [0, 0], [0, 0], { dt: 1e-3, steps: 10 });
  const ccm: ClosedChainModelResult = fb.closedChainModel(closed.q);
  const loopNumbers = achain.closureSpaceSize('planar_pin') + achain.closureConstraintCount('pose') + closed.iterations + yc[0] + loads.Tc[0] + yddc[0] + stepped.y[0] + ccm.y.Istar[0][0] + ccm.M;
  fb.dispose();
  // joint flexibility (wasm/types/flexibility.d.ts)
  const drive: JointFlexibility | null = m.jointFlexibility();
  const fromFile: JointFlexibility = achain.jointFlexibilityFromJsonString(file);
  m.checkJointFlexibility({ stiffness: 5000, damping: [1, 1, 1, 1] }, { needMotorInertia: false });
  const modes: JointFlexibilityModes = m.jointFlexibilityModes([1, 2, 3, 4], { stiffness: fromFile.stiffness, motor: 'free', motorInertia: 0.5, legs: 'full' });
  const fc: FlexCheckResult = m.checkFlexibleTrajectory([1, 1, 1, 1], [5, 5, 5, 5], { stiffness: 5000, shaper: 'zvd', shaperFrequency: 6, traceSamples: 100, profile: 'trapezoid' });
  const shaper: InputShaper = achain.makeShaper('zv', 40, 0.01);
  const flexNumbers = (drive?.stiffness[0] ?? 0) + (m.info.drives?.stiffness[0] ?? 0) + modes.frequencyHz[0] + modes.shapes[0][0] + fc.firstFrequency.hz[0]
    + fc.results[0].trace.tipError[0] + (fc.results[0].impulses?.amplitude[0] ?? 0) + shaper.time[1] + m.accelerationBandwidth([1, 1, 1, 1], [5, 5, 5, 5], { energyFraction: 0.9 });
  // flexible links in a chain (wasm/types/flexible_chain.d.ts)
  const arm = achain.loadModel('space-arm');
  const flexLinks: FlexibleLinkInfo[] | null = arm.info.flexibleLinks;
  const sizes = arm.makeFlexibleChain({ baseMass: 0 });
  const phi = new Float64Array(sizes.dof), q6 = [0, 0, 0, 0, 0, 0];
  const fcm: FlexibleChainModes = arm.flexibleChainModes(q6, { baseMass: 100 });
  const fk2: FlexibleKinematics = arm.flexibleKinematics(phi);
  const fst: FlexibleStaticResult = arm.flexibleStaticDeflection(q6, { force: [0, 1, 0], moment: [0, 0, 0] });
  const curve: FlexibleLinkCurve = arm.flexibleLinkCurve(phi, 1, { samples: 11 });
  const fsim: FlexibleSimulation = arm.flexibleSimulate(q6, { force: [0, 1, 0], load: 'pulse', stop: 0.1, duration: 0.5, samples: 11, joints: 'free' });
  const stepped2 = arm.flexibleStep(phi, phi, phi, 1e-3, { lockJoints: true });
  const flexChainNumbers = (flexLinks?.[0].count ?? 0) + fcm.frequencyHz[0] + fcm.shapes[0][0] + fk2.links[1][3] + fk2.deflection.toolPositionError
    + Number(fst.deflection.above3deg) + curve.deflected[0] + fsim.modal[0][0] + (fsim.baseTranslation?.[0][0] ?? 0) + stepped2.phi[0]
    + arm.flexibleMassMatrix(phi)[0][0] + arm.flexibleStiffness()[6][6] + arm.flexibleEnergy(phi, phi) + arm.flexibleStableStep(phi, { lockJoints: true })
    + arm.flexibleInverseDynamics(phi, phi, phi)[0] + arm.flexibleForwardDynamics(phi, phi, phi)[0] + arm.flexibleBiasForces(phi, phi)[0]
    + arm.flexibleCenterOfMass(phi).com[0] + arm.flexibleJacobians(phi).tool[0][0] + arm.flexibleDeflection(phi).maxLinkRotationDeg
    + achain.flexibleLinksFromJsonString(file).length;
  arm.dispose();
  [m, b, j, conv].forEach((x) => x.dispose());
  // design sweeps: a merged sweep's design space gives design k's robot and parameters
  const space: DesignSpaceDocument = { format: 'achain-design-space', version: 1, robot: 'prototype-4a',
    parameters: [{ name: 'leg_length', pointers: ['/joints/0/leg_length'], range: [5, 7], count: 3 }] };
  const designed = achain.loadModel(achain.designRobotJson(space, 1));
  const merged = {} as MergedSweep;
  const designNumbers = designed.dof + achain.designParametersJson(JSON.stringify(space), 2).leg_length + (merged.pareto?.length ?? 0);
  designed.dispose();

  return [version.length, names.length, rpy[0], range.range, curves.theta[0], study.rows.length, info.dof, legs.length, Number(ok), coordinateOwner, Number(angularFirst), loopAssembly,
    Object.keys(desc).length, tool[0], toolOut[0], tools[0], J[0], Js[0], Jd.Jdot[0], Ja.rpy[0], inf.G[0], acc[0], jerk[0], mm.rank,
    sigmaMin, sing.length, tau[0], status.length, all.solutions.length, id[0], bd.total[0], ids.length, M[0], g[0], C[0], fd[0],
    ke, pe, lee.D[0], fm.TL[0], lin.poles[0].re, lin.A[0], jd[0].denominator[0], bodeDb, sim.t[0], ct.maxAbsError[0], cart.samples, an.totalWork, tj.t.length, clear[0], progress,
    summary.voxels, centres[0], mesh.indices[0], section.area, overlap.jaccard, shared[0], lattice[0], dmNumbers, ipNumbers, estNumbers,
    jt.samples, loopNumbers, flexNumbers, flexChainNumbers, factNumbers, designNumbers].reduce((a, x) => a + x, 0);
}
