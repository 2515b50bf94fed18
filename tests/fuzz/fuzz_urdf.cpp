// libFuzzer target: the URDF reader (core/io/xml_tree parseXml with pugixml, then core/io/urdf
// modelFromUrdf, as `--robot file.urdf` reads), with the default options and with fixed joints kept and
// inertias balanced. Any input either loads or throws achain::Error; a loaded model must pass
// checkLoadedModel (JSON save/load identity, finite kinematics and gravity torques), and the XML tree
// survives its JSON form (xmlTreeToJson/xmlTreeFromJson, the wasm path). Seeds: tests/fuzz/seeds/urdf.
#include <achain/io/urdf.hpp>
#include <achain/io/xml_tree.hpp>

#include "fuzz_support.hpp"

using namespace achain;

namespace {
bool sameTree(const XmlElement& a, const XmlElement& b) {
  if (a.name != b.name || a.attributes != b.attributes || a.line != b.line || a.children.size() != b.children.size()) return false;
  for (size_t i = 0; i < a.children.size(); ++i)
    if (!sameTree(a.children[i], b.children[i])) return false;
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  XmlElement root;
  try {
    root = parseXml(fuzz::text(data, size));
  } catch (const Error&) {
    return 0;
  }
  if (!sameTree(xmlTreeFromJson(xmlTreeToJson(root)), root)) __builtin_trap();
  for (int variant = 0; variant < 2; ++variant) {
    UrdfOptions o;
    o.keep_fixed = variant == 1;
    o.balance_inertia = variant == 1;
    Model m;
    try {
      m = modelFromUrdf(root, o);
    } catch (const Error&) {
      continue;
    }
    fuzz::checkLoadedModel(m);
  }
  return 0;
}
