// The tensor-volume estimate of a config's previous dump, for the moment a
// user picks a task (the generateConfig dialogue, the VS Code wizard): the
// dump under the config's dump_path, else the one `msprobe-lsp verify` left
// beside it (<dump_path>_verify).
#pragma once

#include <string>
#include <vector>

#include "msprobe/analysis/rule.h"

namespace msprobe::server {

struct PreviousDump {
  std::string dump_path;           // where the estimate comes from; "" when there is no dump with tensors
  std::vector<std::string> lines;  // tensor_estimate_lines of that dump
};

PreviousDump previous_dump(const std::string& config_path, const std::string& config_text,
                           const std::vector<std::string>& base_dirs, const analysis::AnalysisOptions& options);

}  // namespace msprobe::server
