// Code actions: the quick fixes carried in each diagnostic's data, and
// "ignore CODE for this line".
#include "language_server.h"

namespace msprobe::server {
namespace {

bool kind_allowed(const json& only, const std::string& kind) {
  if (!only.is_array() || only.empty()) return true;
  for (const json& k : only) {
    if (!k.is_string()) continue;
    const std::string& prefix = k.get_ref<const std::string&>();
    if (kind == prefix || kind.rfind(prefix + ".", 0) == 0) return true;
  }
  return false;
}

}  // namespace

void LanguageServer::on_code_action(Call& c) {
  Document& doc = require_document(c.params);
  json context = c.params.value("context", json::object());
  json only = context.value("only", json());
  json diagnostics = context.value("diagnostics", json::array());
  std::string uri = doc.uri;
  json actions = json::array();
  if (!kind_allowed(only, "quickfix")) return c.reply(actions);
  for (const json& d : diagnostics) {
    if (!d.is_object() || d.value("source", "") != "msprobe") continue;
    std::string code = d.contains("code") && d["code"].is_string() ? d["code"].get<std::string>() : "";
    const json data = d.value("data", json::object());
    if (data.is_object() && data.contains("fixes") && data["fixes"].is_array()) {
      int version = data.value("version", doc.version);
      if (version != doc.version) continue;  // fixes for an older text must not be applied
      for (const json& fix : data["fixes"]) {
        json edit{{"changes", {{uri, fix.value("edits", json::array())}}}};
        json action{{"title", "msProbe (" + code + "): " + fix.value("title", std::string("fix"))},
                    {"kind", "quickfix"},
                    {"diagnostics", json::array({d})},
                    {"edit", edit}};
        if (fix.value("preferred", false)) action["isPreferred"] = true;
        actions.push_back(action);
      }
    }
    add_config_actions(doc, d, actions);
    if (!code.empty() && d.contains("range")) {
      // `# msprobe: ignore[CODE]` at the end of the diagnostic's first line.
      uint32_t line = d["range"]["start"].value("line", 0u);
      if (line < doc.text.line_count()) {
        std::string_view text = doc.text.line_text(line);
        std::size_t end = doc.text.line_end(line);
        std::string insert;
        std::size_t hash = text.find("# msprobe: ignore[");
        json edit_range;
        if (hash != std::string_view::npos) {
          std::size_t close = text.find(']', hash);
          if (close == std::string_view::npos) continue;
          std::size_t at = doc.text.line_start(line) + close;
          edit_range = to_range(doc.text, {static_cast<uint32_t>(at), static_cast<uint32_t>(at)}, encoding_);
          insert = ", " + code;
        } else {
          edit_range = to_range(doc.text, {static_cast<uint32_t>(end), static_cast<uint32_t>(end)}, encoding_);
          insert = "  # msprobe: ignore[" + code + "]";
        }
        actions.push_back({{"title", "msProbe (" + code + "): ignore for this line"},
                           {"kind", "quickfix"},
                           {"diagnostics", json::array({d})},
                           {"edit", {{"changes", {{uri, json::array({{{"range", edit_range}, {"newText", insert}}})}}}}}});
      }
    }
  }
  c.reply(actions);
}

void LanguageServer::on_code_action_resolve(Call& c) {
  // Every action is sent complete for now; resolving returns it unchanged.
  c.reply(c.params);
}

}  // namespace msprobe::server
