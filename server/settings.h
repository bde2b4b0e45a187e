// User settings (`msprobe.*`), read leniently: a bad value is reported once
// and the default is used.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "msprobe/analysis/rule.h"

namespace msprobe::server {

struct Settings {
  analysis::AnalysisOptions analysis;
  int debounce_ms = 150;
  bool show_syntax_errors = true;
  std::string python_path = "python3";
  bool probe_environment = true;  // ask python_path for torch / msProbe versions
  std::vector<std::string> config_globs;
  std::string docs_base_url;  // empty: file URI of the bundled docs/rules.md
};

// Reads settings from any of the shapes clients send:
// {"settings": {...}}, {"msprobe": {...}}, {"settings": {"msprobe": {...}}} or the flat object.
// Problems are appended to `problems` (one line each).
Settings parse_settings(const nlohmann::json& value, std::vector<std::string>& problems);

}  // namespace msprobe::server
