// workspace/executeCommand.
#include "language_server.h"

namespace msprobe::server {

extern const std::vector<std::string> kServerCommands;
const std::vector<std::string> kServerCommands = {
    "msprobe.showInfo",    "msprobe.generateConfig", "msprobe.checkDump",      "msprobe.enableDump",
    "msprobe.disableDump", "msprobe.removeDump",     "msprobe.vllmAscendFlags"};

json LanguageServer::show_info() const {
  json rules = json::array();
  for (const auto* r : analysis::all_rules()) {
    std::string code(r->meta.code);
    rules.push_back({{"code", code},
                     {"name", std::string(r->meta.name)},
                     {"enabled", settings_.analysis.disabled_rules.count(code) == 0}});
  }
  json docs = json::array();
  for (const auto& [uri, d] : documents_) {
    // facts: whether the latest analysis still holds them (idle documents are slimmed).
    // projectRefreshes: analyses because another file of the project changed;
    // analyses: results taken (published, or not when a re-check found the same diagnostics);
    // tree: whether the latest analysis holds a syntax tree (not when it parsed two halves).
    docs.push_back({{"uri", uri},
                    {"version", d.version},
                    {"facts", d.latest != nullptr && !d.latest->slim},
                    {"tree", d.latest != nullptr && d.latest->result.tree != nullptr},
                    {"projectRefreshes", d.project_refreshes},
                    {"analyses", d.analyses}});
  }
  const auto& a = settings_.analysis;
  return {{"server", {{"name", "msprobe-lsp"}, {"version", MSPROBE_LSP_VERSION}}},
          {"client", client_name_},
          {"positionEncoding", encoding_ == analysis::Encoding::Utf8 ? "utf-8" : "utf-16"},
          {"diagnosticMode", caps_.pull_diagnostics ? "pull" : "push"},
          {"torchVersion", a.torch_version ? json(a.torch_version->text) : json(nullptr)},
          {"msprobeVersion", a.msprobe_version ? json(a.msprobe_version->text) : json(nullptr)},
          {"settings", settings_in_effect()},
          {"workspaceFolders", workspace_folders_},
          {"openDocuments", docs},
          {"rules", rules},
          {"config", config_info()},
          {"index", projects_.info()},
          // A large document opened while nothing else is analysed is parsed in two halves.
          {"secondCore", worker_.second_core_ready()}};
}

// Every documented setting with the value in effect (defaults included), under
// the names clients use; the versions are the explicit settings ("" when unset).
json LanguageServer::settings_in_effect() const {
  const auto& a = settings_.analysis;
  json overrides = json::object();
  for (const auto& [code, sev] : a.severity_overrides) overrides[code] = analysis::to_string(sev);
  std::vector<std::string> disabled(a.disabled_rules.begin(), a.disabled_rules.end());
  return {{"torchVersion", config_.explicit_torch ? config_.explicit_torch->text : ""},
          {"msprobeVersion", config_.explicit_msprobe ? config_.explicit_msprobe->text : ""},
          {"debounceMs", settings_.debounce_ms},
          {"disabledRules", disabled},
          {"severityOverrides", overrides},
          {"showSyntaxErrors", settings_.show_syntax_errors},
          {"configPath", a.config_path},
          {"pythonPath", settings_.python_path},
          {"probeEnvironment", settings_.probe_environment},
          {"configGlobs", settings_.config_globs},
          {"parseTimeoutMs", settings_.parse_timeout_ms},
          {"index.enabled", settings_.index.enabled},
          {"index.maxFiles", settings_.index.max_files},
          {"docsBaseUrl", settings_.docs_base_url}};
}

void LanguageServer::on_execute_command(Call& c) {
  if (!c.params.is_object() || !c.params.contains("command") || !c.params["command"].is_string())
    throw std::invalid_argument("executeCommand needs a string 'command'");
  std::string command = c.params["command"].get<std::string>();
  if (command == "msprobe.showInfo") return c.reply(show_info());
  if (command == "msprobe.generateConfig") return generate_config(c);
  if (command == "msprobe.checkDump") return check_dump(c);
  json args = c.params.value("arguments", json::array());
  json arg = args.is_array() && !args.empty() ? args[0] : json::object();
  if (command == "msprobe.enableDump" || command == "msprobe.disableDump" || command == "msprobe.removeDump")
    return execute_dump_command(c, command, arg);
  if (command == "msprobe.vllmAscendFlags") return vllm_ascend_flags_command(c, arg);
  throw RequestError(ErrorCode::InvalidParams, "unknown command: " + command);
}

}  // namespace msprobe::server
