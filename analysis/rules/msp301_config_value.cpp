// MSP301 config-value: reported by the config checker (config/config_check.h).
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks the type and the value of every config.json field msProbe reads, for the target msProbe
version (`msprobe.msprobeVersion`, 26.x by default): `task`, `level`, `async_dump`, `extra_info`,
`precision`, `risk_level`, and in the task's block `scope` (two names), `list`, `data_mode`
(`all` alone, at most 4 entries), `summary_mode`, `slice`, `diff_nums`, ... A task that exists only
in the other version (`overflow_check` on 26.x, `nan_check` on 8.x) is reported too.

## Why it matters
msProbe checks these values when the debugger is built and stops with
`[msprobe] Invalid parameter` (for example "level is invalid, it should be one of [...]"), or, for
`scope`, fails later when the hooks run.

## Example
```json
{"task": "statistics", "level": "l1", "async_dump": "false", "dump_path": "/data/dump"}
```

## Fix
Use one of the listed values (`"L1"`), and JSON booleans without quotes (`false`). A quick fix is
offered when the intended value is clear.

## Source
msprobe-facts §1.1 and §1.2.
)md";

}  // namespace

extern const Rule msp301_config_value{
    {"MSP301", "config-value", "A config.json field has a wrong type or value", Severity::Error,
     FixAvailability::Sometimes, kDocs},
    nullptr};

}  // namespace msprobe::analysis
