// Text helpers for messages that quote user input.
#pragma once
#include <cstdio>
#include <string>

namespace achain {

/// The length of s cut to at most max bytes without splitting a UTF-8 sequence.
inline size_t utf8Cut(const std::string& s, size_t max) {
  if (s.size() <= max) return s.size();
  size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // s[n] a continuation byte
  return n;
}

/// The first utf8Cut(s, max) bytes of s with control characters escaped (\n, \t, \x1b, …): the text of
/// quoteInput and safeMessage.
inline std::string escapeControl(const std::string& s, size_t max) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  const size_t cut = utf8Cut(s, max);
  for (size_t i = 0; i < cut; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) { out += "\\x"; out += hex[c >> 4]; out += hex[c & 15]; }
    else out += static_cast<char>(c);
  }
  return out;
}

/// User input quoted for an error message: control characters escaped (\n, \x1b, …) so that a
/// message cannot drive the terminal, and cut after `max` bytes ("…") so that a 10 MB key is not echoed.
inline std::string quoteInput(const std::string& s, size_t max = 80) {
  return "'" + escapeControl(s, max) + (s.size() > max ? "…'" : "'");
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

/// A number for a message, in the shortest general form (1e-300, 0.5, 1e+07): std::to_string would print
/// 1e-300 as 0.000000.
inline std::string shortNumber(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

/// A whole message made safe to print on a terminal, whatever input it quotes: control characters escaped
/// (\x1b, \x07, …; newlines and tabs too, so that it stays one line) and cut after `max` bytes ("…").
/// The CLI prints every error through it, the wasm layer throws every error through it.
inline std::string safeMessage(const std::string& s, size_t max = 2000) {
  std::string out = escapeControl(s, max);
  const size_t cut = utf8Cut(s, max);
  if (cut < s.size()) out += "… (" + std::to_string(s.size() - cut) + " more bytes)";
  return out;
}

}  // namespace achain
