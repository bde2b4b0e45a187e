// MSP309 tensor-needs-torch2: task tensor in a config.json while the target
// PyTorch (msprobe.torchVersion, or the environment probe) is older than 2.0.
#include "config/config_walk.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports `"task": "tensor"` when the target PyTorch is older than 2.0. The version comes from
`msprobe.torchVersion`, else from the configured interpreter (`msprobe.pythonPath`), else from a
`torch==` pin; `check --torch-version` sets it on the command line. Without a known version the
rule stays silent.

## Why it matters
A tensor dump saves every tensor through `Tensor.untyped_storage()`, which PyTorch has only since
2.0. With PyTorch 1.x, msProbe 26.0 stops at the first dumped API with an `AttributeError`, and
8.3.3 finishes the run but writes `"data": {}` into every `dump.json`, with the error in
`dump_error_info.log`: a long run with nothing to show for it.

## Example
```json
{"task": "tensor", "level": "L1", "dump_path": "/data/dump"}
```
with PyTorch 1.13.

## Fix
Use `"task": "statistics"` (it works on PyTorch 1.x), or run the tensor dump with PyTorch 2.0 or
later.

## Source
msprobe-facts §9 (observed with msProbe 8.3.3 and 26.0 on PyTorch 1.13) and §7.
)md";

void check_config(const config::ConfigContext& ctx, FindingSink& sink) {
  const auto& torch = ctx.options.torch_version;
  if (!ctx.effective || ctx.effective->task != "tensor" || !torch || torch->major >= 2) return;
  sink.report(config::make_finding(
      "MSP309", Severity::Error, ctx.effective->task_at,
      "task \"tensor\" needs PyTorch 2.0 or later (it saves tensors through Tensor.untyped_storage()), but the target "
      "PyTorch is " +
          torch->text +
          ": msProbe 26.x stops with an AttributeError and 8.x writes an empty dump (\"data\": {}, "
          "the error in dump_error_info.log). Use task \"statistics\", or PyTorch >= 2.0"));
}

}  // namespace

extern const Rule msp309_tensor_needs_torch2{
    {"MSP309", "tensor-needs-torch2", "Task tensor with PyTorch older than 2.0", Severity::Error, FixAvailability::None,
     kDocs},
    nullptr,
    &check_config};

}  // namespace msprobe::analysis
