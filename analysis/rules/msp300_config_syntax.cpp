// MSP300 config-syntax: reported by the config checker (config/config_check.h).
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports a config.json that Python's `json` module cannot read, at the position of the first error:
a missing comma or quote, a trailing comma, a comment, single quotes, a byte order mark, or a
top-level value that is not an object.

## Why it matters
msProbe loads the file with `json.load` when `PrecisionDebugger(config_path=...)` runs; a syntax
error stops the script before training starts.

## Example
```json
{"task": "statistics", "dump_path": "/data/dump",}
```

## Fix
Correct the JSON at the reported position (here: remove the trailing comma).

## Source
msprobe-facts §1 (parsing behaviour).
)md";

}  // namespace

extern const Rule msp300_config_syntax{
    {"MSP300", "config-syntax", "config.json is not valid JSON", Severity::Error, FixAvailability::None, kDocs},
    nullptr};

}  // namespace msprobe::analysis
