// Dotted version numbers ("2.7.1+cpu", "26.0.0a2", "8.3") and comparisons.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace msprobe::analysis {

struct Version {
  int major = 0, minor = 0, patch = 0;
  std::string text;  // as given

  static std::optional<Version> parse(std::string_view s);
  friend bool operator<(const Version& a, const Version& b) {
    if (a.major != b.major) return a.major < b.major;
    if (a.minor != b.minor) return a.minor < b.minor;
    return a.patch < b.patch;
  }
  friend bool operator>=(const Version& a, const Version& b) { return !(a < b); }
};

}  // namespace msprobe::analysis
