// MSP101 dynamo-in-dump: torch.compile / TorchDynamo in a script that is dumped.
#include <string>

#include "msprobe/analysis/dynamo.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Flags TorchDynamo use: `torch.compile(...)` calls, `@torch.compile` and `@torch.compile(...)`
decorators, `model.compile()` on a module, and any `torch._dynamo` use (aliased imports too).
Strings and comments that mention them are not flagged.

Every Python file is checked, not only the one with the training loop: a model module that
compiles its layers (`self.encoder = torch.compile(self.encoder)`) runs inside the dumped script
that imports it, and msprobe-lsp cannot see which script imports which module. Suppress it with
`# msprobe: ignore-file[MSP101]` in a file that is never part of a dumped run.

## Why it matters
msProbe's PyTorch dump hooks eager-mode APIs. With PyTorch >= 2.7 it detects TorchDynamo and
stops with `RuntimeError: [msprobe ERROR] Detected TorchDynamo execution. msprobe is NOT
compatible with TorchDynamo when PyTorch >= 2.7` (msprobe-facts §3.1). On older PyTorch the
compiled regions are simply not dumped. The severity follows `msprobe.torchVersion`: error from
2.7 on, warning when the version is unknown, hint below 2.7.

## Example
```python
model = torch.compile(model)
```

## Fix
Dump the eager model: unwrap `torch.compile(model, ...)` to `model`, drop the decorator, or set
`TORCHDYNAMO_DISABLE=1` before torch is imported.
)md";

Severity severity_for(const AnalysisOptions& o) {
  if (!o.torch_version) return Severity::Warning;
  return *o.torch_version >= Version{2, 7, 0, {}} ? Severity::Error : Severity::Hint;
}

std::string version_note(const AnalysisOptions& o) {
  if (!o.torch_version) return " (an error with PyTorch >= 2.7; set msprobe.torchVersion)";
  if (*o.torch_version >= Version{2, 7, 0, {}}) return " with PyTorch " + o.torch_version->text;
  return " (compiled regions are not dumped)";
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const std::vector<DynamoSite>& sites = ctx.dynamo_sites();
  if (sites.empty()) return;
  const Call* debugger = nullptr;
  for (const Call& c : ctx.facts.calls) {
    if (c.qualified.size() >= 17 && c.qualified.compare(c.qualified.size() - 17, 17, "PrecisionDebugger") == 0) {
      debugger = &c;
      break;
    }
  }
  for (const DynamoSite& site : sites) {
    if (site.form == DynamoForm::Jit) continue;  // MSP106's business
    Finding f;
    f.severity = severity_for(ctx.options);
    f.range = site.range;
    f.message = site.description + " is not supported by the msProbe dump" + version_note(ctx.options);
    if (debugger) f.related.push_back({debugger->range, "the PrecisionDebugger whose dump this breaks"});
    for (const Fix& fix : site.fixes) f.fixes.push_back(fix);
    sink.report(std::move(f));
  }
}

}  // namespace

extern const Rule msp101_dynamo_in_dump{
    {"MSP101", "dynamo-in-dump", "torch.compile / TorchDynamo is not supported by the msProbe dump", Severity::Warning,
     FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
