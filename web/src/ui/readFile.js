// Reading a file the user chose (a file input or a drop). The browser reads it lazily, from disk, when asked:
// a file moved, deleted or on a drive removed since it was chosen fails then (NotFoundError, NotReadableError).
// Every reader goes through here so that failure is an error naming the file, never an unhandled rejection.

function unreadable(name, e) {
  return new Error(`${name}: the file could not be read (${e?.message || e}); was it moved or deleted after it was chosen?`);
}

/** The file's text; throws an error naming the file when it can no longer be read. */
export async function readFileText(file, name = file.name) {
  try { return await file.text(); } catch (e) { throw unreadable(name, e); }
}

/** The file's bytes; throws an error naming the file when it can no longer be read. */
export async function readFileBytes(file, name = file.name) {
  try { return new Uint8Array(await file.arrayBuffer()); } catch (e) { throw unreadable(name, e); }
}
