// The dump actions of a file that belongs to an indexed project: enable
// offered on the loop (in the loop's file) and on the calls of the entry that
// lead to it, one action per entry that reaches the loop; each edit is one
// WorkspaceEdit over every file it changes (the loop's file, the entry), with
// the open documents' versions; disable, enable-again and remove act on every
// file the dump spans.
#include <fstream>
#include <iterator>

#include "config_lookup.h"
#include "handlers/dump_actions.h"
#include "language_server.h"
#include "msprobe/analysis/project_instrument.h"
#include "uri.h"

namespace msprobe::server {
namespace {

std::string loop_where(const analysis::ProjectPlan& plan, const std::string& rel, uint32_t line) {
  std::string where = "loop at line " + std::to_string(line + 1);
  if (plan.loop_file != rel) where += " of " + plan.loop_file;
  return where + " (" + analysis::to_string(plan.loop.role) + ")";
}

std::string enable_title(const analysis::ProjectPlan& plan, const analysis::ProjectEntry& entry, const std::string& rel,
                         uint32_t loop_line) {
  std::string title = "msProbe: enable dump in " + loop_where(plan, rel, loop_line);
  if (entry.construct_file == plan.loop_file && entry.worker.empty()) return title;
  std::string where = entry.construct_file == rel ? std::string("here") : "in " + entry.construct_file;
  if (!entry.worker.empty())
    where = "in " + entry.worker + "()" + (entry.construct_file == rel ? "" : " of " + entry.construct_file);
  return title + ", debugger built " + where;
}

// The entry an action names: none when the loop's own file builds the
// debugger (the one-file dump), so its data stays as it always was.
std::string entry_argument(const analysis::ProjectPlan& plan, const analysis::ProjectEntry& e) {
  if (e.construct_file == plan.loop_file && e.worker.empty()) return "";
  return e.file;
}

}  // namespace

analysis::FileReader LanguageServer::project_reader(const std::string& root) const {
  return [this, root](const std::string& rel) -> std::optional<std::string> {
    std::string path = root + "/" + rel;
    auto it = documents_.find(path_to_uri(path));
    if (it != documents_.end()) return it->second.text->text();
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
}

analysis::ProjectPlanOptions LanguageServer::project_plan_options(const std::string& root) const {
  analysis::ProjectPlanOptions po;
  po.known = [this, root](const std::string& rel) -> std::optional<analysis::KnownFile> {
    auto it = documents_.find(path_to_uri(root + "/" + rel));
    if (it == documents_.end()) return std::nullopt;
    const Document& d = it->second;
    if (!d.latest || d.latest->slim || d.latest->version != d.version || !d.latest->source) return std::nullopt;
    return analysis::KnownFile{d.latest->source.get(), &d.latest->result};
  };
  return po;
}

bool LanguageServer::in_project(const std::string& path) const {
  return settings_.index.enabled && projects_.locate(path).has_value();
}

std::vector<DumpOffer> LanguageServer::project_dump_offers(const std::string& path, const analysis::SourceText& src,
                                                           const analysis::Analysis& a, uint32_t sel_start,
                                                           uint32_t sel_end, bool with_source,
                                                           bool with_refactor) const {
  std::vector<DumpOffer> out;
  std::optional<ProjectIndex::Located> where = projects_.locate(path);
  if (!where || !a.tree) return out;
  // Disable, remove and enable-again: as in one file (the lines of this file
  // decide where they are offered); their edits span the project.
  for (const DumpOffer& o : dump_offers(src, a, sel_start, sel_end, with_source, with_refactor)) {
    if (o.request.op != DumpOp::Enable || o.request.loop_line == std::nullopt) out.push_back(o);
  }
  bool again = std::any_of(out.begin(), out.end(), [](const DumpOffer& o) { return o.request.op == DumpOp::Enable; });
  if (again) return out;
  analysis::FileReader read = project_reader(where->root);
  const analysis::ProjectPlanOptions known = project_plan_options(where->root);
  std::string config = dump_config_path(path);
  auto offer = [&](const std::string& kind, std::optional<uint32_t> loop_line, const std::string& title,
                   const std::string& entry) {
    analysis::ProjectPlanOptions po = known;
    po.loop_line = loop_line;
    po.entry = entry;
    analysis::InstrumentOptions io;
    io.config_path = config;
    analysis::ProjectEditResult r = analysis::enable_in_project(*where->snapshot, where->rel, read, po, io);
    if (r.ok() && !r.empty()) out.push_back({title, kind, DumpRequest{DumpOp::Enable, loop_line, entry}});
  };
  uint32_t line0 = src.line_of(sel_start), line1 = src.line_of(sel_end);
  if (with_refactor) {
    // On a loop of this file: one action per entry that reaches it.
    for (const analysis::LoopInfo& info : a.facts.loop_info) {
      const analysis::Loop& l = a.facts.loops[static_cast<std::size_t>(info.loop)];
      if (!on_loop(src, l.range, sel_start, sel_end) || info.role == analysis::LoopRole::None) continue;
      analysis::ProjectPlanOptions po = known;
      po.loop_line = l.line;
      std::optional<analysis::ProjectPlan> plan = analysis::plan_project(*where->snapshot, where->rel, read, po,
                                                                         nullptr);
      if (!plan) continue;
      std::vector<analysis::ProjectEntry> entries = plan->entries.empty() ? std::vector{plan->entry} : plan->entries;
      for (const analysis::ProjectEntry& e : entries)
        offer(kKindEnableRefactor, l.line, enable_title(*plan, e, where->rel, l.line), entry_argument(*plan, e));
    }
    // On the calls of this entry that lead to a loop in another file.
    std::optional<analysis::ProjectPlan> plan = analysis::plan_project(*where->snapshot, where->rel, read, known,
                                                                       nullptr);
    if (plan && plan->loop_file != where->rel) {
      for (const analysis::ProjectEntry& e : plan->entries) {
        if (e.file != where->rel) continue;
        bool on_call = std::any_of(e.lines.begin(), e.lines.end(),
                                   [&](uint32_t l) { return l >= line0 && l <= line1; });
        if (on_call)
          offer(kKindEnableRefactor, std::nullopt, enable_title(*plan, e, where->rel, plan->loop_line),
                entry_argument(*plan, e));
      }
    }
  }
  if (with_source) {
    std::optional<analysis::ProjectPlan> plan = analysis::plan_project(*where->snapshot, where->rel, read, known,
                                                                       nullptr);
    if (plan) {
      std::optional<uint32_t> line;
      if (plan->loop_file == where->rel) line = plan->loop_line;
      offer(kKindEnableSource, line, enable_title(*plan, plan->entry, where->rel, plan->loop_line),
            entry_argument(*plan, plan->entry));
    }
  }
  return out;
}

json LanguageServer::project_lenses(const std::string& uri, const std::string& path,
                                    const analysis::SourceText& src) const {
  json lenses = json::array();
  std::optional<ProjectIndex::Located> where = projects_.locate(path);
  if (!where) return lenses;
  analysis::FileReader read = project_reader(where->root);
  analysis::ProjectPlanOptions po = project_plan_options(where->root);
  std::optional<analysis::ProjectPlan> plan = analysis::plan_project(*where->snapshot, where->rel, read, po, nullptr);
  if (!plan) return lenses;
  analysis::InstrumentOptions io;
  io.config_path = dump_config_path(path);
  std::string entry = entry_argument(*plan, plan->entry);
  po.entry = entry;
  if (analysis::enable_in_project(*where->snapshot, where->rel, read, po, io).empty()) return lenses;
  // On the loop's header in its file; on the entry's call that leads there.
  std::optional<uint32_t> line;
  std::string title;
  json arg{{"uri", uri}};
  if (!entry.empty()) arg["entry"] = entry;
  if (plan->loop_file == where->rel) {
    line = plan->loop_line;
    title = "msProbe: enable dump here (" + std::string(analysis::to_string(plan->loop.role)) + ")";
    arg["loopLine"] = plan->loop_line;
  } else if (plan->entry.file == where->rel && !plan->entry.lines.empty()) {
    line = plan->entry.lines.front();
    title = "msProbe: enable dump (" + std::string(analysis::to_string(plan->loop.role)) + " loop in " +
            plan->loop_file + ":" + std::to_string(plan->loop_line + 1) + ")";
  }
  if (!line || *line >= src.line_count()) return lenses;
  analysis::ByteRange head{static_cast<uint32_t>(src.line_start(*line)), static_cast<uint32_t>(src.line_end(*line))};
  lenses.push_back(
      {{"range", to_range(src, head, encoding_)},
       {"command", {{"title", title}, {"command", "msprobe.enableDump"}, {"arguments", json::array({arg})}}}});
  return lenses;
}

std::optional<json> LanguageServer::project_dump_edit(const std::string& path, const DumpRequest& req,
                                                      std::string& summary, std::vector<std::string>& notes,
                                                      std::string& error) const {
  std::optional<ProjectIndex::Located> where = projects_.locate(path);
  if (!where) {
    error = path + " is not in a workspace folder";
    return std::nullopt;
  }
  analysis::FileReader read = project_reader(where->root);
  analysis::ProjectPlanOptions po = project_plan_options(where->root);
  po.loop_line = req.loop_line;
  po.entry = req.entry;
  analysis::ProjectEditResult r;
  if (req.op == DumpOp::Enable) {
    analysis::InstrumentOptions io;
    io.config_path = dump_config_path(path);
    r = analysis::enable_in_project(*where->snapshot, where->rel, read, po, io);
  } else {
    r = analysis::dump_off_in_project(
        *where->snapshot, where->rel, read, po,
        req.op == DumpOp::Disable ? analysis::DumpOffMode::Disable : analysis::DumpOffMode::Remove);
  }
  if (!r.ok()) {
    error = r.error;
    return std::nullopt;
  }
  summary = r.summary;
  notes = r.notes;
  if (r.empty()) return json(nullptr);
  std::vector<FileEdit> files;
  for (const analysis::FileEdits& f : r.files) {
    std::string uri = path_to_uri(where->root + "/" + f.file);
    auto doc = documents_.find(uri);
    std::optional<int> version;
    if (doc != documents_.end()) version = doc->second.version;
    analysis::SourceText src(f.text);
    files.push_back({uri, version, f.file, to_lsp_groups(src, f.result.groups, encoding_)});
  }
  return make_files_workspace_edit(files, edit_options(path_to_uri(path), std::nullopt));
}

}  // namespace msprobe::server
