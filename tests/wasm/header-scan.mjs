// A small scanner for the public free functions of the C++ core: the names of functions declared or
// defined at namespace scope in core/include/achain/**/*.hpp (not in class bodies, function bodies or
// detail/internal namespaces). Keyed on names only: signatures and scratch types may change freely.
import fs from 'node:fs';
import path from 'node:path';

/** Every .hpp file under dir, sorted. */
export function headerFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...headerFiles(p));
    else if (e.name.endsWith('.hpp')) out.push(p);
  }
  return out.sort();
}

/** The names of the free functions a header declares at (non-detail) namespace scope. */
export function freeFunctions(source) {
  const text = source
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/[^\n]*/g, ' ')
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
    .replace(/'(?:[^'\\\n]|\\.)*'/g, "''")
    .replace(/^[ \t]*#[^\n]*(?:\\\n[^\n]*)*/gm, ' ');
  const names = new Set();
  const scopes = [];  // {ns: name | null (a non-namespace brace), count: namespaces opened by this brace}
  const isPublic = () => scopes.every((s) => s.ns !== null && s.ns !== '' && !/^(detail|internal|impl)$/.test(s.ns));
  let chunk = '';
  let paren = 0;
  const statement = () => {
    const c = chunk.trim();
    chunk = '';
    if (!c || !isPublic()) return;
    const s = c.replace(/^template\s*<[^;{}]*?>\s*/, '');
    if (/^(using|typedef|struct|class|enum|union|static_assert|namespace|friend|template)\b/.test(s)) return;
    const m = s.match(/^([\w:<>,\s*&]+?)\b([A-Za-z_]\w*)\s*\(/);
    if (!m || !/\S/.test(m[1]) || m[2] === 'operator' || /\boperator\b/.test(m[1])) return;
    names.add(m[2]);
  };
  for (const ch of text) {
    if (ch === '(') paren++;
    else if (ch === ')') paren--;
    if (paren > 0 || ch === '(' || ch === ')') { chunk += ch; continue; }
    if (ch === ';') { statement(); continue; }
    if (ch === '{') {
      const ns = chunk.match(/\bnamespace\s*([\w:]*)\s*$/);
      if (ns) {
        chunk = '';
        const parts = ns[1].split('::');
        parts.forEach((p, i) => scopes.push({ ns: p, count: i === parts.length - 1 ? parts.length : 0 }));
      } else {
        statement();
        scopes.push({ ns: null, count: 1 });
      }
      continue;
    }
    if (ch === '}') {
      chunk = '';
      const top = scopes.pop();
      for (let k = 1; k < (top?.count ?? 1); k++) scopes.pop();
      continue;
    }
    chunk += ch;
  }
  return [...names];
}

/** {name: [header, …]} for every public free function under core/include/achain. */
export function coreFunctions(root) {
  const dir = path.join(root, 'core/include/achain');
  const out = Object.create(null);  // names like toString must not hit Object.prototype
  for (const f of headerFiles(dir)) {
    for (const n of freeFunctions(fs.readFileSync(f, 'utf8'))) (out[n] ??= []).push(path.relative(dir, f));
  }
  return out;
}
