// MSP203 unbalanced-start-stop-step: a start() that some way out of the
// iteration leaves without stop()/step(), a stop() never followed by step(),
// and a step() that runs before backward().
#include <algorithm>

#include "dump_points.h"
#include "exit_paths.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Follows each `debugger.start()` through its iteration (or its function, or the module) and reports:
- a way out that skips `stop()` or `step()`: the end of the iteration, a `continue`, a `break`, a
  `return` (a `stop()`/`step()` in a `finally`, or after the loop for a `break`, counts; so does a
  call of a helper of the same file that makes them);
- a `stop()` with no `step()` after it in its loop or function (and no `start()` there);
- a `step()` that runs before the loop's `backward()`.

An `if`/`elif`/`else` whose every branch calls them counts as calling them. A `start()` under a
condition, or at module level, only needs some `stop()` and `step()` after it: they usually sit
under the same condition, or in a later loop.

## Why it matters
`dump.json` is written on `stop()`/`step()`: without `stop()` it stays incomplete (only `.pt`
files), and without `step()` every iteration lands in `step0`, so a `"step": [5]` filter never
matches. `step()` before `backward()` drops that iteration's backward data
(msprobe-facts §2.3, §3.4, §8 item 5).

## Example
```python
for i, (x, y) in enumerate(loader):
    debugger.start(model)
    loss = criterion(model(x), y)
    loss.backward()
    if (i + 1) % accum:
        continue            # skips stop() and step()
    optimizer.step()
    debugger.stop()
    debugger.step()
```

## Fix
Insert the missing `stop()`/`step()` before every exit that skips them and at the end of the
iteration; move a `step()` that comes before `backward()` to the end of the iteration.
)md";

uint32_t line1(const RuleContext& ctx, uint32_t offset) { return ctx.source.line_of(offset) + 1; }

std::string exit_word(const Statement& st) {
  if (st.type == "continue_statement") return "continue";
  if (st.type == "break_statement") return "break";
  return "return";
}

void check_start(const RuleContext& ctx, const DumpCallSites& sites, const MsprobeUse& u, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  const Call& c = f.calls[static_cast<std::size_t>(u.call)];
  StartBalance b = balance_of_start(f, sites, c);
  if (!b.any()) return;
  std::string where = b.scope.loop >= 0 ? "iteration" : b.scope.function >= 0 ? "function" : "script";
  Finding out;
  out.severity = Severity::Warning;
  out.range = c.range;
  std::vector<std::string> parts;
  for (const ExitGap& g : b.exits) {
    const Statement& e = stmt(f, g.exit);
    parts.push_back("the " + exit_word(e) + " at line " + std::to_string(e.line + 1) + " skips " + describe(g.missing));
    out.related.push_back({e.range, "this " + exit_word(e) + " leaves without " + describe(g.missing)});
  }
  if (b.at_end.any()) {
    parts.push_back(b.weak ? "no " + describe(b.at_end) + " follows it in its " + where
                           : "the " + where + " ends without " + describe(b.at_end));
  }
  std::string list;
  for (std::size_t i = 0; i < parts.size(); ++i) list += (i ? "; " : "") + parts[i];
  out.message = u.receiver + ".start() is not closed on every path: " + list +
                " (dump.json stays incomplete and the data stays in one step)";
  if (b.scope.loop >= 0) out.related.push_back({f.loops[static_cast<std::size_t>(b.scope.loop)].header, "the loop"});
  if (!b.weak) {
    if (auto edits = insert_missing_calls(ctx.source, f, b, u.receiver)) {
      Fix fix;
      fix.title = "Insert the missing stop()/step() on every exit path";
      fix.edits = std::move(*edits);
      fix.preferred = true;
      for (const ExitGap& g : b.exits) {
        if (stmt(f, g.exit).type == "return_statement")
          fix.safety = FixSafety::Unsafe;  // the return value may still run code
      }
      out.fixes.push_back(std::move(fix));
    }
  }
  sink.report(std::move(out));
}

bool same_scope(const StartScope& a, const StartScope& b) { return a.block == b.block; }

struct StartInfo {
  const Call* call;
  StartScope scope;
};

void check_stop_without_step(const RuleContext& ctx, const DumpCallSites& sites, const std::vector<StartInfo>& starts,
                             const MsprobeUse& u, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  const Call& c = f.calls[static_cast<std::size_t>(u.call)];
  if (c.statement < 0) return;
  StartScope scope = start_scope(f, c);
  for (const StartInfo& s : starts) {
    // A start() of the same scope, or earlier in the same function, is checked (and reported) itself.
    if (same_scope(s.scope, scope) || (s.call->function == c.function && s.call->range.start < c.range.start)) return;
  }
  const Statement& st = stmt(f, c.statement);
  for (int x : sites.step) {
    const Statement& xs = stmt(f, x);
    if (xs.range.start >= st.range.end && inside(xs.range, scope.block)) return;
    if (scope.loop_stmt >= 0 && runs_after(f, scope.loop_stmt, x)) return;
  }
  Finding out;
  out.severity = Severity::Warning;
  out.range = c.range;
  std::string recv = u.receiver.empty() ? "debugger" : u.receiver;
  out.message = recv + "." + (u.kind == MsprobeKind::Stop ? "stop" : "forward_backward_dump_end") +
                "() is not followed by " + recv +
                ".step(): every iteration's data stays in step0, so a step filter in config.json never matches";
  if (owns_its_lines(ctx.source, st) && stmt(f, c.statement).range == c.range) {
    Fix fix;
    fix.title = "Call " + recv + ".step() after it";
    fix.edits.push_back(
        insert_after_line(ctx.source, ctx.source.line_of(st.range.end),
                          indent_of_line(ctx.source, st.line) + recv + ".step()" + line_break(ctx.source)));
    fix.preferred = true;
    out.fixes.push_back(std::move(fix));
  }
  sink.report(std::move(out));
}

// The loop role of each loop (index into FileFacts::loop_info, -1 for none).
std::vector<int> info_of_loops(const FileFacts& f) {
  std::vector<int> of(f.loops.size(), -1);
  for (std::size_t i = 0; i < f.loop_info.size(); ++i) {
    const int l = f.loop_info[i].loop;
    if (l >= 0 && static_cast<std::size_t>(l) < of.size()) of[static_cast<std::size_t>(l)] = static_cast<int>(i);
  }
  return of;
}

void check_step_before_backward(const RuleContext& ctx, const std::vector<int>& info_of_loop, const MsprobeUse& u,
                                FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  const Call& c = f.calls[static_cast<std::size_t>(u.call)];
  // The loops around the call, outermost first (the order of loop_info): its
  // innermost loop and the loops that one is nested in.
  std::vector<int> around;
  for (int l = c.loop; l >= 0 && around.size() < f.loops.size(); l = f.loops[static_cast<std::size_t>(l)].parent)
    around.push_back(l);
  for (auto it = around.rbegin(); it != around.rend(); ++it) {
    const int i = info_of_loop[static_cast<std::size_t>(*it)];
    if (i < 0) continue;
    const LoopInfo& info = f.loop_info[static_cast<std::size_t>(i)];
    if (info.role != LoopRole::Train || info.backward.empty()) continue;
    const Loop& loop = f.loops[static_cast<std::size_t>(info.loop)];
    if (c.range.start < loop.body.start || c.range.end > loop.body.end || c.function != loop.function) continue;
    ByteRange first_backward = info.backward.front();
    if (c.range.start > first_backward.start) continue;
    // Only a step() every iteration passes on its way to the backward (not one
    // in a branch that leaves the iteration).
    if (c.statement < 0 || !unconditional_in(f, c.statement, loop.body)) continue;
    Finding out;
    out.severity = Severity::Warning;
    out.range = c.range;
    out.message = u.receiver + ".step() runs before the backward at line " +
                  std::to_string(line1(ctx, first_backward.start)) +
                  ": the step is closed before the gradients are computed, so this iteration's backward data is "
                  "lost; call step() at the end of the iteration";
    out.related.push_back({first_backward, "the backward"});
    std::vector<int> body = statements_in_block(f, loop.body);
    if (c.statement >= 0 && stmt(f, c.statement).range == c.range && !body.empty() && !stmt(f, body.back()).is_exit &&
        body.back() != c.statement) {
      const Statement& first = stmt(f, body.front());
      const Statement& last = stmt(f, body.back());
      if (first.line != loop.line) {
        InsertionPoint to{ctx.source.line_of(last.range.end), true, indent_of_line(ctx.source, first.line)};
        if (auto edits = move_statements(ctx.source, f, {c.statement}, to)) {
          Fix fix;
          fix.title = "Move " + u.receiver + ".step() to the end of the iteration";
          fix.edits = std::move(*edits);
          fix.safety = FixSafety::Unsafe;
          fix.preferred = true;
          out.fixes.push_back(std::move(fix));
        }
      }
    }
    sink.report(std::move(out));
    return;
  }
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  DumpCallSites sites = dump_call_sites(f, ctx.project);
  std::vector<StartInfo> starts;
  std::vector<int> info_of_loop;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Step && u.call >= 0 && info_of_loop.empty()) info_of_loop = info_of_loops(f);
    if (u.kind == MsprobeKind::Start && u.call >= 0) {
      const Call& c = f.calls[static_cast<std::size_t>(u.call)];
      starts.push_back({&c, start_scope(f, c)});
    }
  }
  for (const MsprobeUse& u : f.msprobe) {
    if (u.call < 0) continue;
    const Call& c = f.calls[static_cast<std::size_t>(u.call)];
    if (is_runner_execute_model(f, c.function)) continue;  // MSP502
    if (u.kind == MsprobeKind::Start) check_start(ctx, sites, u, sink);
    else if (u.kind == MsprobeKind::Stop || u.kind == MsprobeKind::ForwardBackwardDumpEnd)
      check_stop_without_step(ctx, sites, starts, u, sink);
    else if (u.kind == MsprobeKind::Step) check_step_before_backward(ctx, info_of_loop, u, sink);
  }
}

}  // namespace

extern const Rule msp203_unbalanced_start_stop_step{
    {"MSP203", "unbalanced-start-stop-step", "start() without stop()/step() on every path, or step() misplaced",
     Severity::Warning, FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
