// Hover in config.json: the meaning, allowed values, default and versions of
// the key or value under the cursor, with the finding there (if any) on top.
#include "doc_links.h"
#include "language_server.h"
#include "msprobe/analysis/config/config_assist.h"
#include "msprobe/analysis/config/config_check.h"

namespace msprobe::server {

void LanguageServer::on_config_hover(Call& c) {
  Document& doc = require_document(c.params);
  if (!c.params.contains("position")) throw std::invalid_argument("hover needs a position");
  json position = c.params["position"];
  from_position(*doc.text, position, encoding_);
  ConfigCheck mode = config_check_mode(doc);
  if (mode == ConfigCheck::No || doc.text->size() > (1u << 20) ||
      (mode == ConfigCheck::IfMsprobeKeys && !analysis::config::looks_like_msprobe_config(doc.text->view())))
    return c.reply(nullptr);
  auto reply = c.reply;
  with_current_analysis(doc, c, [this, reply, position](const AnalysisSnapshot& snap) {
    std::size_t at = from_position(*snap.source, position, encoding_);
    std::string md;
    analysis::ByteRange range{};
    bool have_range = false;
    for (const auto& f : snap.result.findings) {
      if (f.code.empty() || at < f.range.start || at > f.range.end) continue;
      md += "**" + f.message + "** (" + f.code + ")\n\n";
      if (!have_range) range = f.range, have_range = true;
    }
    auto h = analysis::config::config_hover(snap.source->view(), at, settings_.analysis);
    if (h) {
      if (!md.empty()) md += "---\n\n";
      md += h->markdown;
      range = h->range;
      have_range = true;
    } else if (!md.empty()) {
      for (const auto& f : snap.result.findings) {
        if (f.code.empty() || at < f.range.start || at > f.range.end) continue;
        if (const analysis::Rule* rule = analysis::find_rule(f.code))
          md += link_reference_citations(rule_markdown(rule->meta), reference_doc_url(settings_.docs_base_url));
        break;
      }
    }
    if (md.empty()) return reply(nullptr);
    json result{{"contents", {{"kind", caps_.markdown_hover ? "markdown" : "plaintext"}, {"value", md}}}};
    if (have_range) result["range"] = to_range(*snap.source, range, encoding_);
    reply(result);
  });
}

}  // namespace msprobe::server
