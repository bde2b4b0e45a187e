// Lenient version parsing: leading numeric components only, suffixes ignored.
#include "msprobe/analysis/version.h"

#include <cctype>

namespace msprobe::analysis {

std::optional<Version> Version::parse(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == 'v' || s.front() == 'V')) s.remove_prefix(1);
  Version v;
  v.text = std::string(s);
  int parts[3] = {0, 0, 0};
  int count = 0;
  std::size_t i = 0;
  while (count < 3 && i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    long value = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      value = value * 10 + (s[i] - '0');
      if (value > 1'000'000) return std::nullopt;
      ++i;
    }
    parts[count++] = static_cast<int>(value);
    if (i < s.size() && s[i] == '.') ++i;
    else break;
  }
  if (count == 0) return std::nullopt;
  v.major = parts[0];
  v.minor = parts[1];
  v.patch = parts[2];
  return v;
}

}  // namespace msprobe::analysis
