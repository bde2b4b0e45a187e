// Syntax errors as the user reads them (analysis/src/syntax_findings.cpp):
// each case is a broken file and every syntax finding expected in it, as
// "line:column message" (1-based, like `msprobe-lsp check`). Python 3.11's
// own message for each case is noted where ours follows it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "msprobe/analysis/analyzer.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;

namespace {

std::vector<std::string> syntax_lines(const std::string& text) {
  test_support::UnboundedParser parser;
  SourceText src(text);
  Analysis a = analyze(parser, src, AnalysisOptions{});
  std::vector<std::string> out;
  for (const Finding& f : a.findings) {
    if (!f.code.empty()) continue;
    uint32_t line = src.line_of(f.range.start);
    uint32_t col = f.range.start - static_cast<uint32_t>(src.line_start(line));
    out.push_back(std::to_string(line + 1) + ":" + std::to_string(col + 1) + " " + f.message);
  }
  return out;
}

struct Case {
  const char* name;
  const char* text;
  std::vector<std::string> expected;
};

}  // namespace

TEST_CASE("syntax findings: one per problem, on the token that causes it", "[syntax]") {
  const std::vector<Case> cases = {
      // Python: '(' was never closed
      {"unclosed call at the end", "x = foo(1, 2\n", {"1:8 Syntax error: '(' was never closed"}},
      // Two unclosed brackets: tree-sitter nests four ERROR nodes in one reaching the end of the
      // file; each bracket is reported once, nothing else.
      {"two unclosed brackets",
       "import torch\nx = foo(1, 2\nfor i in range(3):\n    y = bar(i)\n    z = [1, 2\nprint(\"done\")\n",
       {"2:8 Syntax error: '(' was never closed", "5:9 Syntax error: '[' was never closed"}},
      {"unclosed list inside a def, code after it",
       "def f():\n    x = [1,\n         2\n\ndef g():\n    return 1\n",
       {"2:9 Syntax error: '[' was never closed"}},
      {"unclosed dict", "x = {\"a\": 1,\n     \"b\": 2\ny = 3\n", {"1:5 Syntax error: '{' was never closed"}},
      // Python: closing parenthesis ']' does not match opening parenthesis '('
      {"mismatched closer", "x = (1, 2]\n", {"1:10 Syntax error: closing ']' does not match opening '('"}},
      // Python: unmatched ')'
      {"closer without opener", "x = 1)\n", {"1:6 Syntax error: unmatched ')'"}},
      // Brackets inside strings and comments do not count.
      {"brackets in a string and a comment",
       "s = \"(not code\"  # nor this (\nt = foo(\n",
       {"2:8 Syntax error: '(' was never closed"}},
      // Python: expected ':'
      {"loop header without its colon", "for x in data\n    y = model(x)\n", {"1:13 Syntax error: expected ':'"}},
      // Python: unterminated triple-quoted string literal; nothing reported inside the string.
      {"unterminated triple-quoted string",
       "x = \"\"\"abc\n(\n",
       {"1:5 Syntax error: unterminated triple-quoted string literal"}},
      // Python: invalid syntax; reported on the error's first line only.
      {"other errors", "x = = 1\ny = 2\n", {"1:5 Syntax error"}},
      {"valid file", "x = foo(1, [2, {3: 4}])\ns = ')'\n", {}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(syntax_lines(c.text) == c.expected);
  }
}

TEST_CASE("syntax findings: an ERROR reported generically covers one line, not the rest of the file", "[syntax]") {
  test_support::UnboundedParser parser;
  SourceText src("x = = 1\ny = 2\nz = 3\n");
  Analysis a = analyze(parser, src, AnalysisOptions{});
  std::size_t n = 0;
  for (const Finding& f : a.findings) {
    if (!f.code.empty()) continue;
    ++n;
    CHECK(src.line_of(f.range.start) == src.line_of(f.range.end));
  }
  CHECK(n == 1);
}

TEST_CASE("syntax findings: at most kMaxSyntaxFindings", "[syntax]") {
  std::string text;
  for (int i = 0; i < 25; ++i) text += "x" + std::to_string(i) + " = = 1\n";
  std::vector<std::string> lines = syntax_lines(text);
  CHECK(lines.size() == kMaxSyntaxFindings);
}
