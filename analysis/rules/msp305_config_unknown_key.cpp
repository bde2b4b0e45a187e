// MSP305 config-unknown-key: reported by the config checker (config/config_check.h).
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports keys msProbe does not read: unknown keys (with a did-you-mean suggestion), keys of the
other msProbe version (`extra_info` on 8.x, `enable_dataloader` on 26.x), removed keys (`seed`,
`is_deterministic`, `backward_input`), top-level keys written inside a task block, repeated keys,
and blocks for a task that is not selected (as a faded hint).

## Why it matters
msProbe reads fields with `dict.get`: a misspelt key is silently ignored and its default is used,
so the dump is not what the file seems to ask for.

## Example
```json
{"task": "statistics", "levle": "L0", "seed": 1234, "dump_path": "/data/dump"}
```

## Fix
Correct the key (`"level"`), or remove it; call `seed_all()` in the script instead of `seed`.

## Source
msprobe-facts §1 (parsing behaviour), §1.1 and §2.6.
)md";

}  // namespace

extern const Rule msp305_config_unknown_key{
    {"MSP305", "config-unknown-key", "A config.json key msProbe ignores", Severity::Warning,
     FixAvailability::Sometimes, kDocs},
    nullptr};

}  // namespace msprobe::analysis
