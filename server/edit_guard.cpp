// Workspace-edit targets and the "inside the workspace" check.
#include "edit_guard.h"

#include "file_io.h"
#include "uri.h"

namespace msprobe::server {

using nlohmann::json;

namespace {

void add_uri(const json& v, std::vector<std::string>& out) {
  if (v.is_string()) out.push_back(v.get<std::string>());
  else out.push_back("");  // a malformed target counts as outside
}

bool looks_like_edit(const json& v) {
  if (!v.is_object()) return false;
  auto c = v.find("changes");
  auto d = v.find("documentChanges");
  return (c != v.end() && c->is_object()) || (d != v.end() && d->is_array());
}

}  // namespace

std::vector<std::string> edit_targets(const json& edit) {
  std::vector<std::string> out;
  if (!edit.is_object()) return out;
  if (auto c = edit.find("changes"); c != edit.end() && c->is_object()) {
    for (auto it = c->begin(); it != c->end(); ++it) out.push_back(it.key());
  }
  if (auto d = edit.find("documentChanges"); d != edit.end() && d->is_array()) {
    for (const json& op : *d) {
      if (!op.is_object()) continue;
      std::string kind = op.contains("kind") && op["kind"].is_string() ? op["kind"].get<std::string>() : "";
      if (kind == "rename") {
        add_uri(op.value("oldUri", json()), out);
        add_uri(op.value("newUri", json()), out);
      } else if (kind == "create" || kind == "delete") {
        add_uri(op.value("uri", json()), out);
      } else if (op.contains("textDocument") && op["textDocument"].is_object()) {
        add_uri(op["textDocument"].value("uri", json()), out);
      } else {
        out.push_back("");
      }
    }
  }
  return out;
}

bool uri_inside(const std::string& uri, const std::vector<std::string>& roots) {
  if (uri.rfind("file:", 0) != 0) return !uri.empty() && uri.find(':') != std::string::npos;
  std::string path = uri_to_path(uri);
  return !path.empty() && is_inside_workspace(path, roots);
}

std::string first_outside_target(const json& value, const std::vector<std::string>& roots) {
  if (looks_like_edit(value)) {
    for (const std::string& uri : edit_targets(value)) {
      if (!uri_inside(uri, roots)) return uri.empty() ? "(malformed uri)" : uri;
    }
  }
  if (value.is_object() || value.is_array()) {
    for (const json& v : value) {
      std::string bad = first_outside_target(v, roots);
      if (!bad.empty()) return bad;
    }
  }
  return {};
}

std::vector<std::string> drop_actions_outside(json& actions, const std::vector<std::string>& roots) {
  std::vector<std::string> refused;
  if (!actions.is_array()) return refused;
  json kept = json::array();
  for (json& a : actions) {
    std::string bad = first_outside_target(a, roots);
    if (bad.empty()) kept.push_back(std::move(a));
    else refused.push_back(bad);
  }
  actions = std::move(kept);
  return refused;
}

}  // namespace msprobe::server
