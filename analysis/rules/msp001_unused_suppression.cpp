// MSP001 unused-suppression: reported by the suppression pass, not by a check.
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports a `# msprobe: ignore[CODE]`, `# noqa: CODE` or `# msprobe: ignore-file[CODE]` comment that
suppresses nothing, and suppressions that name an unknown rule code.

## Why it matters
A stale suppression hides the next real finding on that line, and a mistyped code suppresses
nothing at all.

## Example
```python
model = build_model()  # msprobe: ignore[MSP101]
```

## Fix
Delete the suppression, or correct the code.
)md";

}  // namespace

extern const Rule msp001_unused_suppression{
    {"MSP001", "unused-suppression", "A suppression comment that suppresses nothing", Severity::Hint,
     FixAvailability::None, kDocs},
    nullptr};

}  // namespace msprobe::analysis
