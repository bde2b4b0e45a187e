// SourceText: line index and position conversions with multi-byte text, CRLF,
// and incremental edits checked against a full reparse.
#include <catch2/catch.hpp>

#include <tree_sitter/api.h>
#include <random>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/source.h"
#include "msprobe/analysis/syntax.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;

TEST_CASE("positions after non-ASCII text in each encoding") {
  // é: 2 bytes/1 unit, 模: 3 bytes/1 unit, 😀: 4 bytes/2 UTF-16 units/1 code point.
  SourceText s("x = 'é模😀'; y\n");
  std::size_t y = s.text().find("; y") + 2;
  CHECK(s.position(y, Encoding::Utf8) == LineCol{0, 17});
  CHECK(s.position(y, Encoding::Utf16) == LineCol{0, 12});
  CHECK(s.position(y, Encoding::Utf32) == LineCol{0, 11});
  CHECK(s.offset({0, 17}, Encoding::Utf8) == y);
  CHECK(s.offset({0, 12}, Encoding::Utf16) == y);
  CHECK(s.offset({0, 11}, Encoding::Utf32) == y);
}

TEST_CASE("a UTF-16 column inside a surrogate pair snaps to the character start") {
  SourceText s("😀a");
  CHECK(s.offset({0, 1}, Encoding::Utf16) == 0);
  CHECK(s.offset({0, 2}, Encoding::Utf16) == 4);
}

TEST_CASE("CRLF, lone CR and LF all end lines") {
  SourceText s("a\r\nbb\rccc\nd");
  REQUIRE(s.line_count() == 4);
  CHECK(s.line_text(0) == "a");
  CHECK(s.line_text(1) == "bb");
  CHECK(s.line_text(2) == "ccc");
  CHECK(s.line_text(3) == "d");
  CHECK(s.position(s.text().find('d'), Encoding::Utf16) == LineCol{3, 0});
  CHECK(s.uses_crlf());
}

TEST_CASE("positions past the end of a line or the document are clamped") {
  SourceText s("ab\ncd\n");
  CHECK(s.offset({0, 99}, Encoding::Utf16) == 2);
  CHECK(s.offset({99, 0}, Encoding::Utf16) == s.size());
  CHECK(s.position(1000, Encoding::Utf8) == LineCol{2, 0});
}

TEST_CASE("invalid UTF-8 counts one unit per byte and never fails") {
  std::string bad = "a\xff\xfe b";
  SourceText s(bad);
  CHECK(s.position(bad.size(), Encoding::Utf16) == LineCol{0, 5});
  CHECK(s.offset({0, 5}, Encoding::Utf16) == bad.size());
}

TEST_CASE("replace reports the edit for tree-sitter") {
  SourceText s("abc\ndef\n");
  ByteEdit e = s.replace(5, 6, "XYZ\nQ");
  CHECK(s.text() == "abc\ndXYZ\nQf\n");
  CHECK(e.start_byte == 5);
  CHECK(e.old_end_byte == 6);
  CHECK(e.new_end_byte == 10);
  CHECK(e.start_point.row == 1);
  CHECK(e.start_point.column == 1);
  CHECK(e.new_end_point.row == 2);
  CHECK(e.new_end_point.column == 1);
}

TEST_CASE("random incremental edits give the same tree and findings as a full reparse") {
  const std::string base =
      "import torch\n"
      "from msprobe.pytorch import PrecisionDebugger\n"
      "model = torch.nn.Linear(2, 2)  # é模😀\n"
      "for x, y in loader:\n"
      "    out = model(x)\n"
      "    loss = out.sum()\n"
      "    loss.backward()\n"
      "    opt.step()\n";
  const char* inserts[] = {"torch.compile(", ")", "\n", "    ", "é", "😀", "x", "@torch.compile\n", "(", ":", "#"};
  std::mt19937 rng(12345);
  test_support::UnboundedParser inc_parser, full_parser;
  AnalysisOptions opts;
  for (int round = 0; round < 30; ++round) {
    SourceText text(base);
    TreePtr tree = inc_parser.parse(text.view());
    for (int step = 0; step < 20; ++step) {
      std::size_t a = rng() % (text.size() + 1), b = a + rng() % 6;
      std::string ins = inserts[rng() % (sizeof(inserts) / sizeof(*inserts))];
      ByteEdit e = text.replace(a, b, rng() % 3 == 0 ? "" : ins);
      Analysis inc = analyze(inc_parser, text, opts, edited_copy(tree, e));
      Analysis full = analyze(full_parser, text, opts);
      REQUIRE(inc.tree);
      REQUIRE(full.tree);
      INFO("round " << round << " step " << step << " text:\n" << text.text());
      REQUIRE(tree_sexp(inc.tree) == tree_sexp(full.tree));
      REQUIRE(inc.findings.size() == full.findings.size());
      for (std::size_t i = 0; i < inc.findings.size(); ++i) {
        CHECK(inc.findings[i].code == full.findings[i].code);
        CHECK(inc.findings[i].range == full.findings[i].range);
        CHECK(inc.findings[i].message == full.findings[i].message);
      }
      tree = inc.tree;
    }
  }
}

TEST_CASE("the line index kept up to date by replace matches a full reindex") {
  // Line breaks are the tricky part: an edit can join a "\r" before it with a
  // "\n" it inserts, or split a "\r\n".
  const char* pieces[] = {"\r", "\n", "\r\n", "a", "bc", "\n\r", "é", ""};
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    SourceText text("a\r\nb\rc\n\nd\r");
    for (int step = 0; step < 30; ++step) {
      std::size_t a = rng() % (text.size() + 1), b = a + rng() % 4;
      std::string ins;
      for (int k = rng() % 3; k-- > 0;) ins += pieces[rng() % (sizeof(pieces) / sizeof(*pieces))];
      text.replace(a, b, ins);
      SourceText fresh(text.text());
      INFO("round " << round << " step " << step);
      REQUIRE(text.line_count() == fresh.line_count());
      for (uint32_t l = 0; l < fresh.line_count(); ++l) REQUIRE(text.line_start(l) == fresh.line_start(l));
    }
  }
}
