#include <achain/dynamics/options.hpp>

#include <achain/math/text.hpp>

namespace achain {

LegModel legModelFromString(const std::string& s) {
  if (s == "massless") return LegModel::Massless;
  if (s == "lumped") return LegModel::Lumped;
  if (s == "full") return LegModel::Full;
  if (s == "potential") return LegModel::PotentialOnly;
  throw Error("legs: expected massless, lumped, full or potential (got " + quoteInput(s) + ")");
}

const char* toString(LegModel m) {
  switch (m) {
    case LegModel::Massless: return "massless";
    case LegModel::Lumped: return "lumped";
    case LegModel::Full: return "full";
    case LegModel::PotentialOnly: return "potential";
  }
  return "?";
}

}  // namespace achain
