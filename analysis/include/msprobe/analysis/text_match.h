// Prefix, suffix and substring tests on names, qualified names, source text
// and URIs, for the engine and the server (C++17's std::string has no
// starts_with).
#pragma once

#include <algorithm>
#include <bitset>
#include <string>
#include <string_view>

namespace msprobe::analysis {

inline bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

inline bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The name starts with an ASCII capital (a class, by Python's convention).
inline bool upper_first(std::string_view s) { return !s.empty() && s[0] >= 'A' && s[0] <= 'Z'; }

// ASCII case folding, as std::tolower in the "C" locale (the process never
// sets another), without a library call per byte: bytes >= 0x80 (UTF-8) are
// left alone.
inline char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// `s` in lower case, into `buf` (reused: no allocation once it is large enough).
inline std::string_view lowered_into(std::string_view s, std::string& buf) {
  buf.assign(s);
  for (char& c : buf) c = ascii_lower(c);
  return buf;
}
inline std::string lowered(std::string_view s) {
  std::string out;
  lowered_into(s, out);
  return out;
}

// A set of names tested by first byte and length only: `may_hold` is false
// for most names not added and true for every name added, so a caller passes
// over most names before a lookup in its own map.
class NameSieve {
 public:
  void add(std::string_view name) {
    if (!name.empty()) bits_.set(key(name));
  }
  bool may_hold(std::string_view name) const { return !name.empty() && bits_.test(key(name)); }

 private:
  static constexpr std::size_t kLengths = 32;  // longer names share the last slot
  static std::size_t key(std::string_view name) {
    return static_cast<unsigned char>(name[0]) * kLengths + std::min(name.size(), kLengths - 1);
  }
  std::bitset<256 * kLengths> bits_;
};

}  // namespace msprobe::analysis
