// MSP402 removed-api: forward_backward_dump_end(), removed in msProbe 26.x.
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports `debugger.forward_backward_dump_end()` (any receiver: the method name is msProbe's). With
msProbe 26.x (the default target) it is an error; with a known 8.x target it is a deprecation
hint.

## Why it matters
`forward_backward_dump_end()` was the 8.x alias of `stop()`. 26.x removed it, so the call raises
`AttributeError` and the dump window is never closed (msprobe-facts §2.3, §2.6).

## Example
```python
loss.backward()
debugger.forward_backward_dump_end()
```

## Fix
Replace it with `stop()`, which works in both lines: `debugger.stop()`.
)md";

constexpr std::string_view kName = "forward_backward_dump_end";

void check(const RuleContext& ctx, FindingSink& sink) {
  const bool old = ctx.options.msprobe_is_8x();
  for (const Call& c : ctx.facts.calls) {
    const std::string& callee = c.callee;
    if (callee.size() <= kName.size() + 1 || callee.compare(callee.size() - kName.size(), kName.size(), kName) != 0 ||
        callee[callee.size() - kName.size() - 1] != '.')
      continue;
    std::string recv = callee.substr(0, callee.size() - kName.size() - 1);
    Finding out;
    out.range = c.range;
    if (old) {
      out.severity = Severity::Hint;
      out.tags.push_back(Tag::Deprecated);
      out.message = "forward_backward_dump_end() is a deprecated alias of stop() in msProbe " +
                    ctx.options.msprobe_version->text + " and is removed in 26.x: call " + recv + ".stop()";
    } else {
      out.severity = Severity::Error;
      out.message = "forward_backward_dump_end() was removed in msProbe 26.x (AttributeError): call " + recv +
                    ".stop() instead";
    }
    Fix fix;
    fix.title = "Replace with " + recv + ".stop()";
    uint32_t name_start = c.callee_range.end - static_cast<uint32_t>(kName.size());
    fix.edits.push_back({{name_start, c.callee_range.end}, "stop"});
    fix.preferred = true;
    out.fixes.push_back(std::move(fix));
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp402_removed_api{
    {"MSP402", "removed-api", "forward_backward_dump_end() was removed in msProbe 26.x", Severity::Error,
     FixAvailability::Always, kDocs},
    &check};

}  // namespace msprobe::analysis
