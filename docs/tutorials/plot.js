// A small line plot on a <canvas> for the tutorial pages (no dependency): x values, one or more series,
// a grid with five value lines, x tick labels, and a legend. Only draws: the numbers come from the core.
//   linePlot(canvas, { x, series: [{ y, color, label, x? }], xTicks: [values], xLabel: (v) => text, yDigits })
// A series may carry its own x (series of different lengths on one plot); otherwise the shared x is used.
export function linePlot(canvas, { x, series, xTicks, xLabel = (v) => String(v), yDigits = 2 }) {
  const g = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height, L = 56, R = 12, T = 12, B = 30;
  const all = series.flatMap((s) => [...s.y]);
  const lo = Math.min(0, ...all), hi = Math.max(...all) * 1.05 || 1;
  const xs = series.map((s) => [...(s.x ?? x)]);
  const x0 = Math.min(...xs.flat()), x1 = Math.max(...xs.flat());
  const px = (t) => L + ((t - x0) / (x1 - x0 || 1)) * (W - L - R);
  const py = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  g.fillStyle = '#fff'; g.fillRect(0, 0, W, H);
  g.strokeStyle = '#cbd5e1'; g.fillStyle = '#334155'; g.font = '12px sans-serif'; g.lineWidth = 1;
  for (let k = 0; k <= 5; k++) {
    const v = lo + (k * (hi - lo)) / 5;
    g.beginPath(); g.moveTo(L, py(v)); g.lineTo(W - R, py(v)); g.stroke();
    g.fillText(v.toFixed(yDigits), 6, py(v) + 4);
  }
  for (const t of xTicks ?? [x0, x1]) g.fillText(xLabel(t), px(t) - 10, H - 10);
  series.forEach((s, i) => {
    g.strokeStyle = s.color; g.lineWidth = 2; g.beginPath();
    xs[i].forEach((t, k) => (k ? g.lineTo(px(t), py(s.y[k])) : g.moveTo(px(t), py(s.y[k]))));
    g.stroke();
    g.font = '13px sans-serif'; g.fillStyle = s.color;
    g.fillText(s.label, W - R - 250, T + 16 + 18 * i);
  });
}
