// MSP304 config-combination: reported by the config checker (config/config_check.h)
// in config.json; in Python, the one combination that is about the script:
// save() calls while the debugger's level is not debug.
#include "msprobe/analysis/config/debugger_sites.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks the rules that tie fields together, as msProbe's `DebuggerConfig.check` does:
- level `L2` needs task `tensor`, an empty `scope` and exactly one API in `list`;
- `async_dump: true` needs a non-empty `list` with task tensor (except at level debug), forbids
  `summary_mode: "md5"`, and works with tasks statistics/tensor only;
- task `nan_check` needs level `L1` and rejects `data_mode` with `input` but no `output`;
- task `structure` works at level L0 or mix (others are switched to mix, with a warning);
- `slice` / `request_id` are dropped at levels L2 and debug, `tensor_list` at level debug;
- `scope` names must follow the level's naming (modules for L0, APIs for L1);
- 8.x: `overflow_check` needs L0/L1, `free_benchmark` needs L1 and its own pairings.

In a Python script it reports `debugger.save(...)` while the debugger's level (from its
`config_path` file or its `level=` argument) is not `debug`, or its task is not tensor or
statistics: `save()` records nothing then.

## Why it matters
The errors stop the script when the debugger is built; the warnings mean msProbe silently changes
or ignores what the file asks for.

## Example
```json
{"task": "statistics", "level": "L2", "dump_path": "/data/dump"}
```

## Fix
Follow the message: for a kernel dump use `"task": "tensor"` with
`"tensor": {"list": ["Functional.linear.0.forward"]}`.

## Source
msprobe-facts §1.3 (rule 7 for `save()`).
)md";

void check(const RuleContext& ctx, FindingSink& sink) {
  auto sites = config::find_debugger_sites(ctx.facts);
  if (sites.empty()) return;
  config::EffectiveConfig e = config::effective_config(ctx.options, sites.front());
  if (!e.known) return;
  bool level_ok = e.level == "debug", task_ok = e.task == "tensor" || e.task == "statistics";
  if (level_ok && task_ok) return;
  std::string from = e.source.empty() ? std::string("msProbe's default") : e.source;
  for (int i : config::find_debugger_calls(ctx.facts, sites, "save")) {
    Finding f;
    f.severity = Severity::Warning;
    f.range = ctx.facts.calls[static_cast<std::size_t>(i)].range;
    f.message = !level_ok ? "save() records data only at level \"debug\", but " + from + " sets level \"" + e.level +
                                "\": nothing is saved"
                          : "save() records data only with task tensor or statistics, but the task is \"" + e.task +
                                "\": nothing is saved";
    sink.report(std::move(f));
  }
}

}  // namespace

extern const Rule msp304_config_combination{
    {"MSP304", "config-combination", "config.json fields that do not go together", Severity::Error,
     FixAvailability::None, kDocs},
    check};

}  // namespace msprobe::analysis
