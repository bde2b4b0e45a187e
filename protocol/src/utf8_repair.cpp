// Byte-level UTF-8 validation (RFC 3629's well-formed sequences) and the
// JSON-string pass for lone surrogate escapes.
#include "msprobe/protocol/utf8_repair.h"

#include <cctype>

namespace msprobe::protocol {
namespace {

constexpr const char kReplacement[] = "\xEF\xBF\xBD";

bool continuation(unsigned char c, unsigned char lo = 0x80, unsigned char hi = 0xBF) { return c >= lo && c <= hi; }

// Length of the well-formed sequence at s[i], or 0 when the byte starts none.
std::size_t sequence_length(std::string_view s, std::size_t i) {
  auto at = [&](std::size_t k) -> unsigned char { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  unsigned char c = at(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return continuation(at(1)) ? 2 : 0;
  if (c == 0xE0) return continuation(at(1), 0xA0) && continuation(at(2)) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return continuation(at(1)) && continuation(at(2)) ? 3 : 0;
  if (c == 0xED) return continuation(at(1), 0x80, 0x9F) && continuation(at(2)) ? 3 : 0;  // no surrogates
  if (c == 0xF0) return continuation(at(1), 0x90) && continuation(at(2)) && continuation(at(3)) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return continuation(at(1)) && continuation(at(2)) && continuation(at(3)) ? 4 : 0;
  if (c == 0xF4) return continuation(at(1), 0x80, 0x8F) && continuation(at(2)) && continuation(at(3)) ? 4 : 0;
  return 0;
}

bool hex4(std::string_view s, std::size_t i, unsigned& value) {
  if (i + 4 > s.size()) return false;
  value = 0;
  for (std::size_t k = i; k < i + 4; ++k) {
    char c = s[k];
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    value = value * 16 +
            static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (std::tolower(c) - 'a' + 10));
  }
  return true;
}

// The \uXXXX escapes of surrogates that do not pair up, rewritten as \uFFFD (same length).
bool repair_escapes(std::string& text) {
  bool changed = false, in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!in_string) {
      if (c == '"') in_string = true;
      continue;
    }
    if (c == '"') {
      in_string = false;
      continue;
    }
    if (c != '\\' || i + 1 >= text.size()) continue;
    if (text[i + 1] != 'u') {
      ++i;  // \" \\ \n ...: the escaped character is not a quote or an escape start
      continue;
    }
    unsigned v = 0, low = 0;
    if (!hex4(text, i + 2, v)) continue;
    if (v >= 0xD800 && v <= 0xDBFF && i + 7 < text.size() && text[i + 6] == '\\' && text[i + 7] == 'u' &&
        hex4(text, i + 8, low) && low >= 0xDC00 && low <= 0xDFFF) {
      i += 11;  // a pair: keep both halves
      continue;
    }
    if (v >= 0xD800 && v <= 0xDFFF) {
      text.replace(i + 2, 4, "FFFD");
      changed = true;
    }
    i += 5;
  }
  return changed;
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = sequence_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string repair_utf8(std::string_view body, bool& changed) {
  changed = false;
  std::string out;
  out.reserve(body.size());
  for (std::size_t i = 0; i < body.size();) {
    std::size_t n = sequence_length(body, i);
    if (n == 0) {
      out += kReplacement;
      changed = true;
      ++i;
      continue;
    }
    out.append(body.substr(i, n));
    i += n;
  }
  if (repair_escapes(out)) changed = true;
  return out;
}

}  // namespace msprobe::protocol
