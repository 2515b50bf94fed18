// Downloads of the current model in other formats: URDF (model.modelToUrdf(), A-pairs as the achain:apair
// extension) and MuJoCo MJCF (model.modelToMjcf()). The core writes the text and says what the format
// cannot carry; those warnings are shown on the studio (docs/robot-format.md, URDF export and MJCF export).

/** Offers `text` as a file download named `name`. */
export function downloadText(text, name, type) {
  const blob = new Blob([text.endsWith('\n') ? text : `${text}\n`], { type });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * Exports the studio's current model as 'urdf' or 'mjcf': downloads it and shows the core's warnings.
 * Returns {text, warnings}; throws the core's error.
 */
export function exportModel(studio, format) {
  const m = studio.model;
  const r = format === 'urdf' ? m.modelToUrdf() : m.modelToMjcf();
  const text = format === 'urdf' ? r.urdf : r.mjcf;
  const name = `${m.name || 'robot'}.${format === 'urdf' ? 'urdf' : 'xml'}`;
  downloadText(text, name, 'application/xml');
  const label = format === 'urdf' ? 'URDF' : 'MJCF';
  studio.setWarnings('export', r.warnings.map((w) => ({ text: `${label} export: ${w}`, level: 'warn' })));
  studio.status(`exported ${name}${r.warnings.length ? ` with ${r.warnings.length} warning${r.warnings.length > 1 ? 's' : ''} (in the ⚠ list on the 3D view)` : ''}`);
  return { text, warnings: r.warnings };
}
