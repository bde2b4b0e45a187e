// MSP207 debugger-in-other-process: the debugger is built in the parent while
// the loop runs in a worker process (mp.spawn, Process, elastic launchers).
#include <algorithm>

#include "call_graph.h"
#include "dump_points.h"
#include "launches.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Finds worker entry functions started in new processes (`torch.multiprocessing.spawn(fn, ...)`,
`multiprocessing.Process(target=fn)` and `ctx.Process(target=fn)`, `start_processes(...)`,
`elastic_launch(config)(fn, ...)`, `notebook_launcher(fn, ...)`) and reports a
`PrecisionDebugger(...)` built in the parent (in another function, or under the main guard)
while the worker runs the training/inference loop or the `start()` calls.

In a project, a worker defined in another module counts too (the construction then belongs at
the top of that worker, in its file: the enable-dump action puts it there).

## Why it matters
The debugger hooks the process that builds it. The workers are separate processes: with the
`spawn` start method they import the script afresh and never run the parent's construction, so
they dump nothing (msprobe-facts §2.1, §3.3). Scripts started by `torchrun` run the whole script
in every rank and are fine.

## Example
```python
def worker(rank, world_size):
    for x, y in loader:
        debugger.start(model)
        ...

if __name__ == "__main__":
    debugger = PrecisionDebugger(config_path="./config.json")
    mp.spawn(worker, args=(4,), nprocs=4)
```

## Fix
Move the construction to the top of the worker entry function (declared `global` when other
functions of the worker use the same name).
)md";

int function_named(const FileFacts& f, const std::string& name) {
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    if (f.functions[i].name == name && f.functions[i].class_name.empty()) return static_cast<int>(i);
  }
  return -1;
}

// What the worker runs that the dump is for: a loop with a role, or start().
ByteRange worker_work(const FileFacts& f, const std::set<int>& reach, bool& found) {
  found = false;
  for (const LoopInfo& info : f.loop_info) {
    const Loop& l = f.loops[static_cast<std::size_t>(info.loop)];
    if (l.function >= 0 && reach.count(l.function)) {
      found = true;
      return l.header;
    }
  }
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind != MsprobeKind::Start || u.call < 0) continue;
    const Call& c = f.calls[static_cast<std::size_t>(u.call)];
    if (c.function >= 0 && reach.count(c.function)) {
      found = true;
      return c.range;
    }
  }
  return {};
}

std::optional<Fix> move_into_worker(const RuleContext& ctx, const ConstructSite& site, int worker,
                                    const std::set<int>& reach) {
  const FileFacts& f = ctx.facts;
  if (!site.movable || (!site.target.empty() && !is_plain_name(site.target))) return std::nullopt;
  if (!runs_at_module_setup(f, site.call)) return std::nullopt;  // reads the parent's locals
  int first = first_body_statement(ctx.source, f, worker);
  if (first < 0) return std::nullopt;
  const Statement& fs = stmt(f, first);
  if (fs.line == f.functions[static_cast<std::size_t>(worker)].line || !owns_its_lines(ctx.source, fs))
    return std::nullopt;
  std::string indent = indent_of_line(ctx.source, fs.line);
  std::string eol = line_break(ctx.source);
  std::string prefix = reindent(missing_module_imports(ctx.source, f, {site.call}), "", indent);
  // Other functions of the worker read the name as a global.
  bool shared = false;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.receiver != site.target || u.call < 0 || site.target.empty()) continue;
    int fn = f.calls[static_cast<std::size_t>(u.call)].function;
    if (fn != worker && reach.count(fn)) shared = true;
  }
  if (shared) prefix += indent + "global " + site.target + eol;
  auto edits = move_statements(ctx.source, f, {site.stmt}, InsertionPoint{fs.line, false, indent}, prefix);
  if (!edits) return std::nullopt;
  Fix fix;
  fix.title = "Move PrecisionDebugger(...) into the worker entry " +
              f.functions[static_cast<std::size_t>(worker)].name + "()";
  fix.edits = std::move(*edits);
  fix.safety = FixSafety::Unsafe;
  fix.preferred = true;
  return fix;
}

// A worker of another module (the project knows it does the dump's work): a
// construction in this parent process is reported, without a fix here (the
// construction belongs at the top of the worker, in its own file).
void report_other_module(const RuleContext& ctx, const Launch& l, const std::vector<ConstructSite>& sites,
                         std::set<int>& reported, FindingSink& sink) {
  if (!ctx.project) return;
  const FileFacts& f = ctx.facts;
  const Call& launch = f.calls[static_cast<std::size_t>(l.call)];
  auto it = ctx.project->launched_workers.find(launch.range.start);
  if (it == ctx.project->launched_workers.end()) return;
  for (const ConstructSite& site : sites) {
    const Call& c = f.calls[static_cast<std::size_t>(site.call)];
    bool in_parent = c.function >= 0 ||
                     (c.statement >= 0 && top_level_statement(f, c.statement) == f.main_guard && f.main_guard >= 0);
    if (!in_parent || !reported.insert(site.call).second) continue;
    Finding out;
    out.severity = Severity::Warning;
    out.range = c.range;
    out.message = "PrecisionDebugger(...) is built in the parent process, but " + it->second +
                  " runs in worker processes started by " + l.how +
                  ": the workers dump nothing; build the debugger at the top of that worker function";
    out.related.push_back({launch.range, "worker processes start here"});
    sink.report(std::move(out));
  }
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  std::vector<Launch> ls = find_launches(f);
  if (ls.empty()) return;
  std::vector<ConstructSite> sites = construct_sites(ctx.source, f);
  std::set<int> reported;
  for (const Launch& l : ls) {
    int worker = function_named(f, l.worker);
    if (worker < 0) {
      report_other_module(ctx, l, sites, reported, sink);
      continue;
    }
    std::set<int> reach = reachable_functions(f, worker);
    bool found = false;
    ByteRange work = worker_work(f, reach, found);
    if (!found) continue;
    const std::string& wname = f.functions[static_cast<std::size_t>(worker)].name;
    for (const ConstructSite& site : sites) {
      const Call& c = f.calls[static_cast<std::size_t>(site.call)];
      if (c.function >= 0 && reach.count(c.function)) continue;  // built in the worker: fine
      bool in_parent = c.function >= 0 ||
                       (c.statement >= 0 && top_level_statement(f, c.statement) == f.main_guard && f.main_guard >= 0);
      if (!in_parent || !reported.insert(site.call).second) continue;  // module level: re-run by every worker
      Finding out;
      out.severity = Severity::Warning;
      out.range = c.range;
      out.message = "PrecisionDebugger(...) is built in the parent process, but " + wname +
                    "() runs in worker processes "
                    "started by " +
                    l.how + ": the workers dump nothing; build the debugger at the top of " + wname + "()";
      out.related.push_back({f.calls[static_cast<std::size_t>(l.call)].range, "worker processes start here"});
      out.related.push_back({work, "the work that should be dumped runs in the worker"});
      if (auto fix = move_into_worker(ctx, site, worker, reach)) out.fixes.push_back(std::move(*fix));
      sink.report(std::move(out));
    }
  }
}

}  // namespace

extern const Rule msp207_debugger_in_other_process{
    {"MSP207", "debugger-in-other-process", "PrecisionDebugger built in the parent while workers run the loop",
     Severity::Warning, FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
