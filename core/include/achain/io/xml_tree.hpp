// A plain XML element tree: the one input of the URDF reader (urdf.hpp). Natively it is filled by pugixml
// (parseXml); in the browser and Node the page parses the XML (DOMParser, @xmldom/xmldom) and hands the
// same tree over as JSON (xmlTreeFromJson), so no XML library is needed in the wasm build.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace achain {

/// One element: its (qualified) name, attributes in document order, child elements, and its source line.
/// Text, comments and processing instructions are not kept (URDF carries everything in attributes).
struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlElement> children;
  int line = 0;  ///< 1-based line of the start tag; 0 when the parser does not report lines

  /// The attribute's value, or nullptr when absent.
  const std::string* attribute(const std::string& key) const;
  /// "<name> (line N)" (or "<name>" when the line is unknown), for messages.
  std::string where() const;
};

/// True when the text's first non-blank character is '<' (an XML document, not JSON).
bool looksLikeXml(const std::string& text);

/// Parses an XML document into its root element (native builds, with pugixml). Throws achain::Error
/// "(document): malformed XML at line N: …" for text that is not well-formed. In the wasm build it
/// throws: there the caller parses the XML and passes the tree to xmlTreeFromJson.
XmlElement parseXml(const std::string& text);

/// The tree from its JSON form {"name": s, "line": n, "attributes": [[key, value], …], "children": [ … ]}
/// ("line", "attributes", "children" optional). Throws achain::Error naming the bad field.
XmlElement xmlTreeFromJson(const nlohmann::json& j);
/// The JSON form of a tree (the inverse of xmlTreeFromJson).
nlohmann::json xmlTreeToJson(const XmlElement& e);

}  // namespace achain
