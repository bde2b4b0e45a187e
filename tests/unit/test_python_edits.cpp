// The one line-layout toolkit (python_edits.h) that rule fixes use directly
// and the dump-point edits use through instrument::Layout: both must see the
// same line ending, indentation unit, BOM and top-of-file lines.
#include <catch2/catch.hpp>

#include "instrument/layout.h"
#include "msprobe/analysis/analyzer.h"
#include "python_edits.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;

namespace {

std::string applied(const std::string& text, const Edit& e) {
  return text.substr(0, e.range.start) + e.text + text.substr(e.range.end);
}

struct Layouts {
  explicit Layouts(std::string t) : text(std::move(t)), src(text), a(analyze(parser, src, AnalysisOptions{})) {}
  std::string text;
  test_support::UnboundedParser parser;
  SourceText src;
  Analysis a;
};

}  // namespace

TEST_CASE("python_edits and Layout agree on unit, line ending and top line", "[edits]") {
  struct Case {
    const char* name;
    std::string text;
    std::string unit, eol;
    uint32_t top;
  };
  const Case cases[] = {
      {"spaces", "import os\ndef f():\n    return 1\n", "    ", "\n", 0},
      {"two spaces", "def f():\n  if x:\n    return 1\n", "  ", "\n", 0},
      {"tabs", "def f():\n\treturn 1\n", "\t", "\n", 0},
      {"tabs, nothing nested", "x = 1\n\t# only a tab-indented comment\n", "\t", "\n", 0},
      {"nothing indented", "x = 1\n", "    ", "\n", 0},
      {"crlf", "def f():\r\n    return 1\r\n", "    ", "\r\n", 0},
      {"shebang and cookie", "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nx = 1\n", "    ", "\n", 2},
      {"bom and cookie", "\xEF\xBB\xBF# coding=utf-8\nx = 1\n", "    ", "\n", 1},
      {"a comment that is no cookie", "# training script\nx = 1\n", "    ", "\n", 0},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Layouts l(c.text);
    instrument::Layout layout(l.src, l.a.facts);
    CHECK(indent_unit(l.src, l.a.facts) == c.unit);
    CHECK(layout.unit() == c.unit);
    CHECK(line_break(l.src) == c.eol);
    CHECK(layout.eol() == c.eol);
    CHECK(first_code_line(l.src) == c.top);
    CHECK(layout.top_line() == c.top);
  }
}

TEST_CASE("line insertions keep a BOM first and a missing final newline missing", "[edits]") {
  struct Case {
    const char* name;
    std::string text;
    bool after;
    uint32_t line;
    std::string want;
  };
  const Case cases[] = {
      {"before line 0 of a BOM file", "\xEF\xBB\xBFx = 1\n", false, 0, "\xEF\xBB\xBFnew\nx = 1\n"},
      {"after the last line, final newline", "x = 1\n", true, 0, "x = 1\nnew\n"},
      {"after the last line, no final newline", "x = 1", true, 0, "x = 1\nnew"},
      {"after a middle line", "a = 1\nb = 2\n", true, 0, "a = 1\nnew\nb = 2\n"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Layouts l(c.text);
    instrument::Layout layout(l.src, l.a.facts);
    Edit direct = c.after ? insert_after_line(l.src, c.line, "new\n") : insert_before_line(l.src, c.line, "new\n");
    Edit through = c.after ? layout.lines_after(c.line, "", {"new"}) : layout.lines_before(c.line, "", {"new"});
    CHECK(applied(c.text, direct) == c.want);
    CHECK(applied(c.text, through) == c.want);
  }
}

TEST_CASE("owning its lines: comments allowed after, a BOM before, code neither", "[edits]") {
  struct Case {
    const char* name;
    std::string text;
    std::size_t stmt;
    bool owns;
  };
  const Case cases[] = {
      {"alone", "x = 1\ny = 2\n", 1, true},
      {"trailing comment", "x = 1  # note\n", 0, true},
      {"after a BOM", "\xEF\xBB\xBFx = 1\n", 0, true},
      {"shares the line", "x = 1; y = 2\n", 1, false},
      {"form feed before", "\fx = 1\n", 0, true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Layouts l(c.text);
    REQUIRE(l.a.facts.statements.size() > c.stmt);
    const Statement& st = l.a.facts.statements[c.stmt];
    instrument::Layout layout(l.src, l.a.facts);
    CHECK(owns_its_lines(l.src, st) == c.owns);
    CHECK(layout.owns_lines(st.range) == c.owns);
  }
}

TEST_CASE("removing a statement on the first line of a BOM file keeps the BOM", "[edits]") {
  Layouts l("\xEF\xBB\xBFimport os\nx = 1\n");
  std::optional<Edit> e = remove_statement(l.src, l.a.facts, 0);
  REQUIRE(e);
  CHECK(applied(l.text, *e) == "\xEF\xBB\xBFx = 1\n");
}
