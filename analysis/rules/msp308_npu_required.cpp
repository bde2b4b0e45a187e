// MSP308 npu-required: reported by the config checker when the environment
// probe found no torch_npu or no NPU (config/config_check.h).
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

}  // namespace

extern const Rule msp308_npu_required{
    {"MSP308", "npu-required", "Level L2 or task nan_check without an NPU", Severity::Warning,
     FixAvailability::None, kDocs},
    nullptr};

}  // namespace msprobe::analysis
