// Diagnostics: pushed with the document version, or pulled with
// textDocument/diagnostic when the client supports it (never both).
#include <spdlog/spdlog.h>

#include <chrono>
#include <functional>
#include <string_view>

#include "docs_location.h"
#include "language_server.h"
#include "uri.h"

namespace msprobe::server {

ConvertOptions LanguageServer::convert_options(const AnalysisSnapshot& snap) const {
  ConvertOptions o;
  o.encoding = encoding_;
  o.docs_base_url = settings_.docs_base_url.empty() ? rules_doc_uri() : settings_.docs_base_url;
  o.related_information = caps_.related_information;
  o.uri = snap.uri;
  o.version = snap.version;
  return o;
}

std::vector<const analysis::Finding*> LanguageServer::shown_findings(const AnalysisSnapshot& snap,
                                                                     analysis::Finding& scratch) const {
  std::vector<const analysis::Finding*> out;
  if (!snap.source) return out;
  if (snap.kind == DocumentKind::Python && snap.result.timed_out) {
    scratch = {};
    scratch.severity = analysis::Severity::Info;
    scratch.message = "msprobe-lsp: the file is too large or complex to analyse in time; no msProbe checks were run";
    out.push_back(&scratch);
    return out;
  }
  out.reserve(snap.result.findings.size());
  for (const auto& f : snap.result.findings) {
    if (f.code.empty() && !settings_.show_syntax_errors) continue;
    out.push_back(&f);
  }
  return out;
}

json LanguageServer::diagnostics_json(const AnalysisSnapshot& snap) const {
  json out = json::array();
  analysis::Finding scratch;
  ConvertOptions o = convert_options(snap);
  for (const analysis::Finding* f : shown_findings(snap, scratch)) out.push_back(to_diagnostic(*snap.source, *f, o));
  return out;
}

void LanguageServer::publish(const AnalysisSnapshot& snap) {
  auto start = std::chrono::steady_clock::now();
  // Serialised once, directly: the text both goes out and is what a refresh compares with.
  analysis::Finding scratch;
  std::vector<const analysis::Finding*> shown = shown_findings(snap, scratch);
  const std::size_t count = shown.size();
  static const analysis::SourceText kNoText;  // without a text nothing is shown
  std::string text = publish_diagnostics_message(snap.source ? *snap.source : kNoText, shown, convert_options(snap));
  auto it = documents_.find(snap.uri);
  if (it != documents_.end()) {
    Document& doc = it->second;
    const std::size_t hash = std::hash<std::string_view>{}(text);
    if (snap.project_refresh && text.size() == doc.last_published_size && hash == doc.last_published_hash) return;
    doc.last_published_size = text.size();
    doc.last_published_hash = hash;
  }
  transport_.send_text(std::move(text));
  spdlog::debug("published {} diagnostics for {} v{} in {:.2f} ms", count, snap.uri, snap.version,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
}

void LanguageServer::on_document_diagnostic(Call& c) {
  Document& doc = require_document(c.params);
  std::string previous = c.params.value("previousResultId", "");
  auto reply = c.reply;
  with_current_analysis(
      doc, c,
      [this, reply, previous](const AnalysisSnapshot& snap) {
        // The findings' content is part of the id: a script's findings change with
        // the config it reads (or the settings) while its own version stays put.
        std::size_t h = 0;
        for (const auto& f : snap.result.findings)
          h = h * 31 + std::hash<std::string>{}(f.code + f.message) + f.range.start * 7u + f.range.end;
        std::string id = std::to_string(snap.version) + ":" + std::to_string(snap.result.findings.size()) + ":" +
                         std::to_string(h % 1000000007u);
        if (!previous.empty() && previous == id) return reply({{"kind", "unchanged"}, {"resultId", id}});
        reply({{"kind", "full"}, {"resultId", id}, {"items", diagnostics_json(snap)}});
      },
      /*need_facts=*/false);
}

}  // namespace msprobe::server
