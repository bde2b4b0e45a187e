// The config's own dump first; verify's short-run dump second.
#include "previous_dump.h"

#include <nlohmann/json.hpp>

#include "dump_check.h"
#include "short_run.h"

namespace msprobe::server {

PreviousDump previous_dump(const std::string& config_path, const std::string& config_text,
                           const std::vector<std::string>& base_dirs, const analysis::AnalysisOptions& options) {
  PreviousDump out;
  DumpReport own = check_dump(config_path, config_text, base_dirs, options);
  if (!own.error.empty()) return out;
  std::vector<std::string> lines = tensor_estimate_lines(own);
  if (!lines.empty()) return {own.dump_path, lines};
  // verify dumps into <dump_path>_verify, resolved against the directory it ran in.
  for (const std::string& base : base_dirs) {
    nlohmann::json config = nlohmann::json::parse(config_text, nullptr, false);
    if (!config.is_object()) return out;
    config["dump_path"] = short_run_dump_dir(config_text, base);
    DumpReport verified = check_dump(config_path, config.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                                     {base}, options);
    // The short run's steps say nothing of the config's plan: extrapolate to the config's steps.
    verified.planned_steps = own.planned_steps;
    verified.planned_steps_text = own.planned_steps_text;
    lines = tensor_estimate_lines(verified);
    if (!lines.empty()) return {verified.dump_path, lines};
  }
  return out;
}

}  // namespace msprobe::server
