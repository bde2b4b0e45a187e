// MSP302 config-range-syntax: reported by the config checker (config/config_check.h).
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks `rank` and `step`: each must be a list whose entries are integers from 0 to 1000000, or
strings `"N"` or `"A-B"` (an inclusive range with A <= B).

## Why it matters
msProbe parses both lists when the debugger is built and stops on anything else, for example
"rank is invalid, it should be a list", "The hyphen(-) must start and end with decimal numbers" or
"the left boundary (5) cannot be greater than the right boundary (3)".

## Example
```json
{"rank": 0, "step": ["5-3", "-2"], "dump_path": "/data/dump"}
```

## Fix
Write lists: `"rank": [0]`, `"step": ["3-5"]`. `[]` means every rank or step.

## Source
msprobe-facts §1.4.
)md";

}  // namespace

extern const Rule msp302_config_range_syntax{
    {"MSP302", "config-range-syntax", "A rank/step entry msProbe cannot parse", Severity::Error,
     FixAvailability::None, kDocs},
    nullptr};

}  // namespace msprobe::analysis
