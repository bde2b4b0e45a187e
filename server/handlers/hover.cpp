// Hover: the docs of the rule whose finding covers the position.
#include "doc_links.h"
#include "language_server.h"

namespace msprobe::server {

void LanguageServer::on_hover(Call& c) {
  Document& doc = require_document(c.params);
  if (doc.kind == DocumentKind::Json) return on_config_hover(c);
  if (!c.params.contains("position")) throw std::invalid_argument("hover needs a position");
  json position = c.params["position"];
  from_position(*doc.text, position, encoding_);  // validates the shape now, not in the callback
  auto reply = c.reply;
  with_current_analysis(doc, c, [this, reply, position](const AnalysisSnapshot& snap) {
    std::size_t at = from_position(*snap.source, position, encoding_);
    for (const auto& f : snap.result.findings) {
      if (f.code.empty() || at < f.range.start || at > f.range.end) continue;
      const analysis::Rule* rule = analysis::find_rule(f.code);
      if (!rule) continue;
      std::string md = "**" + f.message + "**\n\n" +
                       link_reference_citations(rule_markdown(rule->meta), reference_doc_url(settings_.docs_base_url));
      reply({{"contents", {{"kind", caps_.markdown_hover ? "markdown" : "plaintext"}, {"value", md}}},
             {"range", to_range(*snap.source, f.range, encoding_)}});
      return;
    }
    reply(nullptr);
  });
}

}  // namespace msprobe::server
