// MSP303 config-dump-path: reported by the config checker (config/config_check.h).
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks `dump_path`: it must be present (unless the constructor passes `dump_path=`), be a string,
and contain only letters, digits and `_ . : / -`. A relative path gets a hint.

## Why it matters
Without it msProbe stops with "The dump_path not found."; with a space, `+`, `~` or a non-ASCII
character it stops with "contains special characters" (the check runs on the absolute path, so the
directory a relative path is resolved against counts too). A relative path lands wherever the run
was started.

## Example
```json
{"task": "statistics", "dump_path": "~/my dumps"}
```

## Fix
Use an absolute path made of allowed characters, e.g. `"/home/me/dump_path"`.

## Source
msprobe-facts §1.1 (`dump_path`).
)md";

}  // namespace

extern const Rule msp303_config_dump_path{
    {"MSP303", "config-dump-path", "dump_path is missing, not a string, or has characters msProbe rejects",
     Severity::Error, FixAvailability::None, kDocs},
    nullptr};

}  // namespace msprobe::analysis
