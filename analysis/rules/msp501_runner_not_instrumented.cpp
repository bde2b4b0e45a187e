// MSP501 runner-not-instrumented: a community-vLLM GPUModelRunner with
// execute_model and no PrecisionDebugger.
#include <algorithm>

#include "dump_points.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports `class GPUModelRunner` (community vLLM, `vllm/v1/worker/gpu_model_runner.py`) that has an
`execute_model` method but no `PrecisionDebugger` in the file.

## Why it matters
Community vLLM on GPU has no built-in dump: the runner is where the model runs, in the worker
process, so that is where msProbe must be wired in (msprobe-facts §5.2). vllm-ascend's
`NPUModelRunner` is not reported: it has the dump built in (`--additional-config
'{"dump_config_path": ...}'`, §5.1).

## Example
```python
class GPUModelRunner:
    def __init__(self, vllm_config, device): ...
    def execute_model(self, scheduler_output, intermediate_tensors=None): ...
```

## Fix
Instrument the runner as the msProbe docs do: at the top of `__init__`,
`from msprobe.pytorch import PrecisionDebugger, seed_all`, `seed_all(mode=True)` and
`self.debugger = PrecisionDebugger(config_path=...)`; at the entry of `execute_model`,
`self.debugger.start(model=self.model)`, with the body in `try:` and `self.debugger.stop()` then
`self.debugger.step()` in `finally:`. Start the server with `--enforce-eager` (and
`TORCHDYNAMO_DISABLE=1` if Dynamo errors appear).
)md";

int method(const FileFacts& f, const std::string& cls, const std::string& name) {
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    if (f.functions[i].class_name == cls && f.functions[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

ByteRange name_range(const SourceText& src, ByteRange def, const std::string& name) {
  std::string_view head = src.view().substr(def.start, def.end - def.start);
  std::size_t at = head.find(" " + name);
  if (at == std::string_view::npos) return def;
  uint32_t s = def.start + static_cast<uint32_t>(at) + 1;
  return {s, s + static_cast<uint32_t>(name.size())};
}

std::optional<Fix> instrument(const RuleContext& ctx, int init, int exec) {
  const FileFacts& f = ctx.facts;
  const std::string eol = line_break(ctx.source);
  // __init__: after its docstring and super().__init__(...).
  int first = first_body_statement(ctx.source, f, init);
  if (first < 0) return std::nullopt;
  InsertionPoint setup{stmt(f, first).line, false, indent_of_line(ctx.source, stmt(f, first).line)};
  std::string_view first_text = ctx.source.view().substr(stmt(f, first).range.start, 6);
  if (first_text == "super(") {
    std::vector<int> body = statements_in_block(f, stmt(f, first).block);
    auto it = std::find(body.begin(), body.end(), first);
    if (it + 1 != body.end()) setup.line = stmt(f, *(it + 1)).line;
    else setup = {ctx.source.line_of(stmt(f, first).range.end), true, setup.indent};
  }
  if (stmt(f, first).line == f.functions[static_cast<std::size_t>(init)].line) return std::nullopt;
  std::string setup_text = setup.indent + "from msprobe.pytorch import PrecisionDebugger, seed_all" + eol +
                           setup.indent + "seed_all(mode=True)" + eol + setup.indent +
                           "self.debugger = PrecisionDebugger(config_path=\"" + ctx.options.config_path + "\")" + eol;
  // execute_model: start() first, the rest in try/finally.
  int e_first = first_body_statement(ctx.source, f, exec);
  if (e_first < 0 || stmt(f, e_first).line == f.functions[static_cast<std::size_t>(exec)].line) return std::nullopt;
  std::vector<int> body = statements_in_block(f, stmt(f, e_first).block);
  std::vector<int> region(std::find(body.begin(), body.end(), e_first), body.end());
  std::string model;
  for (const Call& c : f.calls) {
    if (c.function == exec && c.callee == "self.model") model = "self.model";
  }
  std::string indent = indent_of_line(ctx.source, stmt(f, e_first).line);
  std::string head = indent + "self.debugger.start(" + (model.empty() ? "" : "model=" + model) + ")" + eol;
  auto wrap = wrap_in_try_finally(ctx.source, f, region, {}, "self.debugger", head);
  if (!wrap) return std::nullopt;
  Fix fix;
  fix.title = "Instrument GPUModelRunner: debugger in __init__, start/stop/step around execute_model";
  fix.edits.push_back(insert_lines(ctx.source, setup, setup_text));
  fix.edits.push_back(*wrap);
  fix.safety = FixSafety::Unsafe;
  fix.preferred = true;
  return fix;
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Construct || u.kind == MsprobeKind::Start) return;
  }
  for (const ClassDef& cls : f.classes) {
    if (cls.name != "GPUModelRunner") continue;
    int exec = method(f, cls.name, "execute_model");
    if (exec < 0) continue;
    Finding out;
    out.severity = Severity::Hint;
    out.range = name_range(ctx.source, cls.range, cls.name);
    out.message =
        "GPUModelRunner is not instrumented for the msProbe dump: build the debugger in __init__, call "
        "self.debugger.start(model=self.model) at the entry of execute_model and stop()/step() in a finally; "
        "run the server with --enforce-eager";
    const Function& fn = f.functions[static_cast<std::size_t>(exec)];
    out.related.push_back({name_range(ctx.source, fn.range, fn.name), "execute_model runs each batch"});
    int init = method(f, cls.name, "__init__");
    if (init >= 0) {
      if (auto fix = instrument(ctx, init, exec)) out.fixes.push_back(std::move(*fix));
    }
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp501_runner_not_instrumented{
    {"MSP501", "runner-not-instrumented", "vLLM GPUModelRunner without the msProbe dump", Severity::Hint,
     FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
