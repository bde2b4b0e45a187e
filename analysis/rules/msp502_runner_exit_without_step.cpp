// MSP502 runner-exit-without-step: an instrumented execute_model with a return
// path that skips stop()/step().
#include <algorithm>
#include <optional>

#include "dump_points.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
In `execute_model` of a vLLM-style `...ModelRunner` class that calls `debugger.start(...)`,
reports each `return` after the start that leaves without `stop()` and `step()` (a `finally`
that calls them covers every return), and a body that can end without them.

## Why it matters
Each request runs start -> forward -> stop -> step. A return that skips `stop()`/`step()` (for
example "nothing scheduled" or "not the last pipeline stage") leaves that request's `dump.json`
incomplete and merges steps (msprobe-facts §5.1, §5.2, §8 item 5).

## Example
```python
def execute_model(self, scheduler_output, intermediate_tensors=None):
    self.debugger.start(model=self.model)
    if not scheduler_output.total_num_scheduled_tokens:
        return EMPTY_MODEL_RUNNER_OUTPUT      # skips stop()/step()
    ...
    self.debugger.stop()
    self.debugger.step()
    return output
```

## Fix
Call `stop()` and `step()` before the return, or wrap the body after `start()` in
`try:`/`finally:` with `stop()` and `step()` in the `finally`.
)md";

// The try/finally alternative: the body after start() moves into try:, its
// own top-level stop()/step() statements into finally:.
std::optional<Fix> wrap_fix(const RuleContext& ctx, const DumpCallSites& sites, const Call& start,
                            const std::string& receiver, int fn) {
  const FileFacts& f = ctx.facts;
  const ByteRange body_block = f.functions[static_cast<std::size_t>(fn)].body;
  if (start.statement < 0 || !(stmt(f, start.statement).block == body_block)) return std::nullopt;
  std::vector<int> body = statements_in_block(f, body_block);
  auto it = std::find(body.begin(), body.end(), start.statement);
  if (it == body.end() || it + 1 == body.end()) return std::nullopt;
  std::vector<int> region(it + 1, body.end());
  std::vector<int> drop;
  for (const auto* list : {&sites.stop, &sites.step}) {
    for (int x : *list) {
      if (stmt(f, x).function != fn) continue;
      if (std::find(region.begin(), region.end(), x) == region.end()) return std::nullopt;  // nested: would run twice
      drop.push_back(x);
    }
  }
  auto edit = wrap_in_try_finally(ctx.source, f, region, drop, receiver, "");
  if (!edit) return std::nullopt;
  Fix fix;
  fix.title = "Wrap the body of execute_model after start() in try/finally with stop()/step()";
  fix.edits.push_back(*edit);
  fix.safety = FixSafety::Unsafe;
  return fix;
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  std::optional<DumpCallSites> computed;  // only files with a runner need them
  for (std::size_t fi = 0; fi < f.functions.size(); ++fi) {
    int fn = static_cast<int>(fi);
    if (!is_runner_execute_model(f, fn)) continue;
    const MsprobeUse* start = nullptr;
    for (const MsprobeUse& u : f.msprobe) {
      if (u.kind == MsprobeKind::Start && u.call >= 0 && f.calls[static_cast<std::size_t>(u.call)].function == fn &&
          f.calls[static_cast<std::size_t>(u.call)].loop < 0) {
        start = &u;
        break;
      }
    }
    if (!start) continue;
    const Call& sc = f.calls[static_cast<std::size_t>(start->call)];
    if (!computed) computed = dump_call_sites(f);
    const DumpCallSites& sites = *computed;
    StartBalance b = balance_of_start(f, sites, sc);
    if (b.weak) continue;
    std::optional<Fix> wrap = wrap_fix(ctx, sites, sc, start->receiver, fn);
    auto report = [&](ByteRange range, std::string message, StartBalance only) {
      Finding out;
      out.severity = Severity::Warning;
      out.range = range;
      out.message = std::move(message);
      out.related.push_back({sc.range, "the dump starts here"});
      if (auto edits = insert_missing_calls(ctx.source, f, only, start->receiver)) {
        Fix fix;
        fix.title = "Call " + describe(only.exits.empty() ? only.at_end : only.exits.front().missing) + " first";
        fix.edits = std::move(*edits);
        fix.preferred = true;
        out.fixes.push_back(std::move(fix));
      }
      if (wrap) out.fixes.push_back(*wrap);
      sink.report(std::move(out));
    };
    for (const ExitGap& g : b.exits) {
      StartBalance only = b;
      only.exits = {g};
      only.at_end = {};
      report(stmt(f, g.exit).range,
             "This return leaves execute_model after " + start->receiver + ".start() without " + describe(g.missing) +
                 ": this request's dump.json stays incomplete; call them before returning, or wrap the body in "
                 "try/finally",
             only);
    }
    if (b.at_end.any()) {
      StartBalance only = b;
      only.exits.clear();
      report(sc.range,
             "execute_model can finish after " + start->receiver + ".start() without " + describe(b.at_end) +
                 ": call them at the end of the body, or wrap it in try/finally",
             only);
    }
  }
}

}  // namespace

extern const Rule msp502_runner_exit_without_step{
    {"MSP502", "runner-exit-without-step", "An execute_model return path skips stop()/step()", Severity::Warning,
     FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
