// MSP300 config-syntax: a config.json Python's json module cannot read, or
// whose top-level value is not an object.
#include <algorithm>

#include "config/config_walk.h"
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

void check_config(const config::ConfigContext& ctx, FindingSink& sink) {
  auto size = static_cast<uint32_t>(ctx.text.size());
  for (const config::JsonSyntaxError& e : ctx.doc.errors) {
    uint32_t end = std::min<uint32_t>(e.offset + 1, size);
    sink.report(config::make_finding("MSP300", Severity::Error, {e.offset, std::max(end, e.offset)},
                                     "JSON syntax error: " + e.message + "; msProbe cannot read this file"));
  }
  const config::JsonValue& root = ctx.doc.root;
  if (ctx.doc.has_root && !root.is(config::JsonKind::Object) && root.complete)
    sink.report(config::make_finding(
        "MSP300", Severity::Error, root.range,
        std::string("config.json must be a JSON object ({...}), not ") + config::to_string(root.kind)));
}

}  // namespace

extern const Rule msp300_config_syntax{
    {"MSP300", "config-syntax", "config.json is not valid JSON", Severity::Error, FixAvailability::None, kDocs},
    nullptr,
    &check_config};

}  // namespace msprobe::analysis
