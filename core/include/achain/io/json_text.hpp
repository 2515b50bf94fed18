// JSON text as every reader of the library takes it: bounded (caps.hpp: nesting depth, string size, file
// size) and strict (a key given twice in one object is an error, not "the last one wins").
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include <achain/model/caps.hpp>

namespace achain {

/// Parses JSON text. Throws achain::Error starting with "(document): " for malformed text, nesting deeper
/// than max_depth arrays/objects, a string or key longer than kMaxJsonStringBytes, or a duplicate key
/// (quoted with control characters escaped and cut, as every message quoting input).
nlohmann::json parseJsonText(const std::string& text, int max_depth = kMaxJsonDepth);

/// The text of a file, refused past max_bytes before it fills the memory (/dev/zero). `what` names the
/// file in messages (e.g. its path).
std::string readTextFile(const std::string& path, std::size_t max_bytes, const std::string& what);

}  // namespace achain
