#include <achain/io/xml_tree.hpp>
#include <achain/math/text.hpp>
#include <achain/math/types.hpp>

#include <algorithm>

#ifdef ACHAIN_HAVE_PUGIXML
#include <pugixml.hpp>
#endif

namespace achain {

using nlohmann::json;

const std::string* XmlElement::attribute(const std::string& key) const {
  for (const auto& kv : attributes)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

std::string XmlElement::where() const {
  return "<" + name + ">" + (line > 0 ? " (line " + std::to_string(line) + ")" : "");
}

bool looksLikeXml(const std::string& text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text.compare(first, 3, "\xEF\xBB\xBF") == 0)  // UTF-8 byte-order mark
    first = text.find_first_not_of(" \t\r\n", first + 3);
  return first != std::string::npos && text[first] == '<';
}

#ifdef ACHAIN_HAVE_PUGIXML
namespace {
/// 1-based line of a byte offset (newline offsets sorted).
int lineOf(const std::vector<size_t>& newlines, ptrdiff_t offset) {
  if (offset < 0) return 0;
  return int(std::upper_bound(newlines.begin(), newlines.end(), size_t(offset)) - newlines.begin()) + 1;
}
XmlElement convert(const pugi::xml_node& n, const std::vector<size_t>& newlines, int depth) {
  XmlElement e;
  if (depth > 256) throw Error("(document): elements nested deeper than 256 levels at line " + std::to_string(lineOf(newlines, n.offset_debug())));
  e.name = n.name();
  e.line = lineOf(newlines, n.offset_debug());
  for (const pugi::xml_attribute& a : n.attributes()) {
    // XML forbids a repeated attribute (a browser's parser refuses it); pugixml keeps both and the reader took the first
    for (const auto& kv : e.attributes)
      if (kv.first == a.name())
        throw Error("(document): <" + nameInput(e.name, 64) + "> at line " + std::to_string(e.line) + " repeats attribute " +
                    quoteInput(kv.first, 64) + " (XML allows one of each)");
    e.attributes.emplace_back(a.name(), a.value());
  }
  for (const pugi::xml_node& c : n.children())
    if (c.type() == pugi::node_element) e.children.push_back(convert(c, newlines, depth + 1));
  return e;
}
}  // namespace

XmlElement parseXml(const std::string& text) {
  std::vector<size_t> newlines;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') newlines.push_back(i);
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!r) throw Error("(document): malformed XML at line " + std::to_string(lineOf(newlines, r.offset)) + ": " + r.description());
  const pugi::xml_node root = doc.document_element();
  if (!root) throw Error("(document): no XML element found");
  // XML has one root element; pugixml reads a fragment with several and the reader used the first
  for (pugi::xml_node n = root.next_sibling(); n; n = n.next_sibling())
    if (n.type() == pugi::node_element)
      throw Error("(document): a second root element <" + nameInput(n.name(), 64) + "> at line " +
                  std::to_string(lineOf(newlines, n.offset_debug())) + " (XML has one root element, here <" + nameInput(root.name(), 64) + ">)");
  return convert(root, newlines, 0);
}
#else
XmlElement parseXml(const std::string&) {
  throw Error("(document): this build has no XML parser; parse the XML in the caller and pass the element tree (xmlTreeFromJson)");
}
#endif

namespace {
XmlElement fromJson(const json& j, const std::string& path, int depth) {
  if (depth > 256) throw Error(path + ": nested deeper than 256 elements");
  if (!j.is_object()) throw Error(path + ": must be an object {name, line, attributes, children}");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "name" && it.key() != "line" && it.key() != "attributes" && it.key() != "children")
      throw Error(path + "." + nameInput(it.key(), 64) + ": unknown field (allowed here: attributes, children, line, name)");
  XmlElement e;
  if (!j.contains("name") || !j.at("name").is_string()) throw Error(path + ".name: missing (a string)");
  e.name = j.at("name").get<std::string>();
  if (j.contains("line")) {
    if (!j.at("line").is_number_integer() || j.at("line").get<long long>() < 0 || j.at("line").get<long long>() > (1LL << 30))
      throw Error(path + ".line: must be a non-negative integer");
    e.line = int(j.at("line").get<long long>());
  }
  if (j.contains("attributes")) {
    const json& A = j.at("attributes");
    if (!A.is_array()) throw Error(path + ".attributes: must be an array of [key, value] pairs");
    for (size_t k = 0; k < A.size(); ++k) {
      if (!A[k].is_array() || A[k].size() != 2 || !A[k][0].is_string() || !A[k][1].is_string())
        throw Error(path + ".attributes[" + std::to_string(k) + "]: must be a [key, value] pair of strings");
      e.attributes.emplace_back(A[k][0].get<std::string>(), A[k][1].get<std::string>());
    }
  }
  if (j.contains("children")) {
    const json& C = j.at("children");
    if (!C.is_array()) throw Error(path + ".children: must be an array of elements");
    for (size_t k = 0; k < C.size(); ++k)
      e.children.push_back(fromJson(C[k], path + ".children[" + std::to_string(k) + "]", depth + 1));
  }
  return e;
}
}  // namespace

XmlElement xmlTreeFromJson(const json& j) { return fromJson(j, "(tree)", 0); }

json xmlTreeToJson(const XmlElement& e) {
  json A = json::array();
  for (const auto& kv : e.attributes) A.push_back({kv.first, kv.second});
  json C = json::array();
  for (const auto& c : e.children) C.push_back(xmlTreeToJson(c));
  return {{"name", e.name}, {"line", e.line}, {"attributes", A}, {"children", C}};
}

}  // namespace achain
