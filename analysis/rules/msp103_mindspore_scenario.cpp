// MSP103 mindspore-scenario: MindSpore and MSAdapter code, which is dumped
// with msprobe.mindspore, not msprobe.pytorch.
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports a MindSpore script (`import mindspore`), an MSAdapter script (`import msadapter`,
`import mindtorch`, or `mindspore` and `torch` imported together), and a plain PyTorch script
that imports its debugger from `msprobe.mindspore`. A MindSpore script that already uses
`msprobe.mindspore` is not reported.

## Why it matters
`msprobe.pytorch`'s `PrecisionDebugger` hooks PyTorch only. MindSpore and MSAdapter code is dumped
by `msprobe.mindspore` (same `config.json` format; `start(model=None, token_range=None,
rank_id=None)`), and for MSAdapter `torch` must be imported before msprobe so the scenario is
detected (msprobe-facts §6).

## Example
```python
import mindspore as ms
from msprobe.pytorch import PrecisionDebugger   # dumps nothing here
```

## Fix
No automatic fix: `from msprobe.mindspore import PrecisionDebugger, seed_all`.
)md";

std::string root_of(const std::string& m) { return m.substr(0, m.find('.')); }

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  const Import* ms_import = nullptr;   // import mindspore
  const Import* msa_import = nullptr;  // import msadapter / mindtorch
  const Import* torch_import = nullptr;
  const Import* probe_pt = nullptr;
  const Import* probe_ms = nullptr;
  for (const Import& imp : f.imports) {
    std::string full = imp.name.empty() ? imp.module : imp.module + "." + imp.name;
    std::string root = root_of(imp.module);
    if (root == "mindspore" && !ms_import) ms_import = &imp;
    if ((root == "msadapter" || root == "mindtorch") && !msa_import) msa_import = &imp;
    if (root == "torch" && !torch_import) torch_import = &imp;
    if (starts_with(full, "msprobe.pytorch") && !probe_pt) probe_pt = &imp;
    if (starts_with(full, "msprobe.mindspore") && !probe_ms) probe_ms = &imp;
  }
  Finding out;
  out.severity = Severity::Info;
  if (msa_import || (ms_import && torch_import)) {
    if (probe_ms && !probe_pt) return;  // already the right debugger
    const Import* at = msa_import ? msa_import : ms_import;
    out.range = at->range;
    out.message =
        "MSAdapter script (PyTorch code on MindSpore): dump it with msprobe.mindspore's PrecisionDebugger, "
        "not msprobe.pytorch, and import torch before msprobe so the MSAdapter scenario is detected";
  } else if (ms_import) {
    if (probe_ms && !probe_pt) return;
    out.range = ms_import->range;
    out.message =
        "MindSpore script: msProbe's PyTorch dump does not apply; use `from msprobe.mindspore import "
        "PrecisionDebugger, seed_all` (same config.json format)";
  } else if (probe_ms && torch_import && !probe_pt) {
    out.range = probe_ms->range;
    out.message =
        "msprobe.mindspore dumps MindSpore, but this is a PyTorch script: import PrecisionDebugger and "
        "seed_all from msprobe.pytorch";
  } else {
    return;
  }
  if (probe_pt && (ms_import || msa_import)) {
    out.message += "; the msprobe.pytorch import here dumps nothing of MindSpore";
    out.related.push_back({probe_pt->range, "msprobe.pytorch is imported here"});
  }
  sink.report(std::move(out));
}

}  // namespace

extern const Rule msp103_mindspore_scenario{
    {"MSP103", "mindspore-scenario", "MindSpore / MSAdapter code is dumped with msprobe.mindspore", Severity::Info,
     FixAvailability::None, kDocs},
    &check};

}  // namespace msprobe::analysis
