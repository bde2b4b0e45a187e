// MSP503 debugger-before-llm: offline vLLM, PrecisionDebugger(...) built
// before the LLM(...) engine.
#include "dump_points.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
In an offline vLLM script, reports a `PrecisionDebugger(...)` construction that runs before
`LLM(...)` (`from vllm import LLM`): earlier in the same function, or at module level when the
engine is created in a function.

## Why it matters
Built before the engine, the debugger's hooks see the engine's initialisation and vLLM fails with
`RuntimeError: Expected all tensors to be on the same device, ... cpu and npu:0`. For offline
vLLM the msProbe FAQ asks for the opposite of the usual rule: create the debugger after the `LLM`
object (msprobe-facts §3.2, §8 item 4).

## Example
```python
debugger = PrecisionDebugger(config_path="./config.json")
llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct", enforce_eager=True)
```

## Fix
Move the construction to right after the statement that creates the `LLM`.
)md";

std::optional<Fix> move_after_llm(const RuleContext& ctx, const ConstructSite& site, const Call& llm) {
  const FileFacts& f = ctx.facts;
  const Call& c = f.calls[static_cast<std::size_t>(site.call)];
  if (!site.movable || llm.statement < 0 || (!site.target.empty() && !is_plain_name(site.target))) return std::nullopt;
  const Statement& anchor = stmt(f, llm.statement);
  if (!owns_its_lines(ctx.source, anchor)) return std::nullopt;
  std::string prefix;
  if (c.function != llm.function && !site.target.empty()) {
    // Moving into the function: other functions keep reading the module-level name.
    bool used_elsewhere = false;
    for (const MsprobeUse& u : f.msprobe) {
      if (u.call >= 0 && u.receiver == site.target &&
          f.calls[static_cast<std::size_t>(u.call)].function != llm.function)
        used_elsewhere = true;
    }
    if (used_elsewhere)
      prefix = indent_of_line(ctx.source, anchor.line) + "global " + site.target + line_break(ctx.source);
  }
  InsertionPoint to{ctx.source.line_of(anchor.range.end), true, indent_of_line(ctx.source, anchor.line)};
  auto edits = move_statements(ctx.source, f, {site.stmt}, to, prefix);
  if (!edits) return std::nullopt;
  Fix fix;
  fix.title = "Move PrecisionDebugger(...) after the LLM(...) at line " + std::to_string(anchor.line + 1);
  fix.edits = std::move(*edits);
  fix.safety = c.function == llm.function ? FixSafety::Safe : FixSafety::Unsafe;
  fix.preferred = true;
  return fix;
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  const Call* llm = nullptr;
  for (const Call& c : f.calls) {
    if (std::string_view(c.qualified) == "vllm.LLM") {
      llm = &c;
      break;
    }
  }
  if (!llm) return;
  for (const ConstructSite& site : construct_sites(ctx.source, f)) {
    const Call& c = f.calls[static_cast<std::size_t>(site.call)];
    bool before = (c.function == llm->function && c.range.start < llm->range.start) ||
                  (c.function < 0 && llm->function >= 0);
    if (!before) continue;
    Finding out;
    out.severity = Severity::Error;
    out.range = c.range;
    out.message = "PrecisionDebugger(...) is built before the vLLM engine LLM(...) (line " +
                  std::to_string(llm->line + 1) +
                  "): vLLM then fails with a cpu/npu device-mismatch RuntimeError; build the debugger after the LLM "
                  "object";
    out.related.push_back({llm->range, "the LLM engine is created here"});
    if (auto fix = move_after_llm(ctx, site, *llm)) out.fixes.push_back(std::move(*fix));
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp503_debugger_before_llm{
    {"MSP503", "debugger-before-llm", "Offline vLLM: PrecisionDebugger built before LLM(...)", Severity::Error,
     FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
