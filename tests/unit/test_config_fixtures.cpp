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
// findings". Run with MSPROBE_UPDATE_EXPECT=1 to rewrite the .expect files
// from the current output (options lines are kept).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + std::min<std::size_t>(offset, text.size()), '\n')) + 1;
}

std::string describe(const std::string& text, const Finding& f) {
  std::string covered = text.substr(f.range.start, f.range.end - f.range.start);
  // Multi-line ranges are shown by their first line.
  covered = covered.substr(0, covered.find('\n'));
  return std::to_string(line_of(text, f.range.start)) + " " + f.code + " " + to_string(f.severity) + " `" + covered +
         "` " + f.message;
}

}  // namespace

TEST_CASE("config fixtures") {
  fs::path root = fs::path(MSPROBE_TESTS_DIR) / "config" / "fixtures";
  std::vector<fs::path> files;
  for (auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  bool update = std::getenv("MSPROBE_UPDATE_EXPECT") != nullptr;
  static const std::regex re(R"(^(\d+)\s+(MSP\d{3})\s+(error|warning|info|hint)\s+`(.*)`\s*(.*)$)");
  for (const auto& file : files) {
    DYNAMIC_SECTION(fs::relative(file, root).string()) {
      std::string text = read(file);
      fs::path expect_path = file;
      expect_path.replace_extension(".expect");
      INFO("fixture " << file.string());
      REQUIRE(fs::exists(expect_path));
      std::istringstream expect(read(expect_path));
      std::string line, options_line;
      std::vector<Expected> expected;
      while (std::getline(expect, line)) {
        if (line.rfind("# options:", 0) == 0) {
          options_line = line;
          continue;
        }
        if (line.empty() || line[0] == '#') continue;
        std::smatch m;
        INFO("expect line: " << line);
        REQUIRE(std::regex_match(line, m, re));
        expected.push_back({static_cast<uint32_t>(std::stoul(m[1])), m[2], m[3], m[4], m[5]});
      }
      AnalysisOptions options = options_line.empty() ? AnalysisOptions{} : parse_options(options_line);
      auto findings = config::check_config(text, options);
      if (update) {
        std::ofstream out(expect_path, std::ios::binary);
        if (!options_line.empty()) out << options_line << "\n";
        for (const Finding& f : findings) out << describe(text, f) << "\n";
        continue;
      }
      std::vector<bool> matched(expected.size(), false);
      std::vector<std::string> unexpected;
      for (const Finding& f : findings) {
        std::string covered = text.substr(f.range.start, f.range.end - f.range.start);
        covered = covered.substr(0, covered.find('\n'));
        bool ok = false;
        for (std::size_t i = 0; i < expected.size() && !ok; ++i) {
          const Expected& x = expected[i];
          if (matched[i] || x.line != line_of(text, f.range.start) || x.code != f.code ||
              x.severity != to_string(f.severity) || x.covered != covered ||
              f.message.find(x.message) == std::string::npos)
            continue;
          matched[i] = ok = true;
        }
        if (!ok) unexpected.push_back(describe(text, f));
      }
      for (const auto& u : unexpected) UNSCOPED_INFO("unexpected: " << u);
      for (std::size_t i = 0; i < expected.size(); ++i) {
        if (!matched[i]) UNSCOPED_INFO("missing:    " << expected[i].describe());
      }
      CHECK(unexpected.empty());
      CHECK(std::all_of(matched.begin(), matched.end(), [](bool b) { return b; }));
    }
  }
}
