// textDocument/completion: keys and values inside an msProbe config.json
// (a file a script names, one matching msprobe.configGlobs, or a config.json
// that is, or is becoming, an msProbe config). Other documents get nothing.
#include <filesystem>

#include "language_server.h"
#include "msprobe/analysis/config/config_assist.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/config_schema.h"
#include "msprobe/analysis/config/json_doc.h"

namespace msprobe::server {
namespace cfg = analysis::config;

namespace {

// A config.json still being written: every key it has so far is an msProbe key.
bool becoming_config(std::string_view text) {
  cfg::JsonDoc d = cfg::parse_json(text);
  if (!d.has_root) return true;
  if (!d.root.is(cfg::JsonKind::Object)) return false;
  for (const auto& m : d.root.members) {
    if (!m.value.complete) continue;  // the key being typed
    if (!cfg::find_field("", m.key) && !cfg::find_task(m.key)) return false;
  }
  return true;
}

}  // namespace

void LanguageServer::on_completion(Call& c) {
  Document& doc = require_document(c.params);
  if (!c.params.contains("position")) throw std::invalid_argument("completion needs a position");
  std::size_t at = from_position(*doc.text, c.params["position"], encoding_);
  ConfigCheck mode = config_check_mode(doc);
  if (mode == ConfigCheck::No || doc.text->size() > (1u << 20) ||
      (mode == ConfigCheck::IfMsprobeKeys && !cfg::looks_like_msprobe_config(doc.text->view()) &&
       !becoming_config(doc.text->view())))
    return c.reply({{"isIncomplete", false}, {"items", json::array()}});
  json items = json::array();
  for (const cfg::ConfigCompletion& item : cfg::config_completions(doc.text->view(), at, settings_.analysis)) {
    int kind = item.kind == cfg::ConfigCompletion::Kind::Key     ? 10
               : item.kind == cfg::ConfigCompletion::Kind::Block ? 9
                                                                 : 12;
    json ci{{"label", item.label},
            {"kind", kind},
            {"detail", item.detail},
            {"filterText", item.filter},
            {"sortText", item.sort},
            {"textEdit", {{"range", to_range(*doc.text, item.replace, encoding_)}, {"newText", item.insert}}}};
    if (!item.documentation.empty())
      ci["documentation"] = {{"kind", caps_.markdown_hover ? "markdown" : "plaintext"}, {"value", item.documentation}};
    if (item.preselect) ci["preselect"] = true;
    items.push_back(std::move(ci));
  }
  c.reply({{"isIncomplete", false}, {"items", items}});
}

}  // namespace msprobe::server
