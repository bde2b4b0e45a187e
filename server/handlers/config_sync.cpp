// config.json as a document: which JSON documents are checked as msProbe
// configs, the resolver Python jobs use to read the config a script names
// (open buffers win over the disk), and the refresh of those scripts when a
// config changes (edited, closed, or changed on disk).
#include <filesystem>

#include "config_paths.h"
#include "language_server.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/debugger_sites.h"
#include "uri.h"

namespace msprobe::server {
namespace fs = std::filesystem;
namespace cfg = analysis::config;

namespace {

constexpr std::size_t kMaxConfigBytes = 1 << 20;

struct ResolverInputs {
  std::string script_dir;
  std::vector<std::string> folders;
  std::map<std::string, std::shared_ptr<const std::string>> open;  // path -> buffer
};

analysis::ConfigLookup lookup(const std::string& config_path, const ResolverInputs& in) {
  analysis::ConfigLookup l;
  l.searched = config_candidates(config_path, in.script_dir, in.folders);
  l.path = l.searched.empty() ? config_path : l.searched.front();
  for (const std::string& c : l.searched) {
    if (auto it = in.open.find(c); it != in.open.end()) {
      l.found = true;
      l.path = c;
      l.text = it->second;
      return l;
    }
    std::string text;
    if (read_small_file(c, text, kMaxConfigBytes)) {
      l.found = true;
      l.path = c;
      l.text = std::make_shared<const std::string>(std::move(text));
      return l;
    }
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) {  // too large to read: it exists, its content is not checked
      l.found = true;
      l.path = c;
      return l;
    }
  }
  return l;
}

std::string parent_dir(const std::string& path) { return path.empty() ? "" : fs::path(path).parent_path().string(); }

}  // namespace

ConfigCheck LanguageServer::config_check_mode(const Document& doc) const {
  if (doc.kind != DocumentKind::Json || doc.path.empty()) return ConfigCheck::No;
  if (auto it = config_.users.find(doc.path); it != config_.users.end() && !it->second.empty())
    return ConfigCheck::Always;
  for (const auto& g : settings_.config_globs) {
    if (glob_match(g, doc.path, workspace_folders_)) return ConfigCheck::Always;
  }
  if (fs::path(doc.path).filename() == "config.json") return ConfigCheck::IfMsprobeKeys;
  return ConfigCheck::No;
}

void LanguageServer::prepare_config_job(const Document& doc, AnalysisJob& job) {
  if (doc.kind == DocumentKind::Json) {
    job.config_check = config_check_mode(doc);
    return;
  }
  if (doc.kind != DocumentKind::Python) return;
  auto in = std::make_shared<ResolverInputs>();
  in->script_dir = parent_dir(doc.path);
  in->folders = workspace_folders_;
  for (const auto& [uri, d] : documents_) {
    if (d.kind == DocumentKind::Json && !d.path.empty() && d.text->size() <= kMaxConfigBytes)
      in->open[d.path] = std::make_shared<const std::string>(d.text->text());
  }
  job.options.config_resolver = std::make_shared<const analysis::ConfigResolver>(
      [in](const std::string& p) { return lookup(p, *in); });
}

void LanguageServer::after_config_analysis(const SnapshotPtr& snap) {
  auto it = documents_.find(snap->uri);
  if (it == documents_.end()) return;
  Document& doc = it->second;
  if (snap->kind == DocumentKind::Python) {
    // Which config files this script reads now.
    std::set<std::string> paths;
    for (const cfg::DebuggerSite& site : cfg::find_debugger_sites(snap->result.facts)) {
      if (!site.config_path) continue;
      for (auto& p : config_candidates(*site.config_path, parent_dir(doc.path), workspace_folders_)) paths.insert(p);
    }
    std::set<std::string>& old = config_.script_configs[snap->uri];
    if (old == paths) return;
    for (const auto& p : old) {
      if (auto u = config_.users.find(p); u != config_.users.end()) {
        u->second.erase(snap->uri);
        if (u->second.empty()) config_.users.erase(u);
      }
    }
    std::vector<std::string> newly;
    for (const auto& p : paths) {
      auto& set = config_.users[p];
      if (set.empty()) newly.push_back(p);
      set.insert(snap->uri);
    }
    old = paths;
    // An open JSON document that just became a referenced config is checked as one.
    for (auto& [uri, d] : documents_) {
      if (d.kind == DocumentKind::Json && std::find(newly.begin(), newly.end(), d.path) != newly.end())
        schedule_analysis(d, /*immediately=*/true, /*force=*/true);
    }
    return;
  }
  if (snap->kind != DocumentKind::Json || doc.path.empty()) return;
  if (config_.users.count(doc.path)) {
    auto last = config_.refreshed_version.find(snap->uri);
    if (last == config_.refreshed_version.end() || last->second != snap->version) {
      config_.refreshed_version[snap->uri] = snap->version;
      refresh_config_users(doc.path);
    }
  }
  // Level L2 / nan_check: ask the interpreter about torch_npu (once).
  if (!config_.npu_probe_started && settings_.probe_environment && config_check_mode(doc) != ConfigCheck::No &&
      snap->source && snap->source->size() <= kMaxConfigBytes) {
    cfg::ConfigSummary s = cfg::summarize_config(snap->source->view());
    if (s.readable && (s.level == "L2" || s.task == "nan_check") &&
        (config_check_mode(doc) == ConfigCheck::Always || cfg::looks_like_msprobe_config(snap->source->view())))
      start_environment_probe(/*npu=*/true);
  }
}

void LanguageServer::refresh_config_users(const std::string& config_path) {
  auto it = config_.users.find(config_path);
  if (it == config_.users.end()) return;
  bool any = false;
  for (const std::string& uri : std::set<std::string>(it->second)) {
    auto d = documents_.find(uri);
    if (d == documents_.end()) continue;
    d->second.latest = nullptr;  // requests wait for the new analysis instead of reading the old one
    ++d->second.generation;      // and results of jobs already running are dropped
    schedule_analysis(d->second, /*immediately=*/true, /*force=*/true);
    any = true;
  }
  if (any && caps_.pull_diagnostics && caps_.diagnostic_refresh)
    request("workspace/diagnostic/refresh", nullptr, [](const protocol::Response&) {});
}

void LanguageServer::forget_config_document(const std::string& uri, DocumentKind kind, const std::string& path) {
  if (kind == DocumentKind::Python) {
    auto it = config_.script_configs.find(uri);
    if (it == config_.script_configs.end()) return;
    for (const auto& p : it->second) {
      if (auto u = config_.users.find(p); u != config_.users.end()) {
        u->second.erase(uri);
        if (u->second.empty()) config_.users.erase(u);
      }
    }
    config_.script_configs.erase(it);
  } else if (kind == DocumentKind::Json) {
    config_.refreshed_version.erase(uri);
    if (!path.empty()) refresh_config_users(path);  // they read the file on disk now
  }
}

void LanguageServer::on_did_change_watched_files(const json& params) {
  if (!params.is_object() || !params.contains("changes") || !params["changes"].is_array()) return;
  for (const json& change : params["changes"]) {
    if (!change.is_object() || !change.contains("uri") || !change["uri"].is_string()) continue;
    std::string uri = change["uri"].get<std::string>();
    if (documents_.count(uri)) continue;  // the open buffer is what counts
    std::string path = uri_to_path(uri);
    if (path.empty()) continue;
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".py") == 0) {
      // FileChangeType: 1 created, 2 changed, 3 deleted.
      if (change.value("type", 2) == 3) projects_.file_deleted(path);
      else projects_.file_changed(path);
      continue;
    }
    refresh_config_users(path);
  }
}

}  // namespace msprobe::server
