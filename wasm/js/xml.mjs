// XML text → the element tree of core/io/xml_tree.hpp: {name, line, attributes: [[key, value], …], children}.
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

function convert(el, depth) {
  if (depth > 256) throw new Error('(document): elements nested deeper than 256 levels');
  const attributes = Array.from(el.attributes, (a) => [a.name, a.value]);
  const children = [];
  for (const c of Array.from(el.childNodes)) if (c.nodeType === 1) children.push(convert(c, depth + 1));
  return { name: el.nodeName, line: Number.isInteger(el.lineNumber) ? el.lineNumber : 0, attributes, children };
}

/** Parses XML text into the element tree; throws Error "(document): malformed XML: …" for text that is not well-formed. */
export function xmlTree(text) {
  if (globalThis.DOMParser) {
    const doc = new globalThis.DOMParser().parseFromString(text, 'application/xml');
    const err = doc.getElementsByTagName('parsererror')[0];
    if (err) throw new Error(`(document): malformed XML: ${err.textContent.trim().split('\n')[0]}`);
    return convert(doc.documentElement, 0);
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
  return convert(doc.documentElement, 0);
}
