// Prefix, suffix and substring tests on names, qualified names, source text
// and URIs, for the engine and the server (C++17's std::string has no
// starts_with).
#pragma once

#include <string_view>

namespace msprobe::analysis {

inline bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

inline bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

}  // namespace msprobe::analysis
