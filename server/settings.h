// User settings (`msprobe.*`), read leniently: a bad value is reported once
// and the default is used.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "msprobe/analysis/rule.h"

namespace msprobe::server {

// The project index (msprobe.index.*).
struct IndexSettings {
  bool enabled = true;
  std::size_t max_files = 5000;
  std::size_t max_bytes = 64u << 20;  // of source read; not a user setting
  friend bool operator==(const IndexSettings& a, const IndexSettings& b) {
    return a.enabled == b.enabled && a.max_files == b.max_files && a.max_bytes == b.max_bytes;
  }
};

struct Settings {
  analysis::AnalysisOptions analysis;
  int debounce_ms = 150;
  bool show_syntax_errors = true;
  std::string python_path = "python3";
  bool probe_environment = true;  // ask python_path for torch / msProbe versions
  std::vector<std::string> config_globs;
  std::string docs_base_url;    // empty: file URI of the bundled docs/rules.md
  int parse_timeout_ms = 1500;  // a parse that takes longer gives up (an info diagnostic says so)
  IndexSettings index;
  // Test-only (undocumented initializationOptions key "testAnalysisDelayMs"):
  // every analysis job sleeps this long first, so tests can send requests and
  // edits while an analysis is known to be running.
  int test_analysis_delay_ms = 0;
};

// Reads settings from any of the shapes clients send:
// {"settings": {...}}, {"msprobe": {...}}, {"settings": {"msprobe": {...}}} or the flat object.
// Problems are appended to `problems` (one line each).
Settings parse_settings(const nlohmann::json& value, std::vector<std::string>& problems);

}  // namespace msprobe::server
