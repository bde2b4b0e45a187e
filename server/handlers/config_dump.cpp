// msprobe.checkDump: what did the last run dump under the config's dump_path?
// `{uri}` (or `{configPath}`) names the config; `quiet: true` leaves out the
// message, for a client that only wants the numbers (the VS Code wizard's
// tensor-volume estimate). The result also carries the estimate of the
// config's previous dump, or of the one `verify` left beside it.
#include <filesystem>

#include "config_paths.h"
#include "dump_check.h"
#include "language_server.h"
#include "previous_dump.h"
#include "uri.h"

namespace msprobe::server {
namespace fs = std::filesystem;

void LanguageServer::check_dump(Call& c) {
  std::string path;
  bool quiet = false;
  if (c.params.contains("arguments") && c.params["arguments"].is_array() && !c.params["arguments"].empty()) {
    const json& a = c.params["arguments"][0];
    if (a.is_object() && a.contains("uri") && a["uri"].is_string()) path = uri_to_path(a["uri"].get<std::string>());
    else if (a.is_object() && a.contains("configPath") && a["configPath"].is_string())
      path = absolute_path(a["configPath"].get<std::string>(), "/");
    else if (a.is_string()) path = uri_to_path(a.get<std::string>());
    if (a.is_object() && a.contains("quiet")) quiet = a["quiet"].is_boolean() && a["quiet"].get<bool>();
    if (path.empty())
      throw RequestError(
          ErrorCode::InvalidParams,
          "msprobe.checkDump takes {\"uri\": <file URI of a config.json>} or {\"configPath\": <absolute path>}");
  }
  if (path.empty()) {
    // The config a script uses, else an open config document, else <workspace>/config.json.
    for (const auto& entry : config_.users) {
      const std::string& p = entry.first;
      std::error_code ec;
      if (fs::is_regular_file(p, ec) ||
          std::any_of(documents_.begin(), documents_.end(), [&](const auto& d) { return d.second.path == p; })) {
        path = p;
        break;
      }
    }
    for (const auto& [uri, d] : documents_) {
      if (path.empty() && config_check_mode(d) != ConfigCheck::No) path = d.path;
    }
    if (path.empty() && !workspace_folders_.empty()) path = absolute_path("config.json", workspace_folders_.front());
    if (path.empty()) throw RequestError(ErrorCode::InvalidParams, "no config.json to check: pass {\"uri\": ...}");
  }
  std::string text;
  bool open = false;
  for (const auto& [uri, d] : documents_) {
    if (d.path == path) {
      text = d.text->text();
      open = true;
    }
  }
  if (!open && !read_small_file(path, text)) throw RequestError(ErrorCode::InvalidParams, "cannot read " + path);
  std::vector<std::string> bases = {fs::path(path).parent_path().string()};
  for (const auto& f : workspace_folders_) bases.push_back(f);
  DumpReport r = server::check_dump(path, text, bases, settings_.analysis);
  json result = to_json(r);
  result["text"] = to_text(r);
  PreviousDump previous = previous_dump(path, text, bases, settings_.analysis);
  result["previous_dump_estimate"] = {{"dumpPath", previous.dump_path}, {"lines", previous.lines}};
  if (quiet) {
    c.reply(result);
    return;
  }
  if (!r.error.empty()) {
    show_message(2, "msProbe dump check: " + r.error);
  } else if (r.ok) {
    show_message(
        3, "msProbe dump looks complete: " + std::to_string(r.steps.size()) + " step folder(s) under " + r.dump_path);
  } else {
    show_message(2, "msProbe dump under " + r.dump_path + " is missing or incomplete" +
                        (r.causes.empty() ? std::string() : ": " + r.causes.front()));
  }
  c.reply(result);
}

}  // namespace msprobe::server
