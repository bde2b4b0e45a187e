// The CLI's line diff and the config lookup beside a script.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cli/unified_diff.h"
#include "config_lookup.h"

namespace fs = std::filesystem;
using msprobe::cli::unified_diff;

TEST_CASE("unified_diff groups changes into hunks with context", "[cli]") {
  CHECK(unified_diff("a\nb\n", "a\nb\n", "x", "y").empty());
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += std::to_string(i) + "\n";
    after += std::to_string(i) + "\n";
    if (i == 2) after += "new\n";
  }
  after.replace(after.find("15\n"), 3, "fifteen\n");
  CHECK(unified_diff(before, after, "a/f", "b/f") ==
        "--- a/f\n+++ b/f\n"
        "@@ -1,5 +1,6 @@\n 1\n 2\n+new\n 3\n 4\n 5\n"
        "@@ -12,7 +13,7 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n 17\n 18\n");
}

TEST_CASE("unified_diff marks a missing final newline", "[cli]") {
  CHECK(unified_diff("a\nb", "a\nb\nc", "x", "y") ==
        "--- x\n+++ y\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n\\ No newline at end of file\n");
}

TEST_CASE("config_path_for prefers the setting, then a config beside the script", "[cli]") {
  fs::path dir = fs::temp_directory_path() / "msprobe-config-lookup-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string script = (dir / "train.py").string();
  CHECK(msprobe::server::config_path_for(script, "/etc/cfg.json") == "/etc/cfg.json");
  CHECK(msprobe::server::config_path_for(script, "./config.json") == "./config.json");
  std::ofstream(dir / "package.json") << R"({"name": "not msprobe"})";
  std::ofstream(dir / "dump_cfg.json") << R"({"task": "statistics", "dump_path": "./out"})";
  CHECK(msprobe::server::config_path_for(script, "./config.json") == "./dump_cfg.json");
  std::ofstream(dir / "config.json") << "{}";
  CHECK(msprobe::server::config_path_for(script, "./config.json") == "./config.json");
  fs::remove_all(dir);
}
