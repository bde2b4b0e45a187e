// MSP304 config-combination: reported by the config checker (config/config_check.h).
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks the rules that tie fields together, as msProbe's `DebuggerConfig.check` does:
- level `L2` needs task `tensor`, an empty `scope` and exactly one API in `list`;
- `async_dump: true` needs a non-empty `list` with task tensor (except at level debug), forbids
  `summary_mode: "md5"`, and works with tasks statistics/tensor only;
- task `nan_check` needs level `L1` and rejects `data_mode` with `input` but no `output`;
- task `structure` works at level L0 or mix (others are switched to mix, with a warning);
- `slice` / `request_id` are dropped at levels L2 and debug, `tensor_list` at level debug;
- `scope` names must follow the level's naming (modules for L0, APIs for L1);
- 8.x: `overflow_check` needs L0/L1, `free_benchmark` needs L1 and its own pairings.

## Why it matters
The errors stop the script when the debugger is built; the warnings mean msProbe silently changes
or ignores what the file asks for.

## Example
```json
{"task": "statistics", "level": "L2", "dump_path": "/data/dump"}
```

## Fix
Follow the message: for a kernel dump use `"task": "tensor"` with
`"tensor": {"list": ["Functional.linear.0.forward"]}`.

## Source
msprobe-facts §1.3.
)md";

}  // namespace

extern const Rule msp304_config_combination{
    {"MSP304", "config-combination", "config.json fields that do not go together", Severity::Error,
     FixAvailability::None, kDocs},
    nullptr};

}  // namespace msprobe::analysis
