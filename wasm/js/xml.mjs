// XML text → the element tree of io/xml_tree.hpp: {name, line, attributes: [[key, value], …], children}.
// The page's XML parser does the parsing (DOMParser in browsers, @xmldom/xmldom in Node); this file has no
// URDF semantics: the C++ core maps the tree (modelFromUrdf).
let NodeDOMParser = null;

/** Finds an XML parser where the platform has none (Node: @xmldom/xmldom, if installed). Called by loadAchain. */
export async function prepareXmlParser() {
  if (globalThis.DOMParser || NodeDOMParser) return;
  try {
    const name = '@xmldom/xmldom';
    NodeDOMParser = (await import(/* @vite-ignore */ name)).DOMParser;
  } catch {
    // absent: xmlTree says so when it is asked to parse
  }
}

/** True when the text's first non-blank character is '<' (XML, not JSON). */
export function looksLikeXml(text) {
  return typeof text === 'string' && text.replace(/^\uFEFF/, '').trimStart().startsWith('<');
}

/**
 * Lines of the start tags of a well-formed document, in document order (the order of a pre-order walk of its
 * elements), for parsers that report no positions (the browser's DOMParser). Comments, CDATA, processing
 * instructions and the DOCTYPE are skipped; in well-formed XML no other '<' can open anything.
 */
function startTagLines(text) {
  const lines = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') { line++; continue; }
    if (c !== '<') continue;
    const skipTo = (end) => {
      const j = text.indexOf(end, i);
      const stop = j < 0 ? text.length : j + end.length;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop - 1;
    };
    if (text.startsWith('<!--', i)) skipTo('-->');
    else if (text.startsWith('<![CDATA[', i)) skipTo(']]>');
    else if (text.startsWith('<?', i)) skipTo('?>');
    else if (text.startsWith('<!', i)) skipTo('>');
    else if (text[i + 1] !== '/') lines.push(line);
  }
  return lines;
}

function convert(el, depth, lines) {
  if (depth > 256) throw new Error('(document): elements nested deeper than 256 levels');
  const line = Number.isInteger(el.lineNumber) ? el.lineNumber : (lines.list[lines.next] ?? 0);
  lines.next++;
  const attributes = Array.from(el.attributes, (a) => [a.name, a.value]);
  const children = [];
  for (const c of Array.from(el.childNodes)) if (c.nodeType === 1) children.push(convert(c, depth + 1, lines));
  return { name: el.nodeName, line, attributes, children };
}

/** Parses XML text into the element tree; throws Error "(document): malformed XML: …" for text that is not well-formed. */
export function xmlTree(text) {
  if (globalThis.DOMParser) {
    const doc = new globalThis.DOMParser().parseFromString(text, 'application/xml');
    const err = doc.getElementsByTagName('parsererror')[0];
    // Chromium wraps its message in "This page contains the following errors: <div>…</div> Below is a rendering…":
    // the <div> holds the message itself ("error on line 7 at column 1: …"); Firefox has the message as the text
    if (err) throw new Error(`(document): malformed XML: ${(err.getElementsByTagName('div')[0] ?? err).textContent.trim().split('\n')[0]}`);
    return convert(doc.documentElement, 0, { list: startTagLines(text), next: 0 });
  }
  if (!NodeDOMParser) throw new Error('(document): no XML parser here (install @xmldom/xmldom in Node, or use a browser)');
  let doc;
  try {
    doc = new NodeDOMParser({
      onError: (level, message) => { if (level !== 'warning') throw new Error(String(message)); },
    }).parseFromString(text, 'text/xml');
  } catch (e) {
    throw new Error(`(document): malformed XML: ${String(e.message).split('\n')[0]}`);
  }
  if (!doc.documentElement) throw new Error('(document): malformed XML: no root element');
  return convert(doc.documentElement, 0, { list: [], next: 0 });
}
