// Builds the text of a config.json from the fields the user confirmed (task,
// level, rank, step, dump_path) plus the fixed defaults (async_dump false,
// extra_info true on 26.x) and the selected task's block with its defaults.
#pragma once

#include <string>
#include <vector>

#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/config_schema.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis::config {

struct GenerateRequest {
  std::string task = "statistics";
  std::string level = "L1";
  std::vector<RangeEntry> rank;
  std::vector<RangeEntry> step;
  std::string dump_path = "./dump_path";
  bool async_dump = false;
  bool extra_info = true;
};

struct GeneratedConfig {
  std::string text;                 // 4-space indented, ends with a newline
  std::vector<std::string> errors;  // why it must not be written as is
  std::vector<std::string> notes;   // what is left for the user (fill in tensor.list, relative path, ...)
  bool ok() const { return errors.empty(); }
};

std::string render_config(const GenerateRequest& request, ConfigVersion version);
// Renders, then validates the result with the config checker: errors outside
// the task's block reject the request; the rest become notes.
GeneratedConfig generate_config(const GenerateRequest& request, const AnalysisOptions& options);
// The task's block with its defaults on one line ({"scope": [], ...}); "" when the task has none.
std::string default_block(std::string_view task, ConfigVersion version);

}  // namespace msprobe::analysis::config
