// The config.json field table as a draft-07 JSON Schema (for editors'
// jsonValidation; `msprobe-lsp schema` prints it).
#pragma once

#include <nlohmann/json.hpp>

#include "msprobe/analysis/config/config_schema.h"

namespace msprobe::server {

nlohmann::json config_json_schema(analysis::config::ConfigVersion version);

}  // namespace msprobe::server
