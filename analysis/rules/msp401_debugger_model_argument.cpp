// MSP401 debugger-model-argument: PrecisionDebugger(..., model=m), which 26.x
// rejects; the model belongs to start(model=m).
#include "dump_points.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports the `model` argument of the `PrecisionDebugger(...)` constructor (as `model=` or as the
fifth positional argument). With msProbe 26.x (the default target) it is an error; with a known
8.x target it is a deprecation hint.

## Why it matters
msProbe 26.x's constructor is `PrecisionDebugger(config_path=None, task=None, dump_path=None,
level=None, step=None)`: passing `model` raises `TypeError`. 8.x accepts it with a deprecation
warning. The model goes to `start(model=...)`, which 8.x also accepts and which overrides the
constructor's (msprobe-facts §2.1, §2.2, §2.6).

## Example
```python
debugger = PrecisionDebugger(config_path="./config.json", model=model)
debugger.start()
```

## Fix
Remove the argument and pass the model to `start` instead:
`PrecisionDebugger(config_path="./config.json")` and `debugger.start(model=model)`.
)md";

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  const bool old = ctx.options.msprobe_is_8x();
  for (const ConstructSite& site : construct_sites(ctx.source, f)) {
    if (!is_pytorch_use(f, f.msprobe[static_cast<std::size_t>(site.use)])) continue;
    const Call& c = f.calls[static_cast<std::size_t>(site.call)];
    int index = -1, positional = 0;
    for (std::size_t i = 0; i < c.args.size(); ++i) {
      const Argument& a = c.args[i];
      if (a.keyword == "model" || (a.keyword.empty() && a.text[0] != '*' && positional++ == 4))
        index = static_cast<int>(i);
    }
    if (index < 0) continue;
    const Argument& a = c.args[static_cast<std::size_t>(index)];
    Finding out;
    out.range = {argument_start(ctx.source, c, static_cast<std::size_t>(index)), a.range.end};
    if (old) {
      out.severity = Severity::Hint;
      out.tags.push_back(Tag::Deprecated);
      out.message = "The model argument of PrecisionDebugger(...) is deprecated in msProbe " +
                    ctx.options.msprobe_version->text +
                    " and raises TypeError in 26.x: pass it to start(model=" + a.text + ") instead";
    } else {
      out.severity = Severity::Error;
      out.message =
          "PrecisionDebugger(...) has no model parameter in msProbe 26.x (TypeError): pass the model to "
          "start(model=" +
          a.text + ") instead";
    }
    Fix fix;
    fix.edits.push_back(remove_argument(ctx.source, c, static_cast<std::size_t>(index)));
    int moved = 0;
    bool same_function = true;
    for (const MsprobeUse& u : f.msprobe) {
      if (u.kind != MsprobeKind::Start || u.call < 0) continue;
      if (!site.target.empty() && u.receiver != site.target && f.qualify(u.receiver).empty()) continue;
      const Call& s = f.calls[static_cast<std::size_t>(u.call)];
      bool has_model = false;
      for (const Argument& sa : s.args) has_model = has_model || sa.keyword.empty() || sa.keyword == "model";
      if (has_model) continue;
      fix.edits.push_back(append_argument(ctx.source, s, "model=" + a.text));
      same_function = same_function && s.function == c.function;
      ++moved;
    }
    fix.title = moved ? "Move model=" + a.text + " to start(model=" + a.text + ")" : "Remove model=" + a.text;
    fix.safety = same_function ? FixSafety::Safe : FixSafety::Unsafe;
    fix.preferred = true;
    out.fixes.push_back(std::move(fix));
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp401_debugger_model_argument{
    {"MSP401", "debugger-model-argument", "PrecisionDebugger(model=...) is a TypeError in msProbe 26.x",
     Severity::Error, FixAvailability::Always, kDocs},
    &check};

}  // namespace msprobe::analysis
