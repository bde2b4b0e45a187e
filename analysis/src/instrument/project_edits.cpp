// Dump edits across the files of a project (see project_instrument.h).
#include <algorithm>
#include <map>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/project_instrument.h"
#include "project/summary.h"

namespace msprobe::analysis {
namespace {

// One file read and analysed with its loops derived across the project (or
// the caller's analysis of it: ProjectPlanOptions::known).
struct Analysed {
  const SourceText* source = nullptr;
  const Analysis* analysis = nullptr;
  SourceText own_source;
  Analysis own_analysis;
};

class Files {
 public:
  Files(const ProjectSnapshot& p, const FileReader& read, const ProjectPlanOptions& options)
      : p_(p), read_(read), options_(options) {}

  Analysed* get(const std::string& rel) {
    auto it = files_.find(rel);
    if (it != files_.end()) return it->second.get();
    auto a = std::make_unique<Analysed>();
    std::optional<KnownFile> known = options_.known ? options_.known(rel) : std::nullopt;
    if (known && known->source && known->analysis && known->analysis->tree) {
      a->source = known->source;
      a->analysis = known->analysis;
      return files_.emplace(rel, std::move(a)).first->second.get();
    }
    std::optional<std::string> text = read_(rel);
    if (!text) return files_.emplace(rel, nullptr).first->second.get();
    a->own_source = SourceText(std::move(*text));
    a->own_analysis = analyze(parser_, a->own_source, AnalysisOptions{});
    if (a->own_analysis.tree) {
      std::shared_ptr<const ModuleSummary> s = summarize(a->own_source, a->own_analysis.facts);
      derive_loops_in_project(a->own_source, a->own_analysis.facts, p_, rel, *s);
    }
    a->source = &a->own_source;
    a->analysis = &a->own_analysis;
    return files_.emplace(rel, std::move(a)).first->second.get();
  }

 private:
  const ProjectSnapshot& p_;
  const FileReader& read_;
  const ProjectPlanOptions& options_;
  PythonParser parser_;
  std::map<std::string, std::unique_ptr<Analysed>> files_;
};

void add(ProjectEditResult& out, const std::string& rel, const Analysed& a, InstrumentResult r) {
  for (std::string& n : r.notes) out.notes.push_back(rel + ": " + n);
  r.notes.clear();
  if (r.groups.empty()) return;
  out.files.push_back({rel, a.source->text(), std::move(r)});
}

}  // namespace

bool ProjectEditResult::empty() const {
  return std::all_of(files.begin(), files.end(), [](const FileEdits& f) { return f.result.empty(); });
}

ProjectEditResult enable_in_project(const ProjectSnapshot& project, const std::string& rel, const FileReader& read,
                                    const ProjectPlanOptions& plan_options, const InstrumentOptions& options) {
  ProjectEditResult out;
  std::string why;
  std::optional<ProjectPlan> plan = plan_project(project, rel, read, plan_options, &why);
  Files files(project, read, plan_options);
  if (!plan) {
    // A vLLM model runner has no loop: its file is instrumented on its own.
    Analysed* a = files.get(rel);
    if (a && vllm_runner_target(*a->source, *a->analysis)) {
      InstrumentResult r = enable(*a->source, *a->analysis, options);
      if (!r.ok()) return out.error = r.error, out;
      out.summary = r.summary;
      add(out, rel, *a, std::move(r));
      return out;
    }
    return out.error = why, out;
  }
  Analysed* loop = files.get(plan->loop_file);
  Analysed* entry = files.get(plan->entry.construct_file);
  if (!loop || !entry) return out.error = "cannot read " + (loop ? plan->entry.construct_file : plan->loop_file), out;

  std::vector<std::string> spanned{plan->loop_file};
  if (entry != loop) spanned.push_back(plan->entry.construct_file);
  auto fail = [&](const std::string& file, const std::string& error) {
    ProjectEditResult failed;
    failed.error = file + ": " + error;
    return failed;
  };

  // A dump that was commented out comes back as it was.
  bool disabled = false;
  for (const std::string& f : spanned)
    disabled = disabled || has_disabled_dump(*files.get(f)->source, *files.get(f)->analysis);
  if (disabled) {
    for (const std::string& f : spanned) {
      Analysed* a = files.get(f);
      InstrumentResult r = reenable_dump(*a->source, *a->analysis);
      if (!r.ok()) return fail(f, r.error);
      add(out, f, *a, std::move(r));
    }
    out.summary = "uncomment the msProbe dump";
    return out;
  }

  const std::vector<Loop>& loops = loop->analysis->facts.loops;
  if (plan->loop.loop < 0 || static_cast<std::size_t>(plan->loop.loop) >= loops.size())
    return fail(plan->loop_file, "the file changed while the dump points were planned; try again");
  InstrumentOptions lo = options;
  lo.loop_line = loops[static_cast<std::size_t>(plan->loop.loop)].line;
  if (plan->single_file()) {
    lo.construct = InstrumentOptions::Construct::AfterImports;
    lo.construct_before_line = plan->construct_before_line;
  } else if (plan->entry.construct_file == plan->loop_file) {
    lo.construct = InstrumentOptions::Construct::InFunction;
    lo.construct_function = plan->entry.worker_function;
  } else {
    lo.construct = InstrumentOptions::Construct::Elsewhere;
  }
  InstrumentResult lr = enable_dump(*loop->source, *loop->analysis, lo);
  if (!lr.ok()) return fail(plan->loop_file, lr.error);
  out.summary = plan->single_file() ? lr.summary : lr.summary + " of " + plan->loop_file;
  add(out, plan->loop_file, *loop, std::move(lr));
  if (entry != loop) {
    InstrumentOptions eo = options;
    eo.construct = plan->entry.worker.empty() ? InstrumentOptions::Construct::AfterImports
                                              : InstrumentOptions::Construct::InFunction;
    eo.construct_function = plan->entry.worker_function;
    eo.construct_before_line = plan->construct_before_line;
    InstrumentResult er = enable_construction(*entry->source, *entry->analysis, eo);
    if (!er.ok()) return fail(plan->entry.construct_file, er.error);
    if (!er.groups.empty()) out.summary += "; " + er.summary + " of " + plan->entry.construct_file;
    add(out, plan->entry.construct_file, *entry, std::move(er));
  }
  for (const std::string& n : plan->notes) out.notes.push_back(n);
  return out;
}

ProjectEditResult dump_off_in_project(const ProjectSnapshot& project, const std::string& rel, const FileReader& read,
                                      const ProjectPlanOptions& plan_options, DumpOffMode mode) {
  ProjectEditResult out;
  std::vector<std::string> targets{rel};
  std::string why;
  if (std::optional<ProjectPlan> plan = plan_project(project, rel, read, plan_options, &why)) {
    for (const std::string& f : {plan->loop_file, plan->entry.construct_file}) {
      if (std::find(targets.begin(), targets.end(), f) == targets.end()) targets.push_back(f);
    }
  }
  Files files(project, read, plan_options);
  for (const std::string& f : targets) {
    Analysed* a = files.get(f);
    if (!a) return out = ProjectEditResult{}, out.error = "cannot read " + f, out;
    InstrumentResult r = mode == DumpOffMode::Disable ? disable_dump(*a->source, *a->analysis)
                                                      : remove_dump(*a->source, *a->analysis);
    if (!r.ok()) return out = ProjectEditResult{}, out.error = f + ": " + r.error, out;
    if (!r.groups.empty()) out.summary += (out.summary.empty() ? "" : "; ") + r.summary + " in " + f;
    add(out, f, *a, std::move(r));
  }
  if (out.summary.empty())
    out.summary = "no msProbe dump to " + std::string(mode == DumpOffMode::Disable ? "disable" : "remove");
  return out;
}

}  // namespace msprobe::analysis
