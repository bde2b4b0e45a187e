// Which config file an inserted PrecisionDebugger(config_path=...) names: the
// configured one, or an msProbe config.json already next to the script.
#pragma once

#include <string>

namespace msprobe::server {

inline constexpr const char* kDefaultConfigPath = "./config.json";

// `configured` is the setting (or --config); when it is the default, an
// existing config next to `script_path` wins (config.json first, then any
// JSON file with msProbe's "task" or "dump_path" keys), as "./<name>".
std::string config_path_for(const std::string& script_path, const std::string& configured);

}  // namespace msprobe::server
