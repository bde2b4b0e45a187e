// MSP106 jit-scripted: torch.jit.script / torch.jit.trace applied to the model
// that the loop runs (and dumps).
#include <set>

#include "msprobe/analysis/dynamo.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports `torch.jit.script(...)` / `torch.jit.trace(...)` whose result is the model a training or
inference loop runs (or the model passed to `debugger.start(...)`), and `@torch.jit.script` on a
function or method of a file that is dumped. A model traced only for export after training is not
reported.

## Why it matters
A TorchScript module runs its graph in the TorchScript interpreter: the Python-level torch APIs
that msProbe wraps are not called, so the dump of that model is empty or limited to its outer
module (msprobe-facts §3.1 and §6: only eager PyTorch is dumped).

## Example
```python
model = torch.jit.script(Net())
for x, y in loader:
    loss = criterion(model(x), y)
```

## Fix
Dump the eager module: keep the `torch.jit.script`/`trace` call for export only, after the
dumped run, or apply it to a copy that the loop does not use.
)md";

// Models the dump sees: the loops' forward expressions and start(model) arguments.
std::set<std::string> dumped_models(const FileFacts& f) {
  std::set<std::string> out;
  for (const LoopInfo& info : f.loop_info) {
    if (!info.model.empty()) out.insert(info.model);
  }
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind != MsprobeKind::Start || u.call < 0) continue;
    for (const Argument& a : f.calls[static_cast<std::size_t>(u.call)].args) {
      if (a.keyword.empty() || a.keyword == "model") {
        out.insert(a.text);
        break;
      }
    }
  }
  return out;
}

bool file_is_dumped(const FileFacts& f) {
  if (!f.loop_info.empty()) return true;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Construct || u.kind == MsprobeKind::Start) return true;
  }
  return false;
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  std::set<std::string> models = dumped_models(f);
  for (const DynamoSite& site : ctx.dynamo_sites()) {
    if (site.form != DynamoForm::Jit) continue;
    int call = -1;
    for (std::size_t i = 0; i < f.calls.size(); ++i) {
      if (f.calls[i].range == site.range) call = static_cast<int>(i);
    }
    if (call < 0) continue;
    std::string target;
    for (const Assignment& a : f.assignments) {
      if (a.value_call == call) target = a.target;
    }
    if (target.empty() || !models.count(target)) continue;
    const Call& c = f.calls[static_cast<std::size_t>(call)];
    Finding out;
    out.severity = Severity::Warning;
    out.range = c.range;
    out.message = site.description + " turns " + target +
                  " into TorchScript: the loop runs it outside msProbe's eager API hooks, so little or nothing of it "
                  "is dumped; dump the eager model and script/trace it only for export";
    for (const LoopInfo& info : f.loop_info) {
      if (info.model == target) {
        out.related.push_back({f.loops[static_cast<std::size_t>(info.loop)].header, "the loop that runs " + target});
        break;
      }
    }
    sink.report(std::move(out));
  }
  if (!file_is_dumped(f)) return;
  for (const Decorator& d : f.decorators) {
    if (d.qualified != "torch.jit.script" && d.qualified != "torch.jit.script_method") continue;
    std::string name = d.function >= 0 ? f.functions[static_cast<std::size_t>(d.function)].name : "this definition";
    Finding out;
    out.severity = Severity::Warning;
    out.range = d.range;
    out.message = "@" + d.callee + " compiles " + name +
                  " to TorchScript: the torch APIs it calls are not dumped by msProbe; remove the decorator while "
                  "dumping";
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp106_jit_scripted{
    {"MSP106", "jit-scripted", "A TorchScript (jit.script / jit.trace) model is not dumped", Severity::Warning,
     FixAvailability::None, kDocs},
    &check};

}  // namespace msprobe::analysis
