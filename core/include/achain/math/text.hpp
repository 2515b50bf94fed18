// Text helpers for messages that quote user input.
#pragma once
#include <string>

namespace achain {

/// User input quoted for an error message: control characters escaped (\n, \x1b, …) so that a
/// message cannot drive the terminal, and cut after `max` bytes ("…") so that a 10 MB key is not echoed.
inline std::string quoteInput(const std::string& s, size_t max = 80) {
  std::string out = "'";
  static const char* hex = "0123456789abcdef";
  for (size_t i = 0; i < s.size() && i < max; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) { out += "\\x"; out += hex[c >> 4]; out += hex[c & 15]; }
    else out += static_cast<char>(c);
  }
  if (s.size() > max) out += "…";
  return out + "'";
}

/// User input named in a message: as it is when it is short and printable (a field name, a path), else
/// quoted by quoteInput.
inline std::string nameInput(const std::string& s, size_t max = 200) {
  bool plain = s.size() <= max;
  for (size_t i = 0; plain && i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    plain = c >= 0x20 && c != 0x7f;
  }
  return plain ? s : quoteInput(s, max);
}

}  // namespace achain
