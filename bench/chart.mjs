// The benchmark chart (docs/benchmarks-chart.svg), hand-written SVG: per kernel and robot, one bar per
// implementation, its time relative to achain native in the same run (1 = native; shorter is faster).
// Bars past CAP are cut at CAP and carry their value.

const CAP = 5;
// Bar series in drawing order: label, colour, which implementation names (third part of the case name) they take.
const SERIES = [
  { label: 'floor (op count)', colour: '#bbbbbb', match: (impl) => impl === 'floor (op count)' },
  { label: 'achain native', colour: '#1f77b4', match: (impl) => impl === 'achain' },
  { label: 'achain native, batch per state', colour: '#6baed6', match: (impl) => impl === 'achain batch (per state)' },
  { label: 'achain-wasm (in-wasm loop)', colour: '#2ca02c', match: (impl) => impl === 'achain-wasm (in-wasm loop)' },
  { label: 'achain-wasm (out)', colour: '#98df8a', match: (impl) => /^achain-wasm \((fkTool, )?out\)$/.test(impl) },
  { label: 'achain-wasm (plain call)', colour: '#c7e9c0', match: (impl) => impl === 'achain-wasm' },
  { label: 'KDL', colour: '#ff7f0e', match: (impl) => /^KDL( \(4R twin\))?$/.test(impl) },
  { label: 'MuJoCo', colour: '#d62728', match: (impl) => /^MuJoCo( \(4R twin\))?$/.test(impl) },
  { label: 'mujoco-js', colour: '#9467bd', match: (impl) => /^mujoco-js( \(4R twin\))?$/.test(impl) },
];
const KERNELS = ['FK', 'Jacobian', 'RNEA', 'CRBA', 'ForwardDynamics'];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** SVG text of the chart for rows [{name: 'Op/robot/impl', ns}]; meta {commit, date}. */
export function chartSvg(rows, meta = {}) {
  const groups = [];
  for (const op of KERNELS) {
    for (const robot of [...new Set(rows.filter((r) => r.name.startsWith(`${op}/`)).map((r) => r.name.split('/')[1]))]) {
      const list = rows.filter((r) => r.name.split('/')[0] === op && r.name.split('/')[1] === robot);
      const ref = list.find((r) => r.name.split('/').slice(2).join('/') === 'achain');
      if (!ref) continue;
      const bars = [];
      for (const s of SERIES) {
        const r = list.find((x) => s.match(x.name.split('/').slice(2).join('/')));
        if (r) bars.push({ s, ratio: r.ns / ref.ns, ns: r.ns });
      }
      groups.push({ title: `${op} / ${robot}`, nativeNs: ref.ns, bars });
    }
  }
  const barH = 11, gap = 14, left = 240, plotW = 520, top = 56;
  const scale = (v) => (Math.min(v, CAP) / CAP) * plotW;
  let y = top;
  const parts = [];
  for (const g of groups) {
    parts.push(`<text x="${left - 8}" y="${y + 10}" text-anchor="end" font-weight="bold">${esc(g.title)}</text>`);
    parts.push(`<text x="${left - 8}" y="${y + 23}" text-anchor="end" fill="#555">native ${g.nativeNs < 1e3 ? `${g.nativeNs.toFixed(0)} ns` : `${(g.nativeNs / 1e3).toFixed(2)} µs`}</text>`);
    for (const b of g.bars) {
      const w = Math.max(1, scale(b.ratio));
      parts.push(`<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH - 1}" fill="${b.s.colour}"><title>${esc(b.s.label)}: ${b.ratio.toFixed(2)}× native</title></rect>`);
      const cut = b.ratio > CAP ? ' ▶' : '';
      parts.push(`<text x="${(left + w + 4).toFixed(1)}" y="${y + barH - 2}" font-size="9">${b.ratio.toFixed(2)}${cut}</text>`);
      y += barH;
    }
    y += gap;
  }
  const height = y + 10;
  const axis = [];
  for (let v = 0; v <= CAP; v++) {
    const x = left + scale(v);
    axis.push(`<line x1="${x}" y1="${top - 6}" x2="${x}" y2="${height - 10}" stroke="${v === 1 ? '#1f77b4' : '#e4e4e4'}" stroke-width="${v === 1 ? 1.2 : 1}"/>`);
    axis.push(`<text x="${x}" y="${top - 10}" text-anchor="middle" font-size="9">${v}×</text>`);
  }
  const legendW = 175;
  const legend = SERIES.map((s, i) => {
    const lx = 10 + (i % 5) * legendW, ly = 12 + Math.floor(i / 5) * 14;
    return `<rect x="${lx}" y="${ly - 8}" width="10" height="9" fill="${s.colour}"/><text x="${lx + 14}" y="${ly}" font-size="9">${esc(s.label)}</text>`;
  });
  const width = Math.max(left + plotW + 60, 10 + 5 * legendW);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="10">
<title>achain benchmarks: time relative to achain native (same run${meta.commit ? `, commit ${esc(meta.commit)}` : ''}${meta.date ? `, ${esc(meta.date)}` : ''}); bars past ${CAP}× are cut</title>
<rect width="100%" height="100%" fill="white"/>
${legend.join('\n')}
${axis.join('\n')}
${parts.join('\n')}
</svg>
`;
}
