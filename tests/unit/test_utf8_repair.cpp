// Message bodies with invalid UTF-8: one U+FFFD per offending byte, lone
// surrogate escapes replaced, everything well-formed left alone.
#include <catch2/catch.hpp>

#include "msprobe/protocol/jsonrpc.h"
#include "msprobe/protocol/utf8_repair.h"

using msprobe::protocol::repair_utf8;

namespace {

std::string repaired(std::string_view in, bool expect_change = true) {
  bool changed = false;
  std::string out = repair_utf8(in, changed);
  CHECK(changed == expect_change);
  return out;
}

const std::string R = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

TEST_CASE("utf8 repair: well-formed text is left alone") {
  std::string text = "plain \xC3\xA9 \xE7\xB2\xBE\xE5\xBA\xA6 \xF0\x9F\x98\x80 \"\\ud83d\\ude00\" \"\\\\udc00\"";
  CHECK(repaired(text, false) == text);
}

TEST_CASE("utf8 repair: each byte outside a well-formed sequence becomes one U+FFFD") {
  CHECK(repaired("a\xFF"
                 "b") == "a" + R + "b");                 // never valid
  CHECK(repaired("\x80") == R);                          // stray continuation
  CHECK(repaired("\xC0\x80") == R + R);                  // overlong NUL
  CHECK(repaired("\xED\xA0\x80") == R + R + R);          // a surrogate, encoded
  CHECK(repaired("\xF4\x90\x80\x80") == R + R + R + R);  // above U+10FFFF
  CHECK(repaired("\xE4\xB8"
                 "A") == R + R + "A");          // cut short: the ASCII survives
  CHECK(repaired("x\xE7\xB2") == "x" + R + R);  // cut short at the end
  CHECK(repaired("\xE7\xB2\xBE\xFE\xE5\xBA\xA6") == "\xE7\xB2\xBE" + R + "\xE5\xBA\xA6");
}

TEST_CASE("utf8 repair: lone surrogate escapes in JSON strings become \\uFFFD") {
  CHECK(repaired(R"({"t": "a\udce4b"})") == R"({"t": "a\uFFFDb"})");
  CHECK(repaired(R"({"t": "\ud800"})") == R"({"t": "\uFFFD"})");
  CHECK(repaired(R"({"t": "\ud800\u0041"})") == R"({"t": "\uFFFD\u0041"})");  // a high half without its low half
  CHECK(repaired(R"({"t": "\ud83d\ude00 \udc00"})") == R"({"t": "\ud83d\ude00 \uFFFD"})");
  CHECK(repaired(R"({"t": "\\udc00", "u": "\"\udc00"})") == R"({"t": "\\udc00", "u": "\"\uFFFD"})");
}

TEST_CASE("utf8 repair: a didOpen with raw bytes in its text is read, not refused") {
  std::string body =
      "{\"jsonrpc\": \"2.0\", \"method\": \"textDocument/didOpen\", \"params\": {\"textDocument\": "
      "{\"uri\": \"file:///a.py\", \"languageId\": \"python\", \"version\": 1, \"text\": \"s = '\xE4\xB8'\"}}}";
  auto msg = msprobe::protocol::parse_message(body);
  auto* n = std::get_if<msprobe::protocol::Notification>(&msg);
  REQUIRE(n);
  CHECK(n->params["textDocument"]["text"] == "s = '" + R + R + "'");
  // Not JSON at all stays a parse error.
  CHECK(std::holds_alternative<msprobe::protocol::Invalid>(msprobe::protocol::parse_message("{\"a\": \xFF")));
}
