// MSP201 debugger-in-loop: PrecisionDebugger(...) built inside a loop, or in a
// function a loop calls on every iteration.
#include <algorithm>

#include "call_graph.h"
#include "dump_points.h"
#include "effects.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports a `PrecisionDebugger(...)` construction inside a `for`/`while` loop, or inside a function
of the same file that a loop calls (directly or through other functions). A construction guarded
so that it runs once (`if debugger is None:`, `if step == 0:`) is not reported. In a project, a call
made on every iteration of a loop into another module's function that builds the debugger is
reported at that call.

## Why it matters
`PrecisionDebugger` is a singleton: the first construction wins, and every later one returns at
once and silently ignores its arguments (msprobe-facts §2.1). Built in a loop it is also built too
late: the APIs bound before the first iteration are not hooked (§3.2). msProbe's docs say never to
put the construction inside loop code.

## Example
```python
for x, y in loader:
    debugger = PrecisionDebugger(config_path="./config.json")
    debugger.start(model)
```

## Fix
Build it once, at module level right after the imports (the quick fix does so when its arguments
can be evaluated there), or else right before the loop.
)md";

// The construction only runs on one iteration: an enclosing `if` (inside the
// loop) tests the debugger's name, None, a first-iteration counter...
// `at` is the construction's statement, or the loop's call of the helper that builds it.
bool guarded_once(const RuleContext& ctx, const ConstructSite& site, int at, const Loop& loop) {
  const FileFacts& f = ctx.facts;
  if (at < 0) return false;
  for (int o = stmt(f, at).parent_block_owner; o >= 0; o = stmt(f, o).parent_block_owner) {
    const Statement& owner = stmt(f, o);
    if (owner.range.start < loop.body.start) break;
    if (owner.type != "if_statement") continue;
    std::string header(ctx.source.line_text(owner.line));
    std::string name = site.target.substr(site.target.rfind('.') == std::string::npos ? 0 : site.target.rfind('.') + 1);
    for (std::string_view word : {std::string_view("None"), std::string_view("== 0"), std::string_view("first"),
                                  std::string_view("hasattr"), std::string_view("initialized")}) {
      if (header.find(word) != std::string::npos) return true;
    }
    if (!name.empty() && header.find(name) != std::string::npos) return true;
  }
  return false;
}

// No other assignment to `target` in the function, so once hoisted the name
// reads the module-level debugger.
bool single_binding(const FileFacts& f, const ConstructSite& site, int function) {
  for (const Assignment& a : f.assignments) {
    if (a.target == site.target && a.function == function && a.value_call != site.call) return false;
  }
  return true;
}

std::optional<Fix> hoist_to_module(const RuleContext& ctx, const ConstructSite& site) {
  const FileFacts& f = ctx.facts;
  const Call& c = f.calls[static_cast<std::size_t>(site.call)];
  if (!site.movable || (!site.target.empty() && !is_plain_name(site.target))) return std::nullopt;
  if (!single_binding(f, site, c.function)) return std::nullopt;
  auto edits = move_to_module_setup(ctx.source, f, {site.stmt}, {site.call});
  if (!edits) return std::nullopt;
  Fix fix;
  fix.title = "Move PrecisionDebugger(...) to module level, after the imports";
  fix.edits = std::move(*edits);
  bool constant = std::all_of(c.args.begin(), c.args.end(),
                              [](const Argument& a) { return is_constant_expression(a.text); });
  fix.safety = constant && c.function < 0 ? FixSafety::Safe : FixSafety::Unsafe;
  return fix;
}

// Right before the outermost loop of the function that holds the construction.
std::optional<Fix> hoist_before_loop(const RuleContext& ctx, const ConstructSite& site) {
  const FileFacts& f = ctx.facts;
  const Call& c = f.calls[static_cast<std::size_t>(site.call)];
  if (!site.movable || c.loop < 0) return std::nullopt;
  int outer = c.loop;
  while (f.loops[static_cast<std::size_t>(outer)].parent >= 0) outer = f.loops[static_cast<std::size_t>(outer)].parent;
  const Loop& loop = f.loops[static_cast<std::size_t>(outer)];
  int loop_stmt = -1;
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    if (f.statements[i].range == loop.range) loop_stmt = static_cast<int>(i);
  }
  if (loop_stmt < 0 || !owns_its_lines(ctx.source, stmt(f, loop_stmt))) return std::nullopt;
  // The arguments must not read anything the loop binds.
  std::vector<std::string> bound = names_bound(ctx.source, f, loop_stmt);
  for (const Argument& a : c.args) {
    for (const std::string& n : names_read(a.text)) {
      if (std::find(bound.begin(), bound.end(), n) != bound.end()) return std::nullopt;
    }
  }
  InsertionPoint to{stmt(f, loop_stmt).line, false, indent_of_line(ctx.source, stmt(f, loop_stmt).line)};
  auto edits = move_statements(ctx.source, f, {site.stmt}, to);
  if (!edits) return std::nullopt;
  Fix fix;
  fix.title = "Move PrecisionDebugger(...) before the loop at line " + std::to_string(loop.line + 1);
  fix.edits = std::move(*edits);
  fix.safety = FixSafety::Unsafe;
  return fix;
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  for (const ConstructSite& site : construct_sites(ctx.source, f)) {
    const Call& c = f.calls[static_cast<std::size_t>(site.call)];
    Finding out;
    out.severity = Severity::Error;
    out.range = c.range;
    if (c.loop >= 0) {
      const Loop& loop = f.loops[static_cast<std::size_t>(c.loop)];
      if (guarded_once(ctx, site, site.stmt, loop)) continue;
      out.message =
          "PrecisionDebugger(...) is built inside a loop: it is a singleton, so every construction after "
          "the first is a silent no-op that ignores its arguments; build it once, right after the imports";
      out.related.push_back({loop.header, "the loop that repeats the construction"});
    } else if (c.function >= 0) {
      auto caller = loop_calling(f, c.function);
      if (!caller) continue;
      const Function& fn = f.functions[static_cast<std::size_t>(c.function)];
      const Loop& loop = f.loops[static_cast<std::size_t>(caller->loop)];
      if (guarded_once(ctx, site, f.calls[static_cast<std::size_t>(caller->call)].statement, loop)) continue;
      out.message = "PrecisionDebugger(...) is built in " + fn.name + "(), which the loop at line " +
                    std::to_string(loop.line + 1) +
                    " runs on every iteration: it is a singleton, so every construction after the first is a silent "
                    "no-op that ignores its arguments; build it once, right after the imports";
      out.related.push_back({f.calls[static_cast<std::size_t>(caller->call)].range, "called here on every iteration"});
      out.related.push_back({loop.header, "the loop"});
    } else {
      continue;
    }
    if (auto fix = hoist_to_module(ctx, site)) out.fixes.push_back(std::move(*fix));
    if (auto fix = hoist_before_loop(ctx, site)) out.fixes.push_back(std::move(*fix));
    if (!out.fixes.empty()) out.fixes.front().preferred = true;
    sink.report(std::move(out));
  }
  // In a project: a call on every iteration into another module's code that
  // builds the debugger (a call under a condition in the body may be once).
  if (!ctx.project) return;
  for (const Call& c : f.calls) {
    if (c.loop < 0 || c.statement < 0 || !(ctx.project->effects_of(c.range) & kDumpConstruct)) continue;
    const Loop& loop = f.loops[static_cast<std::size_t>(c.loop)];
    if (f.statements[static_cast<std::size_t>(c.statement)].parent_block_owner != loop.statement) continue;
    Finding out;
    out.severity = Severity::Error;
    out.range = c.range;
    out.message = c.callee +
                  "() builds a PrecisionDebugger (in another module) on every iteration of the loop at line " +
                  std::to_string(loop.line + 1) +
                  ": it is a singleton, so every construction after the first is a silent no-op that ignores its "
                  "arguments; build it once, at the entry of the process, right after the imports";
    out.related.push_back({loop.header, "the loop"});
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp201_debugger_in_loop{
    {"MSP201", "debugger-in-loop", "PrecisionDebugger(...) built inside a loop (a singleton: later calls are no-ops)",
     Severity::Error, FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
