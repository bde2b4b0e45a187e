// Code lens: "msProbe: enable dump here" on the header of the loop the
// insertion plan chose, when something is still to insert there. The
// msprobe.enableDump command it runs is implemented with the code actions.
// Only clients that support code lenses ask (codeLensProvider is advertised
// only to them).
#include <algorithm>

#include "language_server.h"
#include "msprobe/analysis/plan.h"

namespace msprobe::server {

void LanguageServer::on_code_lens(Call& c) {
  Document& doc = require_document(c.params);
  if (doc.kind != DocumentKind::Python) return c.reply(json::array());
  std::string uri = doc.uri;
  auto reply = c.reply;
  auto fail = c.fail;
  with_current_analysis(doc, c.id, [this, reply, fail, uri](const SnapshotPtr& snap) {
    if (!snap) return fail(ErrorCode::ContentModified, "The document changed; ask again");
    json lenses = json::array();
    if (!snap->source || snap->result.timed_out) return reply(lenses);
    const analysis::SourceText& src = *snap->source;
    const analysis::FileFacts& facts = snap->result.facts;
    std::optional<analysis::DumpPlan> plan = analysis::plan_dump(src, facts);
    if (!plan || !plan->needed()) return reply(lenses);
    const analysis::Loop& loop = facts.loops[static_cast<std::size_t>(plan->loop)];
    // The header's first line (a header can wrap: `for x in zip(a,\n b):`).
    uint32_t end = std::min<uint32_t>(loop.header.end, static_cast<uint32_t>(src.line_end(loop.line)));
    json command{{"title", "msProbe: enable dump here"},
                 {"command", "msprobe.enableDump"},
                 {"arguments", json::array({{{"uri", uri}, {"loopLine", loop.line}}})}};
    lenses.push_back({{"range", to_range(src, {loop.header.start, end}, encoding_)}, {"command", command}});
    reply(lenses);
  });
}

}  // namespace msprobe::server
