// What the server keeps for config.json support: which scripts read which
// config files (to refresh them when a config changes), and what the
// environment probe found. Used by handlers/config_*.cpp only.
#pragma once

#include <asio.hpp>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "env_probe.h"
#include "msprobe/analysis/version.h"

namespace msprobe::server {

struct ConfigState {
  explicit ConfigState(asio::io_context& io) : probe(std::make_unique<EnvProbe>(io)) {}

  // script uri -> the config paths it may read; config path -> script uris.
  std::map<std::string, std::set<std::string>> script_configs;
  std::map<std::string, std::set<std::string>> users;
  // config document uri -> the version whose users were last refreshed.
  std::map<std::string, int> refreshed_version;

  // Environment.
  std::unique_ptr<EnvProbe> probe;
  bool started = false;                // after `initialized`
  std::optional<ProbeResult> env;      // versions, for settings_.python_path
  std::optional<ProbeResult> npu_env;  // torch_npu / NPU, asked only when a config needs it
  bool npu_probe_started = false;
  PinnedVersions pins;
  std::optional<analysis::Version> explicit_torch, explicit_msprobe;  // from the settings
  std::string torch_source = "unknown", msprobe_source = "unknown";
  std::set<std::string> told;  // messages already shown
};

}  // namespace msprobe::server
