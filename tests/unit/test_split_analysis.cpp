// Parsing a text in two parts on two threads (split_analysis.h): wherever the
// cut falls, the facts are those of one parse of the whole text, or the parts
// are refused and the whole text is parsed as usual.
#include <tree_sitter/api.h>
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "edit_chains.h"
#include "facts_builder.h"
#include "generated_script.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/second_core.h"
#include "split_analysis.h"

using namespace msprobe::analysis;
using msprobe::test::findings_text;

namespace {

// The corpus scripts and the rule fixtures, each also broken three ways
// (an unclosed bracket, string or def header at a line start).
template <class F>
std::size_t for_each_script(F&& f) {
  namespace fs = std::filesystem;
  auto with_broken = [&](const std::string& name, const std::string& text) {
    f(name, text);
    std::size_t line = 0;
    for (const char* breaker : {"x = (\n", "s = \"\"\"\n", "def oops(:\n"}) {
      line = text.find('\n', line + text.size() / 5);
      if (line == std::string::npos) break;
      f(name + " + " + breaker, text.substr(0, line + 1) + breaker + text.substr(line + 1));
    }
  };
  std::size_t n = msprobe::test::for_each_corpus_script(with_broken);
  for (const auto& e : fs::recursive_directory_iterator(fs::path(MSPROBE_TESTS_DIR) / "rules" / "fixtures")) {
    if (e.path().extension() != ".py") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    with_broken(e.path().filename().string(), buf.str());
    ++n;
  }
  return n;
}

// Every top-level node's start in a parse of the whole text (statements and
// comments alike, not only the ones split_point picks).
std::vector<uint32_t> top_level_starts(const TreePtr& tree) {
  std::vector<uint32_t> out;
  TSNode root = ts_tree_root_node(tree.get());
  for (uint32_t i = 0; i < ts_node_child_count(root); ++i) out.push_back(ts_node_start_byte(ts_node_child(root, i)));
  return out;
}

}  // namespace

TEST_CASE("split_point cuts before a def, class, decorator or import near the middle") {
  std::string a(200, '#');
  a[199] = '\n';
  std::string text = a + "x = 1\nelse_ = 2\n" + a + "def f():\n    return 1\n" + a;
  std::optional<uint32_t> at = split_point(text);
  REQUIRE(at);
  CHECK(text.compare(*at, 4, "def ") == 0);

  // Nearest to the middle wins, on either side.
  for (std::size_t gap : {100, 300, 500}) {
    std::string both = a + a + "class A:\n    pass\n" + std::string(gap, 'z') + "\nimport os\n" + a + a;
    const std::size_t mid = both.size() / 2, cls = both.find("class "), imp = both.find("import ");
    at = split_point(both);
    INFO("gap " << gap);
    REQUIRE(at);
    const std::size_t nearer = (imp >= mid ? imp - mid : mid - imp) <= (cls >= mid ? cls - mid : mid - cls) ? imp : cls;
    CHECK(*at == nearer);
  }

  // Indented defs, `else:` and plain statements are not cuts; nor is a line
  // outside the middle half.
  CHECK_FALSE(split_point(a + "    def g():\n" + a + "else:\n" + a + "x = f(1)\n" + a));
  CHECK_FALSE(split_point("def f():\n    pass\n" + a + a + a + a));
  CHECK_FALSE(split_point(""));
}

TEST_CASE("facts built in two parts equal one parse's, at every top-level cut of the corpus") {
  SecondCore second;
  second.wait_ready();
  PythonParser parser;
  std::size_t cuts = 0, built = 0, refused_at_statement = 0, cuts_in_broken = 0, whole_on_second_built = 0;
  std::size_t files = for_each_script([&](const std::string& name, const std::string& text) {
    TreePtr whole = parser.parse(text);
    REQUIRE(whole);
    const bool clean = !ts_node_has_error(ts_tree_root_node(whole.get()));
    const FileFacts expected = build_facts(whole, text);
    const FileFacts expected_no_roles = build_facts(whole, text, /*loop_roles=*/false);
    std::vector<uint32_t> starts = top_level_starts(whole);
    for (std::size_t k = 1; k < starts.size() && k <= 40; ++k) {
      const uint32_t at = starts[k];
      if (text[at - 1] != '\n') continue;  // two statements on one line (`a = 1; b = 2`)
      ++cuts;
      cuts_in_broken += !clean;
      INFO(name << " cut at byte " << at << " (line starting '" << text.substr(at, 20) << "')");
      const bool roles = k % 2 == 0;
      const bool whole_on_second = k % 4 == 3;
      std::optional<PartsBuild> parts = build_in_parts(parser, second, text, at, roles, whole_on_second);
      if (!parts) {
        // Refused: the text has an error, or this statement continues the one
        // before (`else:`, `except`, a decorated def's `def` line).
        const std::string_view line(text.data() + at, std::min<std::size_t>(text.size() - at, 8));
        if (clean && (line.substr(0, 4) == "def " || line.substr(0, 6) == "class " || line.substr(0, 7) == "import "))
          ++refused_at_statement;
        continue;
      }
      ++built;
      REQUIRE(clean);  // a part of a text with an error has one too
      REQUIRE(dump_facts(parts->facts) == dump_facts(roles ? expected : expected_no_roles));
      // The whole text's tree, parsed from the first part's (as the server does after publishing).
      if (k % 4 == 1) REQUIRE(tree_sexp(parser.parse(text, parts->first_part)) == tree_sexp(whole));
      // The same parse, started on the second core as soon as its part was built.
      if (whole_on_second) {
        REQUIRE(parts->whole_tree);
        REQUIRE(tree_sexp(parts->whole_tree->take()) == tree_sexp(whole));
        ++whole_on_second_built;
      } else {
        REQUIRE_FALSE(parts->whole_tree);
      }
    }
  });
  CHECK(files > 200);
  CHECK(built > 1000);  // the check above ran, many times
  CHECK(whole_on_second_built > 200);
  CHECK(refused_at_statement == 0);
  CHECK(cuts_in_broken > 100);  // and every one of them was refused (REQUIRE(clean) above)
}

TEST_CASE("a cut inside a string, inside brackets or before an else is refused") {
  SecondCore second;
  second.wait_ready();
  PythonParser parser;
  const std::string pad = "import torch\n\n\ndef helper(x):\n    return x * 2\n\n\n";
  struct Case {
    const char* name;
    std::string before, after;
  } cases[] = {
      {"triple-quoted string", pad + "DOC = \"\"\"\n", "def inside():\n    pass\n\"\"\"\nx = 1\n"},
      {"open bracket", pad + "values = [\n    1,\n", "def g(): pass\n]\n"},
      {"else of an if", pad + "if torch.cuda.is_available():\n    dev = 1\n", "else:\n    dev = 0\n"},
      {"body of a decorated def", pad + "@torch.no_grad()\n", "def f():\n    pass\n"},
      {"backslash continuation", pad + "total = 1 + \\\n", "import os\n"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const std::string text = c.before + c.after;
    CHECK_FALSE(build_in_parts(parser, second, text, static_cast<uint32_t>(c.before.size()), true));
  }
}

TEST_CASE("analyze with a second core: the same facts and findings, no tree") {
  SecondCore second;
  second.wait_ready();
  PythonParser parser;
  // Findings in both halves: a compiled model early, a debugger made in a loop late.
  const SourceText source("model0 = torch.compile(torch.nn.Linear(2, 2))\n" + test_support::generated_script(1000) +
                          "for _ in range(2):\n"
                          "    from msprobe.pytorch import PrecisionDebugger\n"
                          "    debugger = PrecisionDebugger(config_path=\"./config.json\")\n");
  REQUIRE(source.size() >= kSplitMinBytes);
  Analysis whole = analyze(parser, source, AnalysisOptions{});
  Analysis split = analyze(parser, source, AnalysisOptions{}, nullptr, nullptr, nullptr, &second);
  CHECK(split.in_parts);
  CHECK_FALSE(split.tree);
  CHECK_FALSE(split.timed_out);
  CHECK(split.times.statements_walked > 0);
  CHECK(split.times.statements_reused > 0);  // the second part's, copied
  CHECK(dump_facts(split.facts) == dump_facts(whole.facts));
  CHECK(findings_text(split.findings) == findings_text(whole.findings));
  CHECK_FALSE(whole.findings.empty());

  // An old tree (an edit) or a small text: parsed whole.
  Analysis edit = analyze(parser, source, AnalysisOptions{}, whole.tree, nullptr, nullptr, &second);
  CHECK_FALSE(edit.in_parts);
  CHECK(edit.tree);
  const SourceText small("import torch\nx = torch.compile(f)\n");
  Analysis little = analyze(parser, small, AnalysisOptions{}, nullptr, nullptr, nullptr, &second);
  CHECK_FALSE(little.in_parts);
  CHECK(little.tree);

  // A syntax error in the first half: parsed whole, the error reported.
  std::string broken = source.text();
  broken.insert(broken.find("def train_step0"), "def oops(:\n");
  const SourceText broken_source(broken);
  Analysis b = analyze(parser, broken_source, AnalysisOptions{}, nullptr, nullptr, nullptr, &second);
  CHECK_FALSE(b.in_parts);
  CHECK(b.tree);
  CHECK_FALSE(b.facts.syntax_errors.empty());
}

TEST_CASE("parts honour the parser's cancel flag, and a busy second core is not waited for") {
  SecondCore second;
  second.wait_ready();
  PythonParser parser;
  const SourceText source(test_support::generated_script(1000));
  std::atomic<bool> cancel{true};
  parser.set_cancel_flag(&cancel);
  Analysis a = analyze(parser, source, AnalysisOptions{}, nullptr, nullptr, nullptr, &second);
  parser.set_cancel_flag(nullptr);
  CHECK(a.timed_out);
  CHECK_FALSE(a.in_parts);

  std::atomic<bool> release{false};
  REQUIRE(second.try_start([&](PythonParser&) {
    while (!release.load()) std::this_thread::yield();
  }));
  std::optional<uint32_t> at = split_point(source.view());
  REQUIRE(at);
  CHECK_FALSE(build_in_parts(parser, second, source.view(), *at, true));  // busy: refused at once
  release = true;
  CHECK(second.wait());
  CHECK(build_in_parts(parser, second, source.view(), *at, true));
}

TEST_CASE("the whole text's tree, parsed on the second core after its part") {
  SecondCore second;
  second.wait_ready();
  PythonParser parser;
  const SourceText source(test_support::generated_script(1000));
  const TreePtr fresh = parser.parse(source.view());
  std::optional<uint32_t> at = split_point(source.view());
  REQUIRE(at);
  auto is_free = [&] {
    if (!second.try_start([](PythonParser&) {})) return false;
    return second.wait();
  };

  // Taken: the tree of one parse; the second core is held until then, free after.
  std::optional<PartsBuild> parts = build_in_parts(parser, second, source.view(), *at, true, /*whole_tree=*/true);
  REQUIRE(parts);
  REQUIRE(parts->whole_tree);
  CHECK_FALSE(second.try_start([](PythonParser&) {}));
  const TreePtr whole = parts->whole_tree->take();
  REQUIRE(whole);
  CHECK(tree_sexp(whole) == tree_sexp(fresh));
  CHECK_FALSE(parts->whole_tree->take());  // once
  CHECK(is_free());

  // Dropped without being taken (a cancelled job): stopped, waited for, the core free again.
  parts = build_in_parts(parser, second, source.view(), *at, true, /*whole_tree=*/true);
  REQUIRE(parts);
  parts->whole_tree->stop_flag()->store(true);
  parts.reset();
  CHECK(is_free());

  // Refused (a syntax error in the first part, or the caller's cancel flag
  // already set): no whole parse, and the core is free.
  std::string broken = source.text();
  broken.insert(broken.find("def train_step0"), "def oops(:\n");
  std::optional<uint32_t> broken_at = split_point(broken);
  REQUIRE(broken_at);
  REQUIRE(*broken_at > broken.find("def oops"));
  CHECK_FALSE(build_in_parts(parser, second, broken, *broken_at, true, /*whole_tree=*/true));
  CHECK(is_free());
  std::atomic<bool> cancel{true};
  parser.set_cancel_flag(&cancel);
  CHECK_FALSE(build_in_parts(parser, second, source.view(), *at, true, /*whole_tree=*/true));
  parser.set_cancel_flag(nullptr);
  CHECK(is_free());

  // Through analyze(): only when asked for.
  Analysis plain = analyze(parser, source, AnalysisOptions{}, nullptr, nullptr, nullptr, &second);
  CHECK(plain.in_parts);
  CHECK_FALSE(plain.whole_tree);
  Analysis with = analyze(parser, source, AnalysisOptions{}, nullptr, nullptr, nullptr, &second, /*whole_tree=*/true);
  CHECK(with.in_parts);
  REQUIRE(with.whole_tree);
  CHECK(tree_sexp(with.whole_tree->take()) == tree_sexp(fresh));
  CHECK(dump_facts(with.facts) == dump_facts(plain.facts));
}

TEST_CASE("an edit with a second core moves the reused facts out of a copy made there") {
  SecondCore second;
  second.wait_ready();
  PythonParser parser;
  SourceText text(test_support::generated_script(3000));
  REQUIRE(text.size() >= 64 * 1024);
  Analysis a = analyze(parser, text, AnalysisOptions{});
  std::mt19937 rng(5);
  const char* const kInserts[] = {"0", "x", "\n", "loss.backward()\n", "(", "# note\n"};
  int donors = 0, lendable = 0;
  for (int k = 0; k < 8; ++k) {
    if (a.facts.chunks) ++lendable;  // facts of a tree with errors are not reused
    const std::string before = text.text();
    msprobe::test::RandomEdit e = msprobe::test::random_edit(rng, text, kInserts);
    const ByteEdit edit = text.replace(e.start, e.end, e.insert);
    const PreviousFacts lend{&a.facts, before};
    Analysis next = analyze(parser, text, AnalysisOptions{}, edited_copy(a.tree, edit), nullptr, &lend, &second);
    INFO("edit " << k << ": [" << e.start << ", " << e.end << ") -> '" << e.insert << "'");
    CHECK_FALSE(next.in_parts);
    REQUIRE(next.tree);
    if (next.times.donor) ++donors;
    PythonParser fresh_parser;
    Analysis fresh = analyze(fresh_parser, text, AnalysisOptions{});
    REQUIRE(dump_facts(next.facts) == dump_facts(fresh.facts));
    REQUIRE(findings_text(next.findings) == findings_text(fresh.findings));
    // The helper is free again: the copy was waited for and handed back.
    REQUIRE(second.try_start([](PythonParser&) {}));
    REQUIRE(second.wait());
    a = std::move(next);
  }
  CHECK(lendable >= 4);
  CHECK(donors == lendable);  // an idle second core takes every copy of a text this large

  // A small text, or a busy second core: the facts are copied here.
  const SourceText small("import torch\nmodel = torch.nn.Linear(2, 2)\nx = model(1)\n");
  Analysis s0 = analyze(parser, small, AnalysisOptions{});
  SourceText small_edited = small;
  const ByteEdit se = small_edited.replace(small.size() - 2, small.size() - 2, "0");
  const PreviousFacts small_lend{&s0.facts, small.view()};
  Analysis s1 = analyze(parser, small_edited, AnalysisOptions{}, edited_copy(s0.tree, se), nullptr, &small_lend,
                        &second);
  CHECK_FALSE(s1.times.donor);
  std::atomic<bool> release{false};
  REQUIRE(second.try_start([&](PythonParser&) {
    while (!release.load()) std::this_thread::yield();
  }));
  const std::string before = text.text();
  const ByteEdit edit = text.replace(0, 0, "# head\n");
  const PreviousFacts lend{&a.facts, before};
  Analysis busy = analyze(parser, text, AnalysisOptions{}, edited_copy(a.tree, edit), nullptr, &lend, &second);
  release = true;
  REQUIRE(second.wait());
  CHECK_FALSE(busy.times.donor);
  PythonParser fresh_parser;
  CHECK(dump_facts(busy.facts) == dump_facts(analyze(fresh_parser, text, AnalysisOptions{}).facts));
}
