// Data-driven config checker tests: every tests/config/fixtures/**/*.json
// (one folder per rule code, named after the rule the fixture is about, and
// valid/ for files with nothing to report) is checked and its findings
// compared with the sidecar NAME.expect, one finding a line:
//
//     4 MSP301 error `"l1"` did you mean "L1"
//
// that is: the 1-based line where the finding starts, the code, the severity,
// the exact text the range covers (between backquotes), and a substring of
// the message. Lines starting with '#' are comments, except a first line
// "# options: msprobe=8.3.0 torch=1.13.1 torch_npu=false npu=false disable=MSP305" that
// sets the analysis options. An .expect with no finding lines means "no
// findings". MSPROBE_UPDATE_EXPECT=1 rewrites the .expect files that no longer
// match from the current output (options lines are kept) and fails (golden.h).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "golden.h"
#include "msprobe/analysis/config/config_check.h"

namespace fs = std::filesystem;
using namespace msprobe::analysis;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Expected {
  uint32_t line = 0;
  std::string code, severity, covered, message;
  std::string describe() const {
    return std::to_string(line) + " " + code + " " + severity + " `" + covered + "` " + message;
  }
};

AnalysisOptions parse_options(const std::string& line) {
  AnalysisOptions o;
  std::istringstream words(line.substr(line.find(':') + 1));
  std::string w;
  while (words >> w) {
    auto eq = w.find('=');
    std::string k = w.substr(0, eq), v = eq == std::string::npos ? "" : w.substr(eq + 1);
    if (k == "msprobe") o.msprobe_version = Version::parse(v);
    else if (k == "torch") o.torch_version = Version::parse(v);
    else if (k == "torch_npu") o.torch_npu_importable = v == "true";
    else if (k == "npu") o.npu_available = v == "true";
    else if (k == "disable") o.disabled_rules.insert(v);
    else FAIL("unknown option " << k);
  }
  return o;
}

uint32_t line_of(const std::string& text, uint32_t offset) {
  return static_cast<uint32_t>(
             std::count(text.begin(), text.begin() + std::min<std::size_t>(offset, text.size()), '\n')) +
         1;
}

std::string describe(const std::string& text, const Finding& f) {
  std::string covered = text.substr(f.range.start, f.range.end - f.range.start);
  // Multi-line ranges are shown by their first line.
  covered = covered.substr(0, covered.find('\n'));
  return std::to_string(line_of(text, f.range.start)) + " " + f.code + " " + to_string(f.severity) + " `" + covered +
         "` " + f.message;
}

struct ExpectFile {
  std::string options_line;  // "# options: ...", or empty
  std::vector<Expected> expected;
};

ExpectFile read_expect(const fs::path& path) {
  static const std::regex re(R"(^(\d+)\s+(MSP\d{3})\s+(error|warning|info|hint)\s+`(.*)`\s*(.*)$)");
  ExpectFile out;
  std::istringstream expect(read(path));
  std::string line;
  while (std::getline(expect, line)) {
    if (line.rfind("# options:", 0) == 0) {
      out.options_line = line;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::smatch m;
    INFO("expect line: " << line);
    REQUIRE(std::regex_match(line, m, re));
    out.expected.push_back({static_cast<uint32_t>(std::stoul(m[1])), m[2], m[3], m[4], m[5]});
  }
  return out;
}

AnalysisOptions options_of(const ExpectFile& e) {
  return e.options_line.empty() ? AnalysisOptions{} : parse_options(e.options_line);
}

// "unexpected: ..." for each finding no expectation matches, "missing: ..."
// for each expectation no finding matches; empty when they agree.
std::vector<std::string> mismatches(const std::string& text, const std::vector<Expected>& expected,
                                    const std::vector<Finding>& findings) {
  std::vector<bool> matched(expected.size(), false);
  std::vector<std::string> out;
  for (const Finding& f : findings) {
    std::string covered = text.substr(f.range.start, f.range.end - f.range.start);
    covered = covered.substr(0, covered.find('\n'));
    bool ok = false;
    for (std::size_t i = 0; i < expected.size() && !ok; ++i) {
      const Expected& x = expected[i];
      if (matched[i] || x.line != line_of(text, f.range.start) || x.code != f.code ||
          x.severity != to_string(f.severity) || x.covered != covered || f.message.find(x.message) == std::string::npos)
        continue;
      matched[i] = ok = true;
    }
    if (!ok) out.push_back("unexpected: " + describe(text, f));
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!matched[i]) out.push_back("missing:    " + expected[i].describe());
  }
  return out;
}

fs::path expect_path_of(fs::path file) { return file.replace_extension(".expect"); }

}  // namespace

TEST_CASE("config fixtures") {
  fs::path root = fs::path(MSPROBE_TESTS_DIR) / "config" / "fixtures";
  std::vector<fs::path> files;
  for (auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  static bool updated = false;  // once, not again when Catch re-enters for each section
  if (golden::update_mode() && !updated) {
    updated = true;
    std::size_t rewritten = 0;
    for (const auto& file : files) {
      std::string text = read(file);
      fs::path expect_path = expect_path_of(file);
      ExpectFile e = fs::exists(expect_path) ? read_expect(expect_path) : ExpectFile{};
      auto findings = config::check_config(text, options_of(e));
      if (fs::exists(expect_path) && mismatches(text, e.expected, findings).empty()) continue;
      std::string content = e.options_line.empty() ? "" : e.options_line + "\n";
      for (const Finding& f : findings) content += describe(text, f) + "\n";
      rewritten += golden::write_if_changed(expect_path, content);
    }
    golden::report(rewritten);
  }
  for (const auto& file : files) {
    DYNAMIC_SECTION(fs::relative(file, root).string()) {
      std::string text = read(file);
      fs::path expect_path = expect_path_of(file);
      INFO("fixture " << file.string());
      REQUIRE(fs::exists(expect_path));
      ExpectFile e = read_expect(expect_path);
      auto findings = config::check_config(text, options_of(e));
      std::vector<std::string> problems = mismatches(text, e.expected, findings);
      for (const auto& p : problems) UNSCOPED_INFO(p);
      CHECK(problems.empty());
    }
  }
}
