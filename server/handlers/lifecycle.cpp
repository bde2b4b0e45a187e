// initialize / initialized / shutdown / exit, capabilities, settings, cancel.
#include <spdlog/spdlog.h>

#include <limits>

#include "language_server.h"
#include "uri.h"

namespace msprobe::server {
namespace {

bool flag(const json& j, std::initializer_list<const char*> path) {
  const json* cur = &j;
  for (const char* p : path) {
    if (!cur->is_object()) return false;
    auto it = cur->find(p);
    if (it == cur->end()) return false;
    cur = &*it;
  }
  return cur->is_boolean() ? cur->get<bool>() : !cur->is_null();
}

const json* at(const json& j, std::initializer_list<const char*> path) {
  const json* cur = &j;
  for (const char* p : path) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(p);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur;
}

}  // namespace

// Commands the server executes (workspace/executeCommand).
extern const std::vector<std::string> kServerCommands;

void LanguageServer::parse_client_capabilities(const json& c) {
  if (const json* enc = at(c, {"general", "positionEncodings"}); enc && enc->is_array()) {
    for (const json& e : *enc) {
      if (e == "utf-8") caps_.utf8 = true;
    }
  }
  caps_.pull_diagnostics = at(c, {"textDocument", "diagnostic"}) != nullptr;
  caps_.diagnostic_refresh = flag(c, {"workspace", "diagnostics", "refreshSupport"});
  caps_.related_information = flag(c, {"textDocument", "publishDiagnostics", "relatedInformation"});
  caps_.version_support = flag(c, {"textDocument", "publishDiagnostics", "versionSupport"});
  caps_.code_lens = at(c, {"textDocument", "codeLens"}) != nullptr;
  caps_.code_lens_refresh = flag(c, {"workspace", "codeLens", "refreshSupport"});
  caps_.code_action_literals = at(c, {"textDocument", "codeAction", "codeActionLiteralSupport"}) != nullptr;
  caps_.code_action_data = flag(c, {"textDocument", "codeAction", "dataSupport"});
  if (const json* props = at(c, {"textDocument", "codeAction", "resolveSupport", "properties"});
      props && props->is_array()) {
    for (const json& p : *props) {
      if (p == "edit") caps_.code_action_resolve_edit = true;
    }
  }
  caps_.apply_edit = flag(c, {"workspace", "applyEdit"});
  caps_.document_changes = flag(c, {"workspace", "workspaceEdit", "documentChanges"});
  caps_.change_annotations = at(c, {"workspace", "workspaceEdit", "changeAnnotationSupport"}) != nullptr;
  if (const json* ops = at(c, {"workspace", "workspaceEdit", "resourceOperations"}); ops && ops->is_array()) {
    for (const json& o : *ops) {
      if (o == "create") caps_.create_files = true;
    }
  }
  caps_.configuration = flag(c, {"workspace", "configuration"});
  caps_.show_message_request = at(c, {"window", "showMessage"}) != nullptr;
  caps_.work_done_progress = flag(c, {"window", "workDoneProgress"});
  caps_.did_change_watched_files_dynamic = flag(c, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  if (const json* fmt = at(c, {"textDocument", "hover", "contentFormat"}); fmt && fmt->is_array()) {
    caps_.markdown_hover = false;
    for (const json& f : *fmt) {
      if (f == "markdown") caps_.markdown_hover = true;
    }
  }
}

json LanguageServer::server_capabilities() const {
  json caps{
      {"positionEncoding", encoding_ == analysis::Encoding::Utf8 ? "utf-8" : "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"codeActionProvider",
       {{"codeActionKinds",
         {"quickfix", "refactor.rewrite", "refactor.rewrite.msprobe", "source", "source.msprobe",
          "source.fixAll.msprobe"}},
        {"resolveProvider", true}}},
      {"executeCommandProvider", {{"commands", kServerCommands}}},
      {"completionProvider", {{"triggerCharacters", {"\"", ":"}}, {"resolveProvider", false}}},
  };
  if (caps_.code_lens) caps["codeLensProvider"] = {{"resolveProvider", false}};
  if (caps_.pull_diagnostics)
    caps["diagnosticProvider"] = {{"identifier", "msprobe"},
                                  {"interFileDependencies", true},
                                  {"workspaceDiagnostics", false}};
  return caps;
}

void LanguageServer::on_initialize(Call& c) {
  const json& p = c.params;
  if (!p.is_object()) throw RequestError(ErrorCode::InvalidParams, "initialize params must be an object");
  if (auto caps = p.find("capabilities"); caps != p.end()) parse_client_capabilities(*caps);
  encoding_ = caps_.utf8 ? analysis::Encoding::Utf8 : analysis::Encoding::Utf16;
  if (const json* name = at(p, {"clientInfo", "name"}); name && name->is_string())
    client_name_ = name->get<std::string>();
  // Only a value that can be a pid: a truncated 2^40 could name a live stranger.
  if (auto pid = p.find("processId"); pid != p.end() && pid->is_number_integer() && pid->get<long long>() > 0 &&
                                      pid->get<long long>() <= std::numeric_limits<int>::max())
    watch_parent(static_cast<int>(pid->get<long long>()));
  if (auto folders = p.find("workspaceFolders"); folders != p.end() && folders->is_array()) {
    for (const json& f : *folders) {
      if (f.is_object() && f.contains("uri") && f["uri"].is_string()) {
        std::string path = uri_to_path(f["uri"].get<std::string>());
        if (!path.empty()) workspace_folders_.push_back(path);
      }
    }
  }
  if (workspace_folders_.empty()) {
    if (auto root = p.find("rootUri"); root != p.end() && root->is_string()) {
      std::string path = uri_to_path(root->get<std::string>());
      if (!path.empty()) workspace_folders_.push_back(path);
    } else if (auto rp = p.find("rootPath"); rp != p.end() && rp->is_string()) {
      workspace_folders_.push_back(rp->get<std::string>());
    }
  }
  if (auto t = p.find("trace"); t != p.end() && t->is_string()) trace_ = t->get<std::string>();
  if (auto opts = p.find("initializationOptions"); opts != p.end()) {
    init_options_ = *opts;
    apply_settings(*opts);
  }
  state_ = State::Running;
  spdlog::info("initialized by {} (position encoding {}, {} diagnostics)",
               client_name_.empty() ? "a client" : client_name_,
               encoding_ == analysis::Encoding::Utf8 ? "utf-8" : "utf-16", caps_.pull_diagnostics ? "pull" : "push");
  c.reply({{"capabilities", server_capabilities()},
           {"serverInfo", {{"name", "msprobe-lsp"}, {"version", MSPROBE_LSP_VERSION}}}});
}

void LanguageServer::on_initialized(const json&) {
  if (caps_.configuration) pull_configuration();
  start_config_services();
  start_project_index();
}

void LanguageServer::pull_configuration() {
  request("workspace/configuration", {{"items", json::array({{{"section", "msprobe"}}})}},
          [this](const protocol::Response& r) {
            if (!r.ok || !r.result.is_array() || r.result.empty() || r.result[0].is_null()) return;
            apply_settings(r.result[0]);
          });
}

void LanguageServer::apply_settings(const json& value) {
  std::vector<std::string> problems;
  Settings next = parse_settings(value, problems);
  report_setting_problems(problems);
  std::string previous_python = settings_.python_path;
  bool index_changed = !(next.index == settings_.index);
  settings_ = std::move(next);
  on_settings_replaced(previous_python);
  if (index_changed && state_ == State::Running) start_project_index();
  // Everything open is re-checked with the new options.
  for (auto& [uri, doc] : documents_) schedule_analysis(doc, /*immediately=*/true, /*force=*/true);
}

void LanguageServer::on_did_change_configuration(const json& params) {
  // Clients that support workspace/configuration are asked (the pushed value
  // may be partial); others push the whole section.
  if (caps_.configuration) {
    pull_configuration();
    return;
  }
  if (params.is_object() && params.contains("settings")) apply_settings(params["settings"]);
}

void LanguageServer::on_shutdown(Call& c) {
  shutdown_requested_ = true;
  state_ = State::ShuttingDown;
  for (auto& [uri, doc] : documents_) {
    if (doc.debounce) doc.debounce->cancel();
  }
  c.reply(nullptr);
}

void LanguageServer::on_exit(const json&) { terminate(shutdown_requested_ ? 0 : 1); }

void LanguageServer::on_cancel_request(const json& params) {
  if (!params.is_object() || !params.contains("id")) return;
  auto it = cancellable_.find(protocol::id_key(params["id"]));
  if (it == cancellable_.end()) return;  // already answered or unknown: nothing to do
  auto cancellers = std::move(it->second);
  cancellable_.erase(it);
  for (auto& [cookie, cancel] : cancellers) cancel();
}

void LanguageServer::on_set_trace(const json& params) {
  if (params.is_object() && params.contains("value") && params["value"].is_string())
    trace_ = params["value"].get<std::string>();
}

}  // namespace msprobe::server
