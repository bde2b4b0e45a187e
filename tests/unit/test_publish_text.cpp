// The publishDiagnostics text written directly (convert.h: append_diagnostic,
// publish_diagnostics_message) must equal, byte for byte, what serialising the
// JSON tree of to_diagnostic gives: the server compares published texts, and
// clients see no difference. Checked over every finding of the corpus and the
// rule fixtures in each position encoding, and over crafted strings.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "convert.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/protocol/jsonrpc.h"

namespace fs = std::filesystem;
using namespace msprobe;
using namespace msprobe::server;
using analysis::Encoding;

namespace {

std::string through_tree(const analysis::SourceText& src, const std::vector<const analysis::Finding*>& findings,
                         const ConvertOptions& o) {
  json diagnostics = json::array();
  for (const analysis::Finding* f : findings) diagnostics.push_back(to_diagnostic(src, *f, o));
  json params{{"uri", o.uri}, {"diagnostics", std::move(diagnostics)}};
  params["version"] = o.version;
  return protocol::serialize(protocol::make_notification("textDocument/publishDiagnostics", std::move(params)));
}

std::vector<const analysis::Finding*> pointers(const std::vector<analysis::Finding>& fs) {
  std::vector<const analysis::Finding*> out;
  for (const analysis::Finding& f : fs) out.push_back(&f);
  return out;
}

}  // namespace

TEST_CASE("published diagnostics written directly equal the serialised JSON tree on the corpus", "[publish]") {
  std::size_t files = 0, findings = 0, with_fixes = 0, with_related = 0;
  for (const char* dir : {"corpus/scripts", "rules/fixtures"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(MSPROBE_TESTS_DIR) / dir)) {
      if (entry.path().extension() != ".py") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream buf;
      buf << in.rdbuf();
      analysis::SourceText src{buf.str()};
      analysis::PythonParser parser;
      analysis::Analysis a = analysis::analyze(parser, src, analysis::AnalysisOptions{});
      std::vector<const analysis::Finding*> shown = pointers(a.findings);
      INFO(entry.path().string());
      for (Encoding enc : {Encoding::Utf16, Encoding::Utf8, Encoding::Utf32}) {
        for (bool related : {true, false}) {
          ConvertOptions o;
          o.encoding = enc;
          o.related_information = related;
          o.uri = "file:///ws/" + entry.path().filename().string();
          o.version = static_cast<int>(files) - 3;
          o.docs_base_url = files % 2 ? "" : "file:///docs/rules.md";
          REQUIRE(publish_diagnostics_message(src, shown, o) == through_tree(src, shown, o));
        }
      }
      ++files;
      findings += a.findings.size();
      for (const analysis::Finding& f : a.findings) {
        with_fixes += f.fixes.empty() ? 0 : 1;
        with_related += f.related.empty() ? 0 : 1;
      }
    }
  }
  CHECK(files >= 100);
  CHECK(findings >= 150);
  CHECK(with_fixes >= 50);
  CHECK(with_related >= 5);
}

TEST_CASE("published strings are escaped as the JSON library escapes them", "[publish]") {
  analysis::SourceText src{std::string("x = 1\n\xC3\xA9 = '\xF0\x9F\x98\x80'\n")};
  const std::string kMessages[] = {
      "plain",
      "quote \" backslash \\ slash /",
      "controls \b \f \n \r \t \x01 \x1f \x7f end",
      std::string("nul \0 inside", 12),
      "non-ASCII é 模 😀",
      "invalid \xC3 byte",
      "overlong \xC0\xAF and surrogate \xED\xA0\x80",
      "truncated at the end \xF0\x9F\x98",
      "",
  };
  std::vector<analysis::Finding> fs;
  for (const std::string& m : kMessages) {
    analysis::Finding f;
    f.code = "MSP101";
    f.message = m;
    f.range = {6, 8};
    f.related.push_back({{0, 1}, m});
    analysis::Fix fix;
    fix.title = m;
    fix.edits.push_back({{0, 0}, m});
    fix.edits.push_back({{8, 14}, "\"" + m + "\\"});
    fix.safety = m.size() % 2 ? analysis::FixSafety::Safe : analysis::FixSafety::Unsafe;
    fix.preferred = m.size() % 3 == 0;
    f.fixes.push_back(fix);
    f.tags = {analysis::Tag::Unnecessary, analysis::Tag::Deprecated};
    fs.push_back(f);
  }
  ConvertOptions o;
  o.uri = "file:///ws/a b/\xC3\xA9\"q.py";
  o.version = -7;
  o.docs_base_url = "https://example.invalid/rules";
  for (Encoding enc : {Encoding::Utf16, Encoding::Utf8, Encoding::Utf32}) {
    o.encoding = enc;
    CHECK(publish_diagnostics_message(src, pointers(fs), o) == through_tree(src, pointers(fs), o));
  }
  for (const std::string& m : kMessages) {
    std::string direct;
    append_json_string(direct, m);
    CHECK(direct == json(m).dump(-1, ' ', false, json::error_handler_t::replace));
  }
}
