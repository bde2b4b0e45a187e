// Code actions: the quick fixes carried in each diagnostic's data, "ignore
// CODE for this line", fix all, and the dump-point actions (enable, disable,
// remove), whose edits are computed in codeAction/resolve when the client
// resolves edits lazily.
#include "config_lookup.h"
#include "handlers/dump_actions.h"
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

bool only_given(const json& only) { return only.is_array() && !only.empty(); }

}  // namespace

bool LanguageServer::spans_project(const DumpRequest& req, const std::string& path,
                                   const AnalysisSnapshot& snap) const {
  bool op = req.op == DumpOp::Enable || req.op == DumpOp::Disable || req.op == DumpOp::Remove;
  return op && snap.result.summary && in_project(path);
}

EditOptions LanguageServer::edit_options(const std::string& uri, std::optional<int> version) const {
  EditOptions o;
  o.encoding = encoding_;
  o.uri = uri;
  o.version = version;
  o.document_changes = caps_.document_changes;
  o.change_annotations = caps_.change_annotations;
  return o;
}

std::string LanguageServer::dump_config_path(const std::string& script_path) const {
  return config_path_for(script_path, settings_.analysis.config_path);
}

json LanguageServer::quick_fixes(const Document& doc, const json& diagnostics) const {
  json actions = json::array();
  const std::string& uri = doc.uri;
  for (const json& d : diagnostics) {
    if (!d.is_object() || d.value("source", "") != "msprobe") continue;
    std::string code = d.contains("code") && d["code"].is_string() ? d["code"].get<std::string>() : "";
    const json data = d.value("data", json::object());
    if (data.is_object() && data.contains("fixes") && data["fixes"].is_array()) {
      json version = data.value("version", json(doc.version));
      if (version != json(doc.version)) continue;  // fixes for an older text must not be applied
      for (const json& fix : data["fixes"]) {
        if (!fix.is_object()) continue;
        std::string title = fix.value("title", std::string("fix"));
        json edits = fix.value("edits", json::array());
        LspEditGroup group{"msProbe (" + code + "): " + title, replaces_code(edits), edits};
        json action{{"title", "msProbe (" + code + "): " + title},
                    {"kind", "quickfix"},
                    {"diagnostics", json::array({d})},
                    {"edit", make_workspace_edit({group}, edit_options(uri, doc.version))}};
        if (fix.value("preferred", false)) action["isPreferred"] = true;
        actions.push_back(action);
      }
    }
    if (code.empty() || !d.contains("range") || !d["range"].is_object()) continue;
    // `# msprobe: ignore[CODE]` at the end of the diagnostic's first line.
    uint32_t line = d["range"].value("start", json::object()).value("line", 0u);
    if (line >= doc.text->line_count()) continue;
    std::string_view text = doc.text->line_text(line);
    std::size_t hash = text.find("# msprobe: ignore[");
    std::size_t at = doc.text->line_end(line);
    std::string insert = "  # msprobe: ignore[" + code + "]";
    if (hash != std::string_view::npos) {
      std::size_t close = text.find(']', hash);
      if (close == std::string_view::npos) continue;
      at = doc.text->line_start(line) + close;
      insert = ", " + code;
    }
    analysis::ByteRange r{static_cast<uint32_t>(at), static_cast<uint32_t>(at)};
    LspEditGroup group{"msProbe: ignore " + code + " for this line", false,
                       to_text_edits(*doc.text, {analysis::Edit{r, insert}}, encoding_)};
    actions.push_back({{"title", "msProbe (" + code + "): ignore for this line"},
                       {"kind", "quickfix"},
                       {"diagnostics", json::array({d})},
                       {"edit", make_workspace_edit({group}, edit_options(uri, doc.version))}});
  }
  return actions;
}

void LanguageServer::on_code_action(Call& c) {
  Document& doc = require_document(c.params);
  json context = c.params.value("context", json::object());
  if (!context.is_object()) throw std::invalid_argument("codeAction needs a 'context' object");
  json only = context.value("only", json());
  json diagnostics = context.value("diagnostics", json::array());
  analysis::ByteRange sel{0, 0};
  if (c.params.contains("range")) sel = from_range(*doc.text, c.params["range"], encoding_);

  json actions = kind_allowed(only, "quickfix") ? quick_fixes(doc, diagnostics) : json::array();
  if (kind_allowed(only, "quickfix") && diagnostics.is_array()) {
    for (const json& d : diagnostics) {
      if (d.is_object() && d.value("source", "") == "msprobe") add_config_actions(doc, d, actions);
    }
  }
  bool want_refactor = kind_allowed(only, kKindEnableRefactor) || kind_allowed(only, kKindDisableRefactor) ||
                       kind_allowed(only, kKindRemoveRefactor);
  // Source actions are whole-file: offered when asked for (Source Action...,
  // codeActionsOnSave), so a plain request does not list each one twice.
  bool want_source = only_given(only) &&
                     (kind_allowed(only, kKindEnableSource) || kind_allowed(only, kKindDisableSource) ||
                      kind_allowed(only, kKindRemoveSource));
  bool want_fix_all = only_given(only) && kind_allowed(only, kKindFixAll);
  if (doc.kind != DocumentKind::Python || !(want_refactor || want_source || want_fix_all)) return c.reply(actions);

  auto reply = c.reply;
  std::string uri = doc.uri, path = doc.path;
  with_current_analysis(doc, c, [=](const AnalysisSnapshot& snap) mutable {
    if (snap.result.timed_out) return reply(actions);
    const analysis::SourceText& src = *snap.source;
    // In an indexed project the loop, the entry and the edits span its files.
    std::vector<DumpOffer> offers = snap.result.summary && in_project(path)
                                        ? project_dump_offers(path, src, snap.result, sel.start, sel.end, want_source,
                                                              want_refactor)
                                        : dump_offers(src, snap.result, sel.start, sel.end, want_source, want_refactor);
    for (const DumpOffer& offer : offers) {
      if (!kind_allowed(only, offer.kind)) continue;
      json action = dump_action(offer, uri, path, snap);
      if (!action.is_null()) actions.push_back(std::move(action));
    }
    if (want_fix_all) {
      DumpOffer offer{"msProbe: fix all safe problems", kKindFixAll, {DumpOp::FixAll, std::nullopt}};
      if (!compute_dump_op(src, snap.result, offer.request, "").empty()) {
        json action = dump_action(offer, uri, path, snap);
        if (!action.is_null()) actions.push_back(std::move(action));
      }
    }
    reply(actions);
  });
}

json LanguageServer::dump_action(const DumpOffer& offer, const std::string& uri, const std::string& path,
                                 const AnalysisSnapshot& snap) const {
  json action{{"title", offer.title}, {"kind", offer.kind}};
  if (offer.request.op == DumpOp::Runner) {
    // A command, so the --enforce-eager message is shown once, when it runs.
    action["command"] = {{"title", offer.title},
                         {"command", "msprobe.enableDump"},
                         {"arguments", json::array({{{"uri", uri}, {"runner", true}}})}};
    return action;
  }
  json data{{"msprobe", to_string(offer.request.op)}, {"uri", uri}, {"version", snap.version}};
  if (offer.request.loop_line) data["loopLine"] = *offer.request.loop_line;
  if (!offer.request.entry.empty()) data["entry"] = offer.request.entry;
  if (caps_.code_action_resolve_edit && caps_.code_action_data) {
    action["data"] = data;
    return action;
  }
  if (spans_project(offer.request, path, snap)) {
    std::string summary, error;
    std::vector<std::string> notes;
    std::optional<json> edit = project_dump_edit(path, offer.request, summary, notes, error);
    if (!edit || edit->is_null()) return nullptr;
    action["edit"] = std::move(*edit);
    return action;
  }
  analysis::InstrumentResult r = compute_dump_op(*snap.source, snap.result, offer.request, dump_config_path(path));
  if (!r.ok() || r.empty()) return nullptr;
  action["edit"] = to_workspace_edit(*snap.source, r.groups, edit_options(uri, snap.version));
  return action;
}

void LanguageServer::on_code_action_resolve(Call& c) {
  json action = c.params;
  const json data = action.is_object() ? action.value("data", json()) : json();
  if (!data.is_object() || !data.contains("msprobe") || !data["msprobe"].is_string()) return c.reply(action);
  auto op = dump_op_from(data["msprobe"].get<std::string>());
  if (!op || !data.contains("uri") || !data["uri"].is_string())
    throw RequestError(ErrorCode::InvalidParams, "codeAction/resolve: unknown msProbe action data");
  auto it = documents_.find(data["uri"].get<std::string>());
  if (it == documents_.end())
    throw RequestError(ErrorCode::InvalidParams, "document not open: " + data["uri"].get<std::string>());
  Document& doc = it->second;
  if (data.value("version", json()) != json(doc.version))
    throw RequestError(ErrorCode::ContentModified, "The document changed since the action was offered; ask again");
  DumpRequest req{*op, std::nullopt};
  if (data.contains("loopLine") && data["loopLine"].is_number_unsigned())
    req.loop_line = data["loopLine"].get<uint32_t>();
  if (data.contains("entry") && data["entry"].is_string()) req.entry = data["entry"].get<std::string>();
  auto reply = c.reply;
  auto fail = c.fail;
  std::string uri = doc.uri, path = doc.path;
  with_current_analysis(doc, c, [=](const AnalysisSnapshot& snap) mutable {
    if (spans_project(req, path, snap)) {
      std::string summary, error;
      std::vector<std::string> notes;
      std::optional<json> edit = project_dump_edit(path, req, summary, notes, error);
      if (!edit) return fail(ErrorCode::RequestFailed, "msProbe: " + error);
      if (edit->is_null()) return fail(ErrorCode::RequestFailed, "msProbe: " + summary);
      action["edit"] = std::move(*edit);
      return reply(action);
    }
    analysis::InstrumentResult r = compute_dump_op(*snap.source, snap.result, req, dump_config_path(path));
    if (!r.ok()) return fail(ErrorCode::RequestFailed, "msProbe: " + r.error);
    action["edit"] = to_workspace_edit(*snap.source, r.groups, edit_options(uri, snap.version));
    reply(action);
  });
}

void LanguageServer::on_code_lens(Call& c) {
  Document& doc = require_document(c.params);
  if (doc.kind != DocumentKind::Python) return c.reply(json::array());
  auto reply = c.reply;
  std::string uri = doc.uri, path = doc.path;
  with_current_analysis(doc, c, [=](const AnalysisSnapshot& snap) {
    json lenses = json::array();
    if (snap.result.timed_out) return reply(lenses);
    const analysis::SourceText& src = *snap.source;
    if (analysis::has_disabled_dump(src, snap.result)) return reply(lenses);
    if (snap.result.summary && in_project(path)) return reply(project_lenses(uri, path, src));
    // One lens, on the loop the plan chooses; the other loops keep their code action.
    std::optional<uint32_t> chosen = analysis::default_dump_loop(src, snap.result);
    auto is_chosen = [&](const analysis::Loop& l) { return chosen && l.line == *chosen; };
    for (const analysis::DumpTarget& t : analysis::dump_targets(src, snap.result, is_chosen)) {
      if (t.complete) continue;
      lenses.push_back({{"range", to_range(src, t.header, encoding_)},
                        {"command",
                         {{"title", "msProbe: enable dump here (" + std::string(analysis::to_string(t.role)) + ")"},
                          {"command", "msprobe.enableDump"},
                          {"arguments", json::array({{{"uri", uri}, {"loopLine", t.line}}})}}}});
    }
    if (auto runner = analysis::vllm_runner_target(src, snap.result); runner && !runner->complete) {
      const auto& cls = snap.result.facts.classes[static_cast<std::size_t>(runner->class_index)];
      analysis::ByteRange head{cls.range.start, static_cast<uint32_t>(src.line_end(cls.line))};
      lenses.push_back({{"range", to_range(src, head, encoding_)},
                        {"command",
                         {{"title", "msProbe: enable dump in GPUModelRunner (vLLM)"},
                          {"command", "msprobe.enableDump"},
                          {"arguments", json::array({{{"uri", uri}, {"runner", true}}})}}}});
    }
    reply(lenses);
  });
}

}  // namespace msprobe::server
