// Data-driven rule tests: every tests/rules/fixtures/**/*.py is analysed and
// its findings compared with the expectations written under the lines:
//
//     model = torch.compile(model)
//     #       ^^^^^^^^^^^^^^^^^^^^ MSP101 warning: torch.compile
//
// The carets mark the columns (code points) of the finding on the line above
// (annotation lines are skipped when looking for "the line above"); a '#'
// directly followed by '^' counts as a caret, so a finding at column 0 reads
// "#^^^^ MSP101 ...". After the code comes the severity and, after ':', a
// substring of the message. A first-line comment "# fixture: torch=2.7 msprobe=8.3
// disable=MSP206" sets the analysis options; "resolve-configs" there makes the
// config files a script names (MSP205, MSP306, MSP307) resolve against the
// fixture's own folder, as the server resolves them against the script's. A
// fixture with no annotation expects no findings at all.
//
// Every registered rule has a folder named after its code, here or under
// tests/config/fixtures, whose fixtures expect at least one of its findings.
//
// Fixes: when `name.py` has a sibling `name.fixed.py`, the test applies the
// preferred fix of every finding of `name.py` and compares the result with
// `name.fixed.py`. Within one round the findings are taken in position order
// and a fix whose edits overlap an edit already taken waits; the result is
// analysed again and fixed again until no preferred fix is left (at most 10
// rounds), as a "fix all" would. The `.fixed.py` is then analysed again: for
// every rule, the findings that had a preferred fix are gone (what is left of
// that rule is at most its findings without one). MSPROBE_UPDATE_EXPECT=1
// rewrites the `.fixed.py` files that differ and fails (golden.h); create an
// empty one to start a new pair.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "golden.h"
#include "msprobe/analysis/analyzer.h"
#include "unbounded_parser.h"

namespace fs = std::filesystem;
using namespace msprobe::analysis;

namespace {

struct Expectation {
  uint32_t line, start_col, end_col;
  std::string code, severity, message;
  std::string describe() const {
    std::ostringstream s;
    s << (line + 1) << ":" << (start_col + 1) << "-" << (end_col + 1) << " " << code << " " << severity << ": "
      << message;
    return s.str();
  }
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Code-point column of byte offset `b` in `line`.
uint32_t cp_col(std::string_view line, std::size_t b) {
  return static_cast<uint32_t>(count_units(line.substr(0, std::min(b, line.size())), Encoding::Utf32));
}

bool is_annotation(std::string_view line) {
  static const std::regex re(R"(^\s*#\s*\^+\s+MSP\d{3}\b)");
  static const std::regex re0(R"(^\s*#\^+\s+MSP\d{3}\b)");
  std::string s(line);
  return std::regex_search(s, re) || std::regex_search(s, re0);
}

std::vector<Expectation> parse_expectations(const SourceText& src) {
  static const std::regex re(R"(^(\s*)(#)(\s*)(\^+)\s+(MSP\d{3})\s+(error|warning|info|hint)(?::\s*(.*\S))?\s*$)");
  std::vector<Expectation> out;
  int target = -1;
  for (uint32_t i = 0; i < src.line_count(); ++i) {
    std::string line(src.line_text(i));
    std::smatch m;
    if (!is_annotation(line) || !std::regex_match(line, m, re)) {
      if (!is_annotation(line)) target = static_cast<int>(i);
      continue;
    }
    REQUIRE(target >= 0);
    std::size_t hash = static_cast<std::size_t>(m.position(2));
    std::size_t caret = static_cast<std::size_t>(m.position(4));
    std::size_t carets_end = caret + static_cast<std::size_t>(m.length(4));
    if (m.length(3) == 0) caret = hash;  // "#^^^": the '#' is a caret too
    Expectation e;
    e.line = static_cast<uint32_t>(target);
    e.start_col = cp_col(line, caret);
    e.end_col = cp_col(line, carets_end);
    e.code = m[5];
    e.severity = m[6];
    e.message = m[7].matched ? m[7].str() : "";
    out.push_back(e);
  }
  return out;
}

// Config paths as the fixture writes them, looked up in the fixture's folder.
std::shared_ptr<const ConfigResolver> folder_resolver(const fs::path& folder) {
  return std::make_shared<const ConfigResolver>([folder](const std::string& written) {
    ConfigLookup l;
    fs::path p = folder / fs::path(written).lexically_normal();
    l.path = p.string();
    l.searched = {l.path};
    if (fs::is_regular_file(p)) {
      l.found = true;
      l.text = std::make_shared<const std::string>(read(p));
    }
    return l;
  });
}

AnalysisOptions parse_options(const SourceText& src, const fs::path& file = {}) {
  AnalysisOptions o;
  std::string first(src.line_text(0));
  static const std::regex re(R"(#\s*fixture:(.*))");
  std::smatch m;
  if (!std::regex_search(first, m, re)) return o;
  std::istringstream words(m[1].str());
  std::string w;
  while (words >> w) {
    auto eq = w.find('=');
    std::string k = w.substr(0, eq), v = eq == std::string::npos ? "" : w.substr(eq + 1);
    if (k == "torch") o.torch_version = Version::parse(v);
    else if (k == "msprobe") o.msprobe_version = Version::parse(v);
    else if (k == "disable") o.disabled_rules.insert(v);
    else if (k == "config") o.config_path = v;
    else if (k == "resolve-configs") o.config_resolver = folder_resolver(file.parent_path());
    else FAIL("unknown fixture option " << k);
  }
  return o;
}

// Two edits collide when their ranges overlap, or when one inserts inside
// the other's range or at the same point as another insertion.
bool collide(const Edit& a, const Edit& b) {
  auto empty = [](const Edit& e) { return e.range.start == e.range.end; };
  if (empty(a) && empty(b)) return a.range.start == b.range.start;
  if (empty(a)) return a.range.start > b.range.start && a.range.start < b.range.end;
  if (empty(b)) return b.range.start > a.range.start && b.range.start < a.range.end;
  return a.range.start < b.range.end && b.range.start < a.range.end;
}

std::string apply_edits(std::string text, std::vector<Edit> edits) {
  // Back to front; at one offset the deletion goes before the insertion.
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    if (a.range.start != b.range.start) return a.range.start > b.range.start;
    return a.range.end > b.range.end;
  });
  for (const Edit& e : edits) text.replace(e.range.start, e.range.end - e.range.start, e.text);
  return text;
}

std::string apply_preferred_fixes(PythonParser& parser, std::string text, const AnalysisOptions& options) {
  for (int round = 0; round < 10; ++round) {
    SourceText src(text);
    Analysis a = analyze(parser, src, options);
    std::vector<Edit> taken;
    for (const Finding& f : a.findings) {
      for (const Fix& fix : f.fixes) {
        if (!fix.preferred) continue;
        bool clash = false;
        for (const Edit& e : fix.edits) {
          for (const Edit& t : taken) clash = clash || collide(e, t);
        }
        if (!clash) taken.insert(taken.end(), fix.edits.begin(), fix.edits.end());
        break;
      }
    }
    if (taken.empty()) break;
    text = apply_edits(std::move(text), std::move(taken));
  }
  return text;
}

fs::path fixed_path_of(fs::path file) { return file.replace_extension(".fixed.py"); }

// Per rule code: how many findings, and how many of them have a preferred fix.
std::map<std::string, std::pair<int, int>> count_fixable(const Analysis& a) {
  std::map<std::string, std::pair<int, int>> out;
  for (const Finding& f : a.findings) {
    auto& [all, fixable] = out[f.code];
    ++all;
    if (std::any_of(f.fixes.begin(), f.fixes.end(), [](const Fix& x) { return x.preferred; })) ++fixable;
  }
  return out;
}

}  // namespace

TEST_CASE("rule fixtures") {
  fs::path root = fs::path(MSPROBE_TESTS_DIR) / "rules" / "fixtures";
  std::vector<fs::path> files;
  for (auto& e : fs::recursive_directory_iterator(root)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && e.path().extension() == ".py" && name.find(".fixed.") == std::string::npos)
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 2);
  test_support::UnboundedParser parser;
  static bool updated = false;  // once, not again when Catch re-enters for each section
  if (golden::update_mode() && !updated) {
    updated = true;
    std::size_t rewritten = 0;
    for (const auto& file : files) {
      if (!fs::exists(fixed_path_of(file))) continue;
      SourceText src(read(file));
      rewritten += golden::write_if_changed(fixed_path_of(file),
                                            apply_preferred_fixes(parser, src.text(), parse_options(src)));
    }
    golden::report(rewritten);
  }
  for (const auto& file : files) {
    DYNAMIC_SECTION(fs::relative(file, root).string()) {
      SourceText src(read(file));
      auto expected = parse_expectations(src);
      Analysis a = analyze(parser, src, parse_options(src, file));
      std::vector<std::string> unexpected, missing;
      std::vector<bool> matched(expected.size(), false);
      for (const Finding& f : a.findings) {
        LineCol s = src.position(f.range.start, Encoding::Utf32);
        LineCol e = src.position(f.range.end, Encoding::Utf32);
        uint32_t end_col = e.line == s.line ? e.column : cp_col(src.line_text(s.line), src.line_text(s.line).size());
        bool ok = false;
        for (std::size_t i = 0; i < expected.size(); ++i) {
          const Expectation& x = expected[i];
          if (matched[i] || x.line != s.line || x.start_col != s.column || x.end_col != end_col || x.code != f.code ||
              x.severity != to_string(f.severity) || f.message.find(x.message) == std::string::npos)
            continue;
          matched[i] = ok = true;
          break;
        }
        if (!ok) {
          std::ostringstream d;
          d << (s.line + 1) << ":" << (s.column + 1) << "-" << (end_col + 1) << " "
            << (f.code.empty() ? "syntax" : f.code) << " " << to_string(f.severity) << ": " << f.message;
          unexpected.push_back(d.str());
        }
      }
      for (std::size_t i = 0; i < expected.size(); ++i) {
        if (!matched[i]) missing.push_back(expected[i].describe());
      }
      INFO("file: " << file.string());
      for (const auto& u : unexpected) UNSCOPED_INFO("unexpected finding: " << u);
      for (const auto& m : missing) UNSCOPED_INFO("missing finding:    " << m);
      CHECK(unexpected.empty());
      CHECK(missing.empty());

      fs::path fixed_path = fixed_path_of(file);
      if (fs::exists(fixed_path)) {
        std::string fixed = apply_preferred_fixes(parser, src.text(), parse_options(src, file));
        {
          INFO("fixes of " << file.string() << " differ from " << fixed_path.string()
                           << " (regenerate with MSPROBE_UPDATE_EXPECT=1)");
          CHECK(fixed == read(fixed_path));
        }
        SourceText fixed_src(read(fixed_path));
        auto after = count_fixable(analyze(parser, fixed_src, parse_options(src, file)));
        for (const auto& [code, counts] : count_fixable(a)) {
          if (counts.second == 0) continue;
          INFO(fixed_path.string() << " still has " << after[code].first << " " << (code.empty() ? "syntax" : code)
                                   << " findings; " << file.filename().string() << " had " << counts.first << ", "
                                   << counts.second << " of them with a preferred fix");
          CHECK(after[code].first <= counts.first - counts.second);
        }
      }
    }
  }
}

TEST_CASE("every rule has a fixture folder that expects its findings") {
  fs::path tests(MSPROBE_TESTS_DIR);
  for (const Rule* rule : all_rules()) {
    std::string code(rule->meta.code);
    INFO("rule " << code << ": add tests/rules/fixtures/" << code << "/ (Python) or tests/config/fixtures/" << code
                 << "/ (config.json) with a fixture that expects a " << code << " finding");
    std::vector<fs::path> folders;
    for (const char* area : {"rules", "config"}) {
      fs::path folder = tests / area / "fixtures" / code;
      if (fs::is_directory(folder)) folders.push_back(folder);
    }
    REQUIRE_FALSE(folders.empty());
    // Python fixtures carry their expectations as annotations, config ones in .expect files.
    bool expects_code = false;
    for (const fs::path& folder : folders) {
      for (auto& e : fs::directory_iterator(folder)) {
        std::string ext = e.path().extension().string();
        if ((ext == ".py" || ext == ".expect") && read(e.path()).find(" " + code + " ") != std::string::npos)
          expects_code = true;
      }
    }
    CHECK(expects_code);
  }
}

// "Fix all" over the realistic corpus: every script stays valid Python and
// reaches a fixed point (no preferred fix left). MSPROBE_FIXED_CORPUS_DIR
// keeps the fixed scripts for review.
TEST_CASE("fix-all keeps the corpus valid Python") {
  fs::path corpus = fs::path(MSPROBE_TESTS_DIR) / "corpus" / "scripts";
  const char* keep = std::getenv("MSPROBE_FIXED_CORPUS_DIR");
  fs::path out = keep ? fs::path(keep) : fs::temp_directory_path() / "msprobe_fixed_corpus";
  fs::create_directories(out);
  test_support::UnboundedParser parser;
  std::vector<fs::path> scripts;
  for (auto& e : fs::directory_iterator(corpus)) {
    if (e.path().extension() == ".py") scripts.push_back(e.path());
  }
  std::sort(scripts.begin(), scripts.end());
  REQUIRE(scripts.size() >= 40);
  AnalysisOptions options;
  std::string list;
  for (const auto& script : scripts) {
    std::string original = read(script);
    std::string fixed = apply_preferred_fixes(parser, original, options);
    SourceText again(fixed);
    Analysis a = analyze(parser, again, options);
    for (const Finding& f : a.findings) {
      for (const Fix& fix : f.fixes) {
        INFO(script.filename().string() << ": preferred fix left after fix-all: " << f.code << " " << fix.title);
        CHECK(!fix.preferred);
      }
    }
    fs::path target = out / script.filename();
    std::ofstream(target, std::ios::binary) << fixed;
    list += " \"" + target.string() + "\"";
  }
  std::string cmd = std::string(MSPROBE_PYTHON) + " -m py_compile" + list;
  INFO(cmd);
  CHECK(std::system(cmd.c_str()) == 0);
}
