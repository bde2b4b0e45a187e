// MSP308 npu-required: level L2 or task nan_check in a config.json while the
// environment probe found no torch_npu or no NPU; nan_check's build and CANN
// requirements as information otherwise.
#include "config/config_walk.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
When a config asks for level `L2` (kernel dump) or task `nan_check`, the server asks the configured
Python interpreter (`msprobe.pythonPath`) whether `torch_npu` imports and `torch.npu.is_available()`
is true, and reports the config when it does not.

## Why it matters
Both features run on Ascend NPUs only: on a GPU or CPU machine the L2 dump fails with
`NameError: name 'torch_npu' is not defined`, and nan_check stops with "task nan_check is only
supported in NPU environments". nan_check also needs msProbe built from source with
`--include-mod=nan_check` (the pip wheel lacks it), CANN >= 8.5.0 and
`INF_NAN_MODE_FORCE_DISABLE=1`.

## Example
```json
{"task": "tensor", "level": "L2", "tensor": {"list": ["Functional.linear.0.forward"]}, "dump_path": "/data/dump"}
```

## Fix
Run on an Ascend machine (or point `msprobe.pythonPath` at that environment), or use level L1.

## Source
msprobe-facts §1.3 (rules 1 and 3) and §7.
)md";

// True when the probe says the NPU is missing (and that was reported).
bool npu_missing(const AnalysisOptions& o, ByteRange at, const std::string& what, FindingSink& sink) {
  std::string why;
  if (o.torch_npu_importable && !*o.torch_npu_importable) why = "torch_npu does not import";
  else if (o.npu_available && !*o.npu_available) why = "torch.npu.is_available() is False";
  if (why.empty()) return false;
  sink.report(config::make_finding("MSP308", Severity::Warning, at,
                                   what + " runs on Ascend NPU only, and in the configured Python interpreter " + why));
  return true;
}

void check_config(const config::ConfigContext& ctx, FindingSink& sink) {
  if (!ctx.effective) return;
  const config::RunSettings& e = *ctx.effective;
  if (e.level == "L2") npu_missing(ctx.options, e.level_at, "level L2 (kernel dump)", sink);
  if (e.task != "nan_check" || ctx.version != config::ConfigVersion::V26) return;
  if (!npu_missing(ctx.options, e.task_at, "task nan_check (it also needs msProbe built with --include-mod=nan_check)",
                   sink))
    sink.report(config::make_finding(
        "MSP308", Severity::Info, e.task_at,
        "task nan_check needs Ascend NPU with torch_npu, msProbe built from source with --include-mod=nan_check "
        "(the pip wheel lacks it), CANN >= 8.5.0 and INF_NAN_MODE_FORCE_DISABLE=1"));
}

}  // namespace

extern const Rule msp308_npu_required{{"MSP308", "npu-required", "Level L2 or task nan_check without an NPU",
                                       Severity::Warning, FixAvailability::None, kDocs},
                                      nullptr,
                                      &check_config};

}  // namespace msprobe::analysis
