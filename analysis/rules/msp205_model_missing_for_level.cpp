// MSP205 model-missing-for-level: start() without a model while the effective
// config (constructor arguments over the config file) needs one.
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/debugger_sites.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Works out the level and task the debugger will use (the constructor's `level=`/`task=` win over
the file named by `config_path`, whose defaults are L1 / statistics) and reports every
`debugger.start()` without a model when the level is `L0` or `mix` or the task is `structure`, and
every `start(token_range=...)` without a model.

## Why it matters
Module-level dumps hook the model's modules, so msProbe needs the model: `start()` raises
"missing the parameter 'model'" at the first iteration.

## Example
```python
debugger = PrecisionDebugger(config_path="./config.json")   # config.json: "level": "mix"
for batch in loader:
    debugger.start()
```

## Fix
Pass the model that the loop trains or runs: `debugger.start(model)` (a list of modules works too).

## Source
msprobe-facts §1.3 (rule 6) and §2.2.
)md";

// The name of a model built in the file, to pass to start().
std::string model_name(const FileFacts& facts, const Call& start) {
  for (const char* name : {"model", "self.model", "net", "network"}) {
    for (const Assignment& a : facts.assignments) {
      if (a.target == name && (a.function == -1 || a.function == start.function)) return name;
    }
  }
  return {};
}

void check(const RuleContext& ctx, FindingSink& sink) {
  auto sites = config::find_debugger_sites(ctx.facts);
  if (sites.empty()) return;
  config::EffectiveConfig e = config::effective_config(ctx.options, sites.front());
  bool needs_model = e.known && (e.level == "L0" || e.level == "mix" || e.task == "structure");
  for (int i : config::find_start_calls(ctx.facts, sites)) {
    const Call& c = ctx.facts.calls[static_cast<std::size_t>(i)];
    if (config::call_has_model(c)) continue;
    bool token_range = config::keyword(c, "token_range") != nullptr;
    if (!needs_model && !token_range) continue;
    Finding f;
    f.severity = Severity::Error;
    f.range = c.range;
    if (needs_model) {
      std::string why = e.task == "structure" && e.level != "L0" && e.level != "mix" ? "task \"structure\""
                                                                                     : "level \"" + e.level + "\"";
      f.message = "start() has no model, but " + (e.source.empty() ? std::string("the debugger") : e.source) +
                  " sets " + why + ", which hooks modules: msProbe raises \"missing the parameter 'model'\"";
    } else {
      f.message = "start(token_range=...) needs the model: msProbe raises \"missing the parameter 'model'\"";
    }
    std::string model = model_name(ctx.facts, c);
    if (!model.empty()) {
      Fix fix;
      fix.title = "Pass " + model + " to start()";
      // The loop's model is a guess, so fix-all leaves it to the user; it is
      // still the fix the light bulb offers first.
      fix.safety = FixSafety::Unsafe;
      fix.preferred = true;
      uint32_t at = c.args_range.start + 1;
      fix.edits.push_back({{at, at}, c.args.empty() ? model : model + ", "});
      f.fixes.push_back(std::move(fix));
    }
    sink.report(std::move(f));
  }
}

}  // namespace

extern const Rule msp205_model_missing_for_level{
    {"MSP205", "model-missing-for-level", "start() without a model while the level or task needs one", Severity::Error,
     FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
