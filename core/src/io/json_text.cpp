#include <achain/io/json_text.hpp>

#include <fstream>
#include <set>
#include <vector>

#include <achain/math/text.hpp>
#include <achain/math/types.hpp>

namespace achain {

using nlohmann::json;

namespace {
std::string bytes(std::size_t n) {
  return n % 1024 == 0 && n >= 1024 ? (n % (1 << 20) == 0 ? std::to_string(n >> 20) + " MiB" : std::to_string(n >> 10) + " KiB")
                                    : std::to_string(n) + " bytes";
}
}  // namespace

json parseJsonText(const std::string& text, int max_depth) {
  // Per open object, the keys seen so far (duplicate keys: parsers disagree on which one wins, so
  // "kind": "R", "kind": "A" must not silently load an A-pair).
  std::vector<std::set<std::string>> keys;
  json::parser_callback_t cb = [&](int depth, json::parse_event_t ev, json& parsed) {
    if (ev == json::parse_event_t::object_start || ev == json::parse_event_t::array_start) {
      if (depth >= max_depth)
        throw Error("(document): nested deeper than " + std::to_string(max_depth) + " arrays or objects");
      if (ev == json::parse_event_t::object_start) keys.emplace_back();
    } else if (ev == json::parse_event_t::object_end) {
      if (!keys.empty()) keys.pop_back();
    } else if (ev == json::parse_event_t::key || ev == json::parse_event_t::value) {
      if (parsed.is_string()) {
        const std::string& s = parsed.get_ref<const std::string&>();
        if (s.size() > kMaxJsonStringBytes)
          throw Error("(document): a " + std::string(ev == json::parse_event_t::key ? "key" : "string") + " of " +
                      std::to_string(s.size()) + " bytes (at most " + bytes(kMaxJsonStringBytes) + "): " + quoteInput(s, 40));
        if (ev == json::parse_event_t::key && !keys.empty() && !keys.back().insert(s).second)
          throw Error("(document): duplicate key " + quoteInput(s, 64) + " in one object (give each field once)");
      }
    }
    return true;
  };
  try {
    return json::parse(text, cb);
  } catch (const json::parse_error& e) {
    std::string w = e.what();
    const auto pos = w.find("parse error");
    if (pos != std::string::npos) w = w.substr(pos);
    // nlohmann's message quotes the last bytes read ("last read: '…'"): escaped and cut like all input
    throw Error("(document): malformed JSON at byte " + std::to_string(e.byte) + ": " + nameInput(w, 300));
  } catch (const json::out_of_range& e) {
    // A number literal beyond a double (1e999) is nlohmann's out_of_range 406, not a parse_error (found by
    // tests/fuzz/fuzz_model_json: it escaped as a foreign exception with nlohmann's own message).
    const std::string w = e.what();
    const auto a = w.find('\''), b = w.rfind('\'');
    throw Error("(document): malformed JSON: the number " +
                (a != std::string::npos && b > a ? quoteInput(w.substr(a + 1, b - a - 1), 40) : std::string("given")) +
                " is outside the range of a double");
  }
}

std::string readTextFile(const std::string& path, std::size_t max_bytes, const std::string& what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(nameInput(what) + ": cannot open file");
  std::string text;
  char buf[1 << 16];
  while (f.read(buf, sizeof buf) || f.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(f.gcount()));
    if (text.size() > max_bytes) throw Error(nameInput(what) + ": larger than " + bytes(max_bytes) + "; refused before reading it all");
  }
  return text;
}

}  // namespace achain
