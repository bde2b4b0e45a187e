// The dump-point actions, data-driven: tests/actions/fixtures/<action>/<name>.py
// and the expected <name>.expected.py (or <name>.expected.error when the action
// refuses), with optional <name>.args (one argument per line: --loop N,
// --config PATH). MSPROBE_UPDATE_EXPECT=1 rewrites the expected files that
// differ and fails (golden.h).
// Then round trips over the fixtures and the whole script corpus.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "golden.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/fix_all.h"
#include "msprobe/analysis/instrument.h"
#include "unbounded_parser.h"

namespace fs = std::filesystem;
using namespace msprobe::analysis;

namespace {

const fs::path kFixtures = fs::path(MSPROBE_TESTS_DIR) / "actions" / "fixtures";
const fs::path kCorpus = fs::path(MSPROBE_TESTS_DIR) / "corpus" / "scripts";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

struct Outcome {
  std::string text;
  std::string error;
};

Outcome run(const std::string& action, const std::string& text, const std::vector<std::string>& args = {}) {
  test_support::UnboundedParser parser;
  SourceText src(text);
  Analysis a = analyze(parser, src, AnalysisOptions{});
  InstrumentOptions opts;
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
    if (args[i] == "--loop") opts.loop_line = static_cast<uint32_t>(std::stoul(args[i + 1]) - 1);
    if (args[i] == "--config") opts.config_path = args[i + 1];
  }
  InstrumentResult r;
  if (action == "enable") r = enable(src, a, opts);
  else if (action == "disable") r = disable_dump(src, a);
  else if (action == "enable_again") r = reenable_dump(src, a);
  else if (action == "remove") r = remove_dump(src, a);
  else if (action == "fix_all") r.groups.push_back({"fix all", false, fix_all(a.findings).edits});
  else FAIL("unknown action folder " << action);
  if (!r.ok()) return {"", r.error};
  return {apply_edits(text, r.all_edits()), ""};
}

// No ERROR or MISSING node anywhere.
bool parses_clean(const std::string& text) {
  test_support::UnboundedParser parser;
  SourceText src(text);
  Analysis a = analyze(parser, src, AnalysisOptions{});
  return a.tree && a.facts.syntax_errors.empty();
}

std::vector<std::string> read_args(const fs::path& p) {
  std::vector<std::string> args;
  if (!fs::exists(p)) return args;
  std::istringstream in(slurp(p));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) args.push_back(line);
  }
  return args;
}

std::vector<fs::path> inputs(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    if (ends_with(n, ".py") && !ends_with(n, ".expected.py")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

fs::path with_suffix(const fs::path& input, const std::string& suffix) {
  return input.parent_path() / (input.stem().string() + suffix);
}

}  // namespace

TEST_CASE("dump-point action fixtures", "[actions]") {
  const bool update = golden::update_mode();
  std::size_t checked = 0, rewritten = 0;
  for (const auto& dir : fs::directory_iterator(kFixtures)) {
    if (!dir.is_directory()) continue;
    const std::string action = dir.path().filename().string();
    for (const fs::path& input : inputs(dir.path())) {
      INFO(action << "/" << input.filename().string());
      const std::string before = slurp(input);
      Outcome got = run(action, before, read_args(with_suffix(input, ".args")));
      fs::path expected_py = with_suffix(input, ".expected.py"), expected_err = with_suffix(input, ".expected.error");
      if (update) {
        const fs::path& keep = got.error.empty() ? expected_py : expected_err;
        const fs::path& drop = got.error.empty() ? expected_err : expected_py;
        bool wrote = golden::write_if_changed(keep, got.error.empty() ? got.text : got.error + "\n");
        bool removed = golden::remove_if_present(drop);
        if (wrote || removed) ++rewritten;
      }
      if (fs::exists(expected_err)) {
        CHECK(got.error + "\n" == slurp(expected_err));
      } else {
        REQUIRE(got.error.empty());
        REQUIRE(fs::exists(expected_py));
        CHECK(got.text == slurp(expected_py));
        CHECK(parses_clean(got.text));
      }
      ++checked;
    }
  }
  CHECK(checked >= 45);
  golden::report(rewritten);
}

namespace {

// enable -> remove gives the input back; disable -> enable again gives the
// enabled text back; enabling twice changes nothing; all results parse.
void check_round_trips(const std::string& original, bool was_clean, const std::vector<std::string>& args = {}) {
  Outcome enabled = run("enable", original, args);
  if (!enabled.error.empty()) return;
  CHECK(parses_clean(enabled.text));
  bool chosen_loop = std::find(args.begin(), args.end(), "--loop") != args.end();  // its line moved
  if (!chosen_loop) CHECK(run("enable", enabled.text).text == enabled.text);
  Outcome disabled = run("disable", enabled.text);
  REQUIRE(disabled.error.empty());
  CHECK(parses_clean(disabled.text));
  CHECK(run("enable_again", disabled.text).text == enabled.text);
  CHECK(run("enable", disabled.text).text == enabled.text);  // enable on a disabled file re-enables it
  Outcome removed = run("remove", enabled.text);
  CHECK(parses_clean(removed.text));
  CHECK(run("remove", disabled.text).text == removed.text);
  if (was_clean) CHECK(removed.text == original);
}

}  // namespace

TEST_CASE("enable/disable/remove round trips over the enable fixtures", "[actions]") {
  for (const fs::path& input : inputs(kFixtures / "enable")) {
    INFO(input.filename().string());
    std::string text = slurp(input);
    check_round_trips(text, text.find("msprobe") == std::string::npos, read_args(with_suffix(input, ".args")));
  }
}

TEST_CASE("enable over the script corpus: parses, idempotent, round trips", "[actions][corpus]") {
  std::size_t n = 0, enabled = 0;
  for (const auto& e : fs::directory_iterator(kCorpus)) {
    if (e.path().extension() != ".py") continue;
    ++n;
    INFO(e.path().filename().string());
    std::string text = slurp(e.path());
    std::string expect = slurp(with_suffix(e.path(), ".expect.json"));
    Outcome out = run("enable", text);
    // A script the corpus gives an insertion plan must be instrumented.
    if (expect.find("\"plan\"") != std::string::npos) {
      CHECK(out.error == "");
      CHECK(out.text != text);
    }
    if (out.error.empty()) ++enabled;
    check_round_trips(text, text.find("msprobe") == std::string::npos);
  }
  CHECK(n == 62);
  CHECK(enabled >= 42);
}

TEST_CASE("apply_edits rejects overlapping edits", "[actions]") {
  CHECK(apply_edits("abcdef", {{{1, 3}, "X"}, {{3, 3}, "Y"}}) == "aXYdef");
  CHECK(apply_edits("abc", {{{1, 1}, "1"}, {{1, 1}, "2"}}) == "a12bc");
  CHECK_THROWS(apply_edits("abcdef", {{{1, 4}, "X"}, {{2, 3}, "Y"}}));
  CHECK_THROWS(apply_edits("abc", {{{2, 9}, ""}}));
}

TEST_CASE("vllm-ascend flags quote the path for a shell", "[actions]") {
  CHECK(vllm_ascend_flags("/data/cfg.json") == R"(--additional-config '{"dump_config_path": "/data/cfg.json"}')");
  CHECK(vllm_ascend_flags("/d/it's \"x\".json") ==
        R"(--additional-config '{"dump_config_path": "/d/it'\''s \"x\".json"}')");
}

TEST_CASE("fix_all takes safe fixes once and skips conflicts", "[actions]") {
  Finding a, b, c;
  Fix safe{"env", {{{0, 0}, "import os\n"}}, FixSafety::Safe, false};
  a.fixes = {Fix{"unsafe", {{{5, 9}, "x"}}, FixSafety::Unsafe, true}, safe};
  b.fixes = {safe};  // the same fix for a second finding
  c.fixes = {Fix{"conflict", {{{0, 0}, "other\n"}}, FixSafety::Safe, true}};
  FixAllResult r = fix_all({a, b, c});
  REQUIRE(r.edits.size() == 1);
  CHECK(r.edits[0].text == "import os\n");
  CHECK(r.titles == std::vector<std::string>{"env"});
  CHECK_FALSE(r.replaces_code);
}
