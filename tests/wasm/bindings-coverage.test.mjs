// Bindings coverage (in the spirit of MuJoCo's binding checks): every public free function of the C++
// core (core/include/achain/**/*.hpp) is listed in wasm/bindings.json as bound — present under the
// same name in the Embind module and on the JS object that carries it, and declared in the .d.ts
// files — or excluded with a reason. Keyed on function names only, so signature changes in the core
// (scratch types, argument order) do not touch the manifest; a new, renamed or removed function does.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root, loadAchain } from './helpers.mjs';
import { coreFunctions, freeFunctions } from './header-scan.mjs';
import { Model } from '../../wasm/achain.mjs';
import { Workspace } from '../../wasm/js/workspace.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'wasm/bindings.json'), 'utf8'));
const core = coreFunctions(root);

/** Method and property names declared in the .d.ts files, per carrier: achain, model, workspace. */
function declared() {
  const files = [path.join(root, 'wasm/achain.d.ts'),
    ...fs.readdirSync(path.join(root, 'wasm/types')).filter((f) => f.endsWith('.d.ts')).map((f) => path.join(root, 'wasm/types', f))];
  const out = { achain: new Set(), model: new Set(), workspace: new Set() };
  const carrier = (name) => (name === 'Achain' ? 'achain' : name === 'Workspace' ? 'workspace'
    : name === 'Model' || /Methods$/.test(name) ? 'model' : null);
  for (const f of files) {
    const src = ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
    src.forEachChild((node) => {
      if (!(ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) || !node.name) return;
      const c = carrier(node.name.text);
      if (!c) return;
      for (const m of node.members) if (m.name && ts.isIdentifier(m.name)) out[c].add(m.name.text);
    });
  }
  return out;
}

describe('header scanner', () => {
  test('finds namespace-scope functions; skips members, detail namespaces, operators and types', () => {
    const names = freeFunctions(`
      #pragma once
      namespace achain {
      struct Foo { int bar(int x) const; static Foo make(); };  // members
      /// doc (with a paren)
      VecX inverseDynamics(const Model& m, DynamicsWorkspace& ws, const VecX& q, const DynamicsOptions& o = {});
      template <class F> inline auto guard(F&& f) -> decltype(f()) { return f(); }
      Vec3 operator*(const Vec3& a, double s);
      enum class Kind { A, B };
      using Cb = std::function<void(double)>;
      namespace detail { double hidden(double x); }
      inline double wrap(double a) { if (a > 0) { return a; } return -a; }
      }  // namespace achain
      namespace achain::io { Model modelFromJsonString(const std::string& text); }
    `);
    assert.deepEqual(names.sort(), ['guard', 'inverseDynamics', 'modelFromJsonString', 'wrap']);
  });

  test('the core headers yield the functions the bindings are named after', () => {
    for (const n of ['inverseDynamics', 'planJointPath', 'manipulabilityReport', 'ikNumeric', 'computeWorkspace']) {
      assert.ok(core[n], `${n} not found by the scanner`);
    }
    assert.ok(Object.keys(core).length > 100, `only ${Object.keys(core).length} functions found`);
  });
});

describe('wasm/bindings.json', () => {
  let achain;
  let model;
  let decl;
  before(async () => {
    achain = await loadAchain();
    model = achain.loadModel('prototype-4a');
    decl = declared();
  });

  test('every public core function is bound or excluded with a reason, and nothing else is listed', () => {
    const bound = Object.keys(manifest.bound);
    const excluded = Object.keys(manifest.excluded);
    const neither = Object.keys(core).filter((n) => !Object.hasOwn(manifest.bound, n) && !Object.hasOwn(manifest.excluded, n));
    assert.deepEqual(neither, [], `public core functions neither bound nor excluded (headers: ${neither.map((n) => `${n} in ${core[n].join(', ')}`).join('; ')})`);
    assert.deepEqual(bound.filter((n) => Object.hasOwn(manifest.excluded, n)), [], 'listed as both bound and excluded');
    const stale = [...bound, ...excluded].filter((n) => !core[n]);
    assert.deepEqual(stale, [], 'listed but no longer a public core function');
    for (const [n, why] of Object.entries(manifest.excluded)) assert.ok(typeof why === 'string' && why.length >= 10, `${n}: needs a reason`);
  });

  test('every bound function is an Embind function of the same name and a method of its JS carrier', () => {
    const M = achain.module;
    const carriers = { achain, model, workspace: Workspace.prototype };
    const missing = [];
    for (const [name, where] of Object.entries(manifest.bound)) {
      assert.ok(where in carriers, `${name}: unknown carrier '${where}'`);
      const embind = typeof M[name] === 'function' || typeof M.Model.prototype[name] === 'function'
        || typeof M.Workspace.prototype[name] === 'function';
      if (!embind) missing.push(`${name}: no Embind function '${name}'`);
      if (typeof carriers[where][name] !== 'function') missing.push(`${name}: not a function on ${where}`);
    }
    assert.deepEqual(missing, []);
    assert.ok(model instanceof Model);
  });

  test('every bound function is declared in wasm/achain.d.ts or wasm/types/*.d.ts on its carrier', () => {
    const undeclared = Object.entries(manifest.bound).filter(([name, where]) => !decl[where].has(name)).map(([n, w]) => `${w}.${n}`);
    assert.deepEqual(undeclared, []);
  });

  test('no Embind free function keeps an abbreviated pre-rename name', () => {
    const old = ['dynInverse', 'dynMass', 'dynForward', 'dynSeries', 'trajectoryPlan', 'trajectoryAnalyze', 'trajectoryCartesian',
      'manipulabilityMeasures', 'ikSolve', 'workspaceStart', 'legClearances', 'apairRange', 'apairLegCurves', 'loadModelJSON', 'loadBuiltin'];
    assert.deepEqual(old.filter((n) => n in achain.module), []);
  });

  test('IK status names are the core\'s, in code order', () => {
    assert.deepEqual([...achain.ikStatusNames], ['ok', 'unreachable', 'singular', 'limits']);
  });
});
