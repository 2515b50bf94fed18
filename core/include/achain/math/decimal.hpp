// The one reader of a number written as text (command-line options, URDF attributes): plain decimal only.
#pragma once
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include <achain/math/text.hpp>

namespace achain {

/// Why `text` is not a plain decimal number ("" when it is, and then `value` holds it). Refused: hexadecimal
/// (0x10, which strtod takes), inf and nan, anything strtod does not consume whole, values that over- or
/// underflow a double (1e-400) and, with `whole`, anything but an integer (no point, no exponent).
inline std::string decimalProblem(const std::string& text, bool whole, double& value) {
  if (text.empty() || text.find_first_not_of(whole ? "0123456789+-" : "0123456789+-.eE") != std::string::npos)
    return quoteInput(text) + (whole ? " is not a whole number (decimal notation only)" : " is not a number (decimal notation only)");
  char* end = nullptr;
  errno = 0;
  value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return quoteInput(text) + " is not a number";
  if (errno == ERANGE || !std::isfinite(value))
    return quoteInput(text) + " is outside the range of a double (too large or too close to 0)";
  return "";
}

}  // namespace achain
