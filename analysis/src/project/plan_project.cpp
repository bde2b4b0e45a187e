// Planning the dump in a project: the loop (in the file asked about, or in
// what that script runs), the launched scripts that reach it, and where the
// debugger is built for it: after the imports of the entry, or at the top of
// a worker function that a launcher starts in new processes.
#include <algorithm>
#include <map>
#include <set>

#include "facts_builder.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/project.h"
#include "msprobe/analysis/syntax.h"
#include "project/session.h"
#include "project/summary.h"
#include "repair.h"

namespace msprobe::analysis {
namespace {

// A file as the planner sees it: analysed by the caller already, or parsed here.
struct ParsedFile {
  const SourceText* source = nullptr;
  const FileFacts* facts = nullptr;
  const ModuleSummary* summary = nullptr;
  // What the planner parsed itself.
  SourceText own_source;
  FileFacts own_facts;
  std::shared_ptr<const ModuleSummary> own_summary;
};

bool wants(LoopRole role, Effects kinds) {
  if (role == LoopRole::Train) return (kinds & kBackward) && (kinds & kStep);
  return (kinds & kForward) && !(kinds & kBackward) && !(kinds & kStep);
}

class Planner {
 public:
  Planner(const ProjectSnapshot& project, const FileReader& read, const ProjectPlanOptions& options)
      : p_(project), read_(read), options_(options) {}

  // The file as it reads now, its loops derived across the project.
  ParsedFile* parse(const std::string& rel) {
    auto it = files_.find(rel);
    if (it != files_.end()) return it->second.get();
    auto f = std::make_unique<ParsedFile>();
    std::optional<KnownFile> known = options_.known ? options_.known(rel) : std::nullopt;
    if (known && known->source && known->analysis && known->analysis->summary) {
      f->source = known->source;
      f->facts = &known->analysis->facts;
      f->summary = known->analysis->summary.get();
      return files_.emplace(rel, std::move(f)).first->second.get();
    }
    std::optional<std::string> text = read_(rel);
    if (!text) return files_.emplace(rel, nullptr).first->second.get();
    f->own_source = SourceText(std::move(*text));
    TreePtr tree = parser_.parse(f->own_source.view());
    if (tree) {
      // As analyze() builds them (from a repaired copy of half-typed code), so
      // the plan's loop indices are those of the analysis enable() edits.
      f->own_facts = build_tolerant_facts(parser_, tree, f->own_source.view(), /*loop_roles=*/true);
      f->own_summary = summarize(f->own_source, f->own_facts);
      derive_loops_in_project(f->own_source, f->own_facts, p_, rel, *f->own_summary);
    } else {
      f->own_summary = summarize(f->own_source, f->own_facts);
    }
    f->source = &f->own_source;
    f->facts = &f->own_facts;
    f->summary = f->own_summary.get();
    return files_.emplace(rel, std::move(f)).first->second.get();
  }

 private:
  const ProjectSnapshot& p_;
  const FileReader& read_;
  const ProjectPlanOptions& options_;
  PythonParser parser_;
  std::map<std::string, std::unique_ptr<ParsedFile>> files_;
};

// "Trainer.run in mingpt/trainer.py (called at line 25)": the line is in the caller.
std::string describe(ProjectSession& session, const FunctionRef& f, const ReachStep& step) {
  std::string what = f.function < 0 ? f.file : session.function_name(f) + " in " + f.file;
  return what + (step.spawn ? " (started in worker processes at line " : " (called at line ") +
         std::to_string(step.line + 1) + ")";
}

// The entry `script` reaches `target`: how, and where the construction goes.
std::optional<ProjectEntry> entry_for(ProjectSession& session, const std::string& script, const FunctionRef& target) {
  const ProjectSession::Reach& r = session.reach({script, -1});
  if (!r.steps.count(target)) return std::nullopt;
  ProjectEntry e;
  e.file = script;
  e.construct_file = script;
  std::vector<std::string> path;
  std::optional<FunctionRef> spawned;
  FunctionRef at = target;
  for (int guard = 0; guard < 10000; ++guard) {
    const ReachStep& step = r.steps.at(at);
    if (at == step.from) break;
    path.push_back(describe(session, at, step));
    if (step.spawn && !spawned) spawned = at;  // the last process boundary before the loop
    if (step.from.file == script) e.lines.push_back(step.line);
    at = step.from;
  }
  path.push_back(script);
  std::reverse(path.begin(), path.end());
  std::reverse(e.lines.begin(), e.lines.end());
  e.path = std::move(path);
  if (spawned) {
    e.construct_file = spawned->file;
    e.worker = session.function_name(*spawned);
  }
  return e;
}

// msProbe wraps torch's functions when the debugger is built; a project
// module the entry imports first and that binds one by name
// (`from torch.nn.functional import softmax`) keeps the unwrapped function.
// Then the construction goes right before the entry's first project import.
void place_before_project_imports(ProjectSession& session, ProjectPlan& plan, const ParsedFile& entry) {
  const std::string& file = plan.entry.construct_file;
  if (!entry.summary || !plan.construct_after_line) return;
  bool script = session.is_script(file);
  std::optional<uint32_t> first;
  for (const ImportRef& imp : entry.summary->imports) {
    if (!imp.top_level || imp.conditional) continue;
    if (!session.project().modules().resolve(file, imp.module, script)) continue;
    first = first ? std::min(*first, imp.line) : imp.line;
  }
  if (!first || *first > *plan.construct_after_line) return;
  std::vector<std::string> queue = session.imported_files(file, UINT32_MAX);
  std::set<std::string> seen(queue.begin(), queue.end());
  for (std::size_t i = 0; i < queue.size() && i < 5000; ++i) {
    const ModuleSummary* s = session.summary(queue[i]);
    if (s && binds_torch_names(*s)) {
      plan.construct_before_line = *first;
      plan.construct_after_line = *first == 0 ? std::nullopt : std::optional<uint32_t>(*first - 1);
      plan.notes.push_back(queue[i] +
                           " binds torch functions by name when it is imported: the debugger is built "
                           "before the project imports of " +
                           file + ", so msProbe's wrappers are in place first");
      return;
    }
    for (const std::string& next : session.imported_files(queue[i], UINT32_MAX)) {
      if (seen.insert(next).second) queue.push_back(next);
    }
  }
}

}  // namespace

std::optional<ProjectPlan> plan_project(const ProjectSnapshot& project, const std::string& rel, const FileReader& read,
                                        const ProjectPlanOptions& options, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<ProjectPlan> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  Planner planner(project, read, options);
  ParsedFile* self = planner.parse(rel);
  if (!self) return fail(rel + ": cannot be read");
  ProjectSession session(project, rel, self->summary);
  const bool script = session.is_script(rel);

  // ----- the loop -----
  std::string loop_file;
  int loop_index = -1;
  auto own = [&](LoopRole want) {
    for (std::size_t i = 0; i < self->facts->loop_info.size(); ++i) {
      if (self->facts->loop_info[i].role == want) return static_cast<int>(i);
    }
    return -1;
  };
  if (options.loop_line) {
    for (std::size_t i = 0; i < self->facts->loop_info.size(); ++i) {
      if (self->facts->loops[static_cast<std::size_t>(self->facts->loop_info[i].loop)].line == *options.loop_line)
        loop_index = static_cast<int>(i);
    }
    if (loop_index < 0)
      return fail("no training or inference loop starts at line " + std::to_string(*options.loop_line + 1) + " of " +
                  rel);
    loop_file = rel;
  }
  for (LoopRole want : {LoopRole::Train, LoopRole::Inference}) {
    if (loop_index >= 0) break;
    if ((loop_index = own(want)) >= 0) {
      loop_file = rel;
      break;
    }
    if (!script) continue;
    // What the script runs, nearest first.
    for (const FunctionRef& f : session.reach({rel, -1}).order) {
      if (f.file == rel) continue;
      const ModuleSummary* s = session.summary(f.file);
      if (!s) continue;
      bool candidate = false;
      for (std::size_t li = 0; li < s->effects.loops.size() && !candidate; ++li) {
        candidate = s->effects.loops[li].function == f.function &&
                    wants(want, session.solver(f.file).loop_kinds(static_cast<int>(li)));
      }
      if (!candidate) continue;
      ParsedFile* pf = planner.parse(f.file);
      if (!pf) continue;
      for (std::size_t i = 0; i < pf->facts->loop_info.size() && loop_index < 0; ++i) {
        const LoopInfo& info = pf->facts->loop_info[i];
        if (info.role == want && pf->facts->loops[static_cast<std::size_t>(info.loop)].function == f.function) {
          loop_index = static_cast<int>(i);
          loop_file = f.file;
        }
      }
      if (loop_index >= 0) break;
    }
  }
  for (LoopRole want : {LoopRole::Eval, LoopRole::Warmup}) {
    if (loop_index < 0 && (loop_index = own(want)) >= 0) loop_file = rel;
  }
  if (loop_index < 0)
    return fail(script ? "no training or inference loop found in " + rel + " or in the code it runs"
                       : "no training or inference loop found in " + rel);

  ParsedFile* lf = planner.parse(loop_file);
  std::optional<DumpPlan> loop_plan = plan_for_loop(*lf->source, *lf->facts, loop_index);
  if (!loop_plan) return fail("the loop has no body to instrument");
  ProjectPlan plan;
  plan.loop_file = loop_file;
  plan.loop = std::move(*loop_plan);
  const Loop& loop = lf->facts->loops[static_cast<std::size_t>(plan.loop.loop)];
  plan.loop_line = loop.line;
  FunctionRef target{loop_file, loop.function};

  // ----- the entries that reach it -----
  if (script) {
    if (auto e = entry_for(session, rel, target)) plan.entries.push_back(std::move(*e));
  }
  std::vector<ProjectEntry> others;
  for (const auto& [file, summary] : project.files()) {
    if (file == rel || !session.is_script(file)) continue;
    if (auto e = entry_for(session, file, target)) others.push_back(std::move(*e));
  }
  std::stable_sort(others.begin(), others.end(),
                   [](const ProjectEntry& a, const ProjectEntry& b) { return a.path.size() < b.path.size(); });
  for (ProjectEntry& e : others) plan.entries.push_back(std::move(e));
  if (!options.entry.empty()) {
    auto it = std::find_if(plan.entries.begin(), plan.entries.end(),
                           [&](const ProjectEntry& e) { return e.file == options.entry; });
    if (it == plan.entries.end())
      return fail(options.entry + " does not reach the loop at " + loop_file + ":" + std::to_string(loop.line + 1));
    std::rotate(plan.entries.begin(), it, it + 1);
  }
  if (plan.entries.empty()) {
    ProjectEntry e;
    e.file = e.construct_file = loop_file;
    e.path = {loop_file};
    plan.entry = e;
    if (loop_file != rel || !script)
      plan.notes.push_back("no launched script of the project reaches the loop at " + loop_file + ":" +
                           std::to_string(loop.line + 1) + "; the debugger is built in " + loop_file +
                           " (move it to the entry of the process that runs the loop)");
  } else {
    plan.entry = plan.entries.front();
  }

  // torch.compile / dynamo anywhere the entry's process runs: msProbe does not
  // dump it (MSP101 says where, file by file).
  if (!plan.entries.empty()) {
    std::set<std::string> files;
    for (const FunctionRef& f : session.reach({plan.entry.file, -1}).order) files.insert(f.file);
    for (const std::string& f : files) {
      const ModuleSummary* s = session.summary(f);
      if (!s || s->dynamo_lines.empty()) continue;
      plan.notes.push_back("torch.compile / dynamo at " + f + ":" + std::to_string(s->dynamo_lines.front() + 1) +
                           " runs in this process: msProbe does not dump compiled code (MSP101)");
    }
  }

  // ----- where the construction goes -----
  ParsedFile* cf = planner.parse(plan.entry.construct_file);
  if (!cf) return fail(plan.entry.construct_file + ": cannot be read");
  if (plan.entry.worker.empty()) {
    plan.construct_after_line = import_block_end(*cf->facts);
    place_before_project_imports(session, plan, *cf);
  } else {
    int fn = -1;
    const std::string& w = plan.entry.worker;
    for (std::size_t i = 0; i < cf->facts->functions.size(); ++i) {
      const Function& d = cf->facts->functions[i];
      std::string name = d.class_name.empty() ? d.name : d.class_name + "." + d.name;
      if (name == w && d.parent == -1) fn = static_cast<int>(i);
    }
    std::optional<uint32_t> line = function_top_line(*cf->source, *cf->facts, fn);
    if (!line)
      return fail("the worker " + w + "() in " + plan.entry.construct_file + " has no body on lines of its own");
    plan.construct_after_line = line;
    plan.entry.worker_function = fn;
    if (!plan.entries.empty()) plan.entries.front().worker_function = fn;
  }
  return plan;
}

}  // namespace msprobe::analysis
