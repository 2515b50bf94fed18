// Text from a robot file, a json= link or a URDF (names, descriptions, notes) is untrusted: it is put on the
// page with textContent, or — inside the few HTML templates that build tables — through escapeHtml, never
// as markup (issue 17; tests/web/untrusted.test.mjs).

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** s as HTML text: the markup characters replaced by entities, so that it shows literally. */
export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
