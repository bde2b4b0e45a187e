// didOpen/didChange/didClose/didSave and the scheduling of analysis jobs:
// debounced on change, coalesced per document, stale results dropped.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "file_io.h"
#include "language_server.h"
#include "msprobe/analysis/text_match.h"
#include "uri.h"

namespace msprobe::server {
namespace {

using analysis::ends_with;

DocumentKind kind_of(const std::string& language_id, const std::string& uri) {
  if (language_id == "python" || ends_with(uri, ".py") || ends_with(uri, ".pyw")) return DocumentKind::Python;
  if (language_id == "json" || language_id == "jsonc" || ends_with(uri, ".json")) return DocumentKind::Json;
  return DocumentKind::Other;
}

const json& text_document(const json& params) {
  if (!params.is_object() || !params.contains("textDocument") || !params["textDocument"].is_object() ||
      !params["textDocument"].contains("uri") || !params["textDocument"]["uri"].is_string())
    throw std::invalid_argument("params.textDocument.uri is required");
  return params["textDocument"];
}

}  // namespace

Document* LanguageServer::find_document(const json& params) {
  auto it = documents_.find(text_document(params)["uri"].get<std::string>());
  return it == documents_.end() ? nullptr : &it->second;
}

Document& LanguageServer::require_document(const json& params) {
  Document* doc = find_document(params);
  if (!doc)
    throw RequestError(ErrorCode::InvalidParams,
                       "document not open: " + text_document(params)["uri"].get<std::string>());
  return *doc;
}

void LanguageServer::on_did_open(const json& params) {
  const json& td = text_document(params);
  std::string uri = td["uri"].get<std::string>();
  if (!td.contains("text") || !td["text"].is_string()) throw std::invalid_argument("didOpen needs textDocument.text");
  Document& doc = documents_[uri];
  if (doc.debounce) doc.debounce->cancel();
  // Opened again without a close: requests waiting on the old text are void.
  auto waiters = std::move(doc.waiters);
  doc = Document{};
  for (auto& w : waiters) w.fn(nullptr);
  doc.uri = uri;
  doc.path = uri_to_path(uri);
  doc.language_id = td.value("languageId", "");
  doc.kind = kind_of(doc.language_id, uri);
  doc.version = td.contains("version") && td["version"].is_number_integer() ? td["version"].get<int>() : 0;
  doc.text = DocumentText(td["text"].get<std::string>());
  doc.reset_tree = true;
  doc.opened = ++use_clock_;  // opened, not used yet: see slim_idle_snapshots
  worker_.forget(uri);
  schedule_analysis(doc, /*immediately=*/true);
}

void LanguageServer::on_did_change(const json& params) {
  Document* doc = find_document(params);
  const json& td = text_document(params);
  if (!doc) {
    spdlog::warn("didChange for a document that is not open: {}", td["uri"].get<std::string>());
    return;
  }
  int version = td.contains("version") && td["version"].is_number_integer() ? td["version"].get<int>()
                                                                            : doc->version + 1;
  if (version <= doc->version)
    spdlog::warn("{}: version went from {} to {}; applying the change anyway", doc->uri, doc->version, version);
  if (!params.contains("contentChanges") || !params["contentChanges"].is_array())
    throw std::invalid_argument("didChange needs contentChanges");
  for (const json& change : params["contentChanges"]) {
    if (!change.is_object() || !change.contains("text") || !change["text"].is_string())
      throw std::invalid_argument("each content change needs a string 'text'");
    const std::string& text = change["text"].get_ref<const std::string&>();
    if (change.contains("range") && !change["range"].is_null()) {
      analysis::ByteRange r = from_range(*doc->text, change["range"], encoding_);
      doc->pending_edits.push_back(doc->text.for_edit().replace(r.start, r.end, text));
    } else {
      doc->text = DocumentText(text);
      doc->pending_edits.clear();
      doc->reset_tree = true;
    }
  }
  doc->version = version;
  doc->edited = true;
  touch(*doc);
  doc->job_pending = false;
  // Requests waiting for an older version's analysis get ContentModified now,
  // not when (or if) that analysis finishes.
  if (!doc->waiters.empty()) {
    std::vector<Document::Waiter> stale;
    std::vector<Document::Waiter> keep;
    for (auto& w : doc->waiters) (w.version == version ? keep : stale).push_back(std::move(w));
    doc->waiters = std::move(keep);
    for (auto& w : stale) w.fn(nullptr);
  }
  schedule_analysis(*doc, /*immediately=*/false);
}

void LanguageServer::on_did_close(const json& params) {
  Document* doc = find_document(params);
  if (!doc) return;
  std::string uri = doc->uri, path = doc->path;
  DocumentKind kind = doc->kind;
  if (doc->debounce) doc->debounce->cancel();
  auto waiters = std::move(doc->waiters);
  documents_.erase(uri);
  worker_.forget(uri);
  if (kind == DocumentKind::Python) projects_.closed(path);
  forget_config_document(uri, kind, path);
  for (auto& w : waiters) w.fn(nullptr);
  if (!caps_.pull_diagnostics)
    notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
}

void LanguageServer::on_did_save(const json& params) {
  // Nothing to do for the file itself; other documents that depend on a saved
  // config file are refreshed by the config layer.
  (void)params;
}

void LanguageServer::schedule_analysis(Document& doc, bool immediately, bool force) {
  if (doc.debounce) doc.debounce->cancel();
  if (immediately || settings_.debounce_ms == 0) {
    start_job(doc, force);
    return;
  }
  if (!doc.debounce) doc.debounce = std::make_unique<asio::steady_timer>(io_);
  doc.debounce->expires_after(std::chrono::milliseconds(settings_.debounce_ms));
  std::string uri = doc.uri;
  doc.debounce->async_wait([this, uri](std::error_code ec) {
    if (ec) return;
    auto it = documents_.find(uri);
    if (it != documents_.end()) start_job(it->second);
  });
}

void LanguageServer::start_job(Document& doc, bool force, bool quiet, bool project_refresh) {
  if (doc.job_pending && !force) return;
  if (doc.debounce) doc.debounce->cancel();
  doc.job_pending = true;
  doc.job_seq = ++job_seq_;
  AnalysisJob job;
  job.uri = doc.uri;
  job.version = doc.version;
  job.kind = doc.kind;
  job.source = doc.text.share();
  job.edits = std::move(doc.pending_edits);
  doc.pending_edits.clear();
  job.reset_tree = doc.reset_tree;
  doc.reset_tree = false;
  job.options = settings_.analysis;
  job.options.directory_exists = directory_check();
  prepare_config_job(doc, job);
  job.parse_timeout_micros = static_cast<uint64_t>(settings_.parse_timeout_ms) * 1000;
  job.test_delay_ms = settings_.test_analysis_delay_ms;
  job.quiet = quiet;
  if (doc.kind == DocumentKind::Python) job.project = project_input(doc);
  job.project_refresh = project_refresh;
  job.generation = doc.generation;
  job.edited = doc.edited;
  worker_.submit(std::move(job), [this](SnapshotPtr snap) { on_analysis_done(snap); });
}

void LanguageServer::on_analysis_done(const SnapshotPtr& snap) {
  if (state_ == State::Exited) return;
  auto it = documents_.find(snap->uri);
  if (it == documents_.end()) return;  // closed meanwhile
  Document& doc = it->second;
  if (snap->version == doc.version && snap->generation < doc.generation) return;  // a newer job is on its way
  if (snap->version != doc.version) {
    // Stale: the document changed while this ran. Requests that were waiting
    // for that older version learn their positions are void.
    std::vector<Document::Waiter> keep;
    for (auto& w : doc.waiters) {
      if (w.version < doc.version) w.fn(nullptr);
      else keep.push_back(std::move(w));
    }
    doc.waiters = std::move(keep);
    return;
  }
  // The analysis it replaces is freed last, after the publish.
  SnapshotPtr replaced = std::exchange(doc.latest, snap);
  ++doc.analyses;
  after_config_analysis(snap);
  // What other files see of this one changed: their diagnostics may too.
  if (snap->result.summary) {
    std::optional<ProjectIndex::Located> before = projects_.locate(doc.path);
    if (before && projects_.update(doc.path, snap->result.summary))
      refresh_project_documents(before->root, before->snapshot);
  }
  if (!caps_.pull_diagnostics && state_ == State::Running && !snap->quiet) publish(*snap);
  auto waiters = std::move(doc.waiters);
  doc.waiters.clear();
  for (auto& w : waiters) w.fn(w.version == snap->version ? snap : nullptr);
  slim_idle_snapshots();
  schedule_heap_release();
}

// The documents in use keep their facts (and tree): the kFullSnapshots last
// edited or asked about, and the one opened last. Opening alone does not
// count as use: an editor restoring its tabs opens dozens of documents at
// once, and asks about the one it shows.
void LanguageServer::slim_idle_snapshots() {
  std::vector<Document*> full;
  const Document* newest = nullptr;
  for (auto& [uri, d] : documents_) {
    if (d.kind != DocumentKind::Python) continue;
    if (!newest || d.opened > newest->opened) newest = &d;
    if (d.latest && !d.latest->slim) full.push_back(&d);
  }
  std::sort(full.begin(), full.end(), [](const Document* a, const Document* b) { return a->last_used > b->last_used; });
  std::size_t kept = 0;
  for (Document* d : full) {
    bool in_use = d->last_used > 0 && kept < kFullSnapshots;
    if (in_use) ++kept;
    if (in_use || d == newest || !d->waiters.empty()) continue;  // waiters: about to be used
    auto slim = std::make_shared<AnalysisSnapshot>();
    slim->uri = d->latest->uri;
    slim->version = d->latest->version;
    slim->kind = d->latest->kind;
    slim->source = d->latest->source;
    slim->result.findings = d->latest->result.findings;
    slim->result.timed_out = d->latest->result.timed_out;
    slim->result.summary = d->latest->result.summary;  // the project index holds it too: free to keep
    slim->slim = true;
    d->latest = std::move(slim);  // requests still holding the full one keep it alive
  }
}

// A request cancelled while it waits is answered -32800 by dispatch(); its
// waiter still runs later, and its reply is then ignored.
void LanguageServer::with_current_analysis(Document& doc, const Call& c,
                                           std::function<void(const AnalysisSnapshot&)> answer, bool need_facts) {
  // Every snapshot carries its text (start_job), so one without is void as well.
  auto fn = [fail = c.fail, answer = std::move(answer)](const SnapshotPtr& snap) {
    if (!snap || !snap->source) return fail(ErrorCode::ContentModified, "The document changed; ask again");
    answer(*snap);
  };
  touch(doc);
  bool current = doc.latest && doc.latest->version == doc.version;
  // A snapshot parsed in two halves has the facts but no tree (analysis_worker.h).
  const bool partial = current && (doc.latest->slim || doc.latest->result.in_parts);
  if (current && !(partial && need_facts)) {
    fn(doc.latest);
    return;
  }
  doc.waiters.push_back({doc.version, std::move(fn)});
  if (current) start_job(doc, /*force=*/true, /*quiet=*/true);  // the facts again; the findings are published already
  else start_job(doc);                                          // no need to wait for the debounce: someone is asking
}

}  // namespace msprobe::server
