// Parse -> facts -> rules -> suppressions.
#include "msprobe/analysis/analyzer.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include "bindings.h"
#include "derive.h"
#include "facts_builder.h"
#include "lap_clock.h"
#include "msprobe/analysis/project.h"
#include "msprobe/analysis/second_core.h"
#include "msprobe/analysis/suppression.h"
#include "project/summary.h"
#include "repair.h"
#include "split_analysis.h"
#include "syntax_findings.h"

namespace msprobe::analysis {

const std::vector<DynamoSite>& RuleContext::dynamo_sites() const {
  if (known_dynamo_sites) return *known_dynamo_sites;
  if (!dynamo_sites_) dynamo_sites_ = find_dynamo_sites(source, facts);
  return *dynamo_sites_;
}

std::vector<Finding> check_facts(const SourceText& source, const FileFacts& facts, const AnalysisOptions& options,
                                 const ProjectView* project, const std::vector<DynamoSite>* dynamo_sites) {
  std::vector<Finding> findings;
  RuleContext ctx{source, facts, options, project, dynamo_sites};
  for (const Rule* rule : all_rules()) {
    if (!rule->check || options.disabled_rules.count(std::string(rule->meta.code))) continue;
    std::vector<Finding> local;
    FindingSink sink(local);
    rule->check(ctx, sink);
    auto over = options.severity_overrides.find(std::string(rule->meta.code));
    for (Finding& f : local) {
      if (f.code.empty()) f.code = std::string(rule->meta.code);
      if (over != options.severity_overrides.end()) f.severity = over->second;
      findings.push_back(std::move(f));
    }
  }
  apply_suppressions(source, facts, options, findings);
  for (Finding& f : syntax_findings(source.view(), facts.syntax_errors, kMaxSyntaxFindings))
    findings.push_back(std::move(f));
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.range.start != b.range.start) return a.range.start < b.range.start;
    return a.code < b.code;
  });
  return findings;
}

namespace {

using Clock = LapClock;

// Below this size an edit's facts are copied on this thread: handing the copy
// to the second core and waking it costs about what the copy saves.
constexpr std::size_t kDonorMinBytes = 64 * 1024;

// An edit of a large text: while this thread reparses, the second core copies
// the previous facts (PreviousFacts::donor), and the build then moves the
// entries of the statements it reuses out of that copy instead of copying
// them here. The copy is waited for before the build, or when this goes away.
class DonorCopy {
 public:
  DonorCopy(SecondCore* second, const PreviousFacts* previous, std::size_t text_bytes) {
    if (!second || !previous || !previous->facts || !previous->facts->chunks || previous->donor ||
        text_bytes < kDonorMinBytes)
      return;
    const FileFacts* from = previous->facts;
    if (second->try_start([this, from](PythonParser&) {
          Clock::time_point t = Clock::now();
          copy_.emplace(*from);
          copy_ms_ = lap(t);
        }))
      second_ = second;
  }
  ~DonorCopy() {
    wait();
    // Freed on the thread that allocated what is left of it.
    if (second_ && copy_) second_->dispose(std::make_shared<FileFacts>(std::move(*copy_)));
  }
  DonorCopy(const DonorCopy&) = delete;
  DonorCopy& operator=(const DonorCopy&) = delete;

  // `previous` with the copy as its donor once the copy is done; `previous`
  // itself without one. Notes the copy's times in `times`.
  const PreviousFacts* lend(const PreviousFacts* previous, StageTimes& times) {
    Clock::time_point t = Clock::now();
    wait();
    if (!copy_) return previous;
    times.donor = true;
    times.donor_waited = lap(t);
    times.donor_copy = copy_ms_;
    with_donor_ = *previous;
    with_donor_.donor = &*copy_;
    return &with_donor_;
  }

 private:
  void wait() {
    if (!waiting_ || !second_) return;
    waiting_ = false;
    if (!second_->wait()) copy_.reset();
  }

  SecondCore* second_ = nullptr;
  bool waiting_ = true;
  std::optional<FileFacts> copy_;
  double copy_ms_ = 0;  // written by the helper, read after wait()
  PreviousFacts with_donor_;
};

// Parse, then facts (from a repaired copy when the code is half-typed, since
// facts survive an unclosed bracket above the loop); false when the parse ran
// out of time.
bool parse_and_build(Analysis& a, PythonParser& parser, const SourceText& source, const TreePtr& old_tree,
                     bool loop_roles, const PreviousFacts* previous, SecondCore* second, bool whole_tree) {
  Clock::time_point t = Clock::now();
  if (second && !old_tree && !previous && source.size() >= kSplitMinBytes) {
    if (std::optional<uint32_t> at = split_point(source.view())) {
      if (std::optional<PartsBuild> parts = build_in_parts(parser, *second, source.view(), *at, loop_roles,
                                                           whole_tree)) {
        a.facts = std::move(parts->facts);
        a.first_part = std::move(parts->first_part);
        a.whole_tree = std::move(parts->whole_tree);
        a.in_parts = true;
        a.times.parse = parts->parse_ms;
        a.times.facts = lap(t) - parts->parse_ms;
        a.times.second_parse = parts->second_parse_ms;
        a.times.second_facts = parts->second_facts_ms;
        a.times.waited = parts->waited_ms;
        FactsBuildStats stats = last_facts_build_stats();
        a.times.statements_walked = stats.walked;
        a.times.statements_reused = stats.reused;
        return true;
      }
    }
    // Not cut, or a part had an error: parse the whole text (the time spent stays in `parse`).
  }
  DonorCopy donor(old_tree ? second : nullptr, previous, source.size());
  a.tree = parser.parse(source.view(), old_tree);
  a.times.parse = lap(t);
  if (!a.tree) {
    a.timed_out = true;
    return false;
  }
  a.facts = build_tolerant_facts(parser, a.tree, source.view(), loop_roles, donor.lend(previous, a.times));
  a.times.facts = lap(t);
  FactsBuildStats stats = last_facts_build_stats();
  a.times.statements_walked = stats.walked;
  a.times.statements_reused = stats.reused;
  return true;
}

// The loop roles and the rules; `names` (built over a.facts) saves building
// the bindings again for the project view.
void finish(Analysis& a, const SourceText& source, const AnalysisOptions& options, const ProjectInput* project,
            const Bindings* names) {
  if (a.timed_out) return;
  Clock::time_point t = Clock::now();
  if (project && project->snapshot) {
    ProjectView view = names ? project_view(source, a.facts, *project->snapshot, project->rel, *a.summary, *names)
                             : project_view(source, a.facts, *project->snapshot, project->rel, *a.summary);
    a.times.project = lap(t);
    a.findings = check_facts(source, a.facts, options, &view, a.summary ? &a.dynamo_sites : nullptr);
  } else {
    // begin_analysis's summary holds the call effects of these very facts.
    derive_loops(source.view(), a.facts, a.summary ? &a.summary->effects : nullptr);
    a.times.facts += lap(t);
    a.findings = check_facts(source, a.facts, options, nullptr, a.summary ? &a.dynamo_sites : nullptr);
  }
  a.times.rules = lap(t);
}

}  // namespace

Analysis analyze(PythonParser& parser, const SourceText& source, const AnalysisOptions& options,
                 const TreePtr& old_tree, const ProjectInput* project, const PreviousFacts* previous,
                 SecondCore* second, bool whole_tree) {
  Analysis a;
  // In a project the loop roles are derived once, across files, by project_view.
  const bool in_project = project && project->snapshot;
  if (!parse_and_build(a, parser, source, old_tree, !in_project, previous, second, whole_tree)) return a;
  if (!in_project) {
    Clock::time_point t = Clock::now();
    a.findings = check_facts(source, a.facts, options);
    a.times.rules = lap(t);
    return a;
  }
  Clock::time_point t = Clock::now();
  Bindings names(a.facts);
  // The previous summary's effects, when its facts are the ones this build reused.
  PreviousEffects before;
  if (previous && previous->summary && previous->facts) before = {previous->facts, &previous->summary->effects};
  a.dynamo_sites = find_dynamo_sites(source, a.facts);
  a.summary = summarize(source, a.facts, names, before.effects ? &before : nullptr, &a.dynamo_sites);
  a.times.summary = lap(t);
  EffectsBuildStats effects = last_effects_build_stats();
  a.times.calls_derived = effects.derived;
  a.times.calls_reused = effects.reused;
  finish(a, source, options, project, &names);
  return a;
}

Analysis begin_analysis(PythonParser& parser, const SourceText& source) {
  Analysis a;
  if (parse_and_build(a, parser, source, nullptr, /*loop_roles=*/false, nullptr, nullptr, false)) {
    Clock::time_point t = Clock::now();
    a.dynamo_sites = find_dynamo_sites(source, a.facts);
    a.summary = summarize(source, a.facts, Bindings(a.facts), nullptr, &a.dynamo_sites);
    a.times.summary = lap(t);
  }
  return a;
}

// derive_loops and project_view set FileFacts::loop_info whole.
void finish_analysis(Analysis& a, const SourceText& source, const AnalysisOptions& options,
                     const ProjectInput* project) {
  finish(a, source, options, project, nullptr);
}

}  // namespace msprobe::analysis
