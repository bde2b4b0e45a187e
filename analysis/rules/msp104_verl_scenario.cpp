// MSP104 verl-scenario: verl runs its workers itself and has the dump built in.
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports a script of verl's reinforcement-learning side, on its first such import or call: a
Ray driver or worker (`from verl.trainer import main_ppo`, `verl.trainer.ppo.ray_trainer`,
`verl.single_controller`, `verl.workers.actor`/`critic`/`rollout`/`reward*`, the
`fsdp_workers`/`megatron_workers` modules, `verl.protocol`/`DataProto`, a bare `import verl`),
or any verl import in a file that also imports Ray.

A script that uses only verl's utilities (`verl.utils.*`, `verl.models.*`, verl's FSDP SFT
trainer) is a plain eager training loop: it gets no MSP104, and the dump is enabled in it like in
any other script.

## Why it matters
verl trains in Ray worker processes it starts itself, so a `PrecisionDebugger` created in the
launcher never reaches the model. verl has msProbe built in as a profiler tool
(msprobe-facts §6).

## Example
```python
from verl.trainer import main_ppo
main_ppo.run_ppo(config)
```

## Fix
No code change: configure verl. `global_profiler.tool=precision_debugger`,
`+global_profiler.global_tool_config.precision_debugger.config_path=/path/config.json`,
`global_profiler.steps=[...]`, and `profiler.enable=True` on the roles to dump (optionally
`stages` and `strict`). Do not set `dump_path`: verl writes under its own `save_path`.
)md";

void check(const RuleContext& ctx, FindingSink& sink) {
  const ScenarioMarker* first = nullptr;
  for (const ScenarioMarker& m : ctx.facts.scenario_markers) {
    if (m.scenario == Scenario::Verl) {
      first = &m;
      break;
    }
  }
  if (!first) return;
  Finding f;
  f.severity = Severity::Info;
  f.range = first->range;
  f.message =
      "verl script: enable msProbe through verl's built-in profiler config "
      "(global_profiler.tool=precision_debugger, "
      "+global_profiler.global_tool_config.precision_debugger.config_path=..., global_profiler.steps=[...]), "
      "not by adding PrecisionDebugger to the launcher";
  for (const MsprobeUse& u : ctx.facts.msprobe) {
    if (u.kind == MsprobeKind::Construct) {
      f.message += "; the PrecisionDebugger built here does not reach verl's Ray workers";
      f.related.push_back({u.range, "this debugger runs in the launcher process only"});
      break;
    }
  }
  for (const Call& c : ctx.facts.calls) {
    if (c.qualified.rfind("verl.", 0) == 0) {
      f.related.push_back({c.range, "verl takes over here"});
      break;
    }
  }
  sink.report(std::move(f));
}

}  // namespace

extern const Rule msp104_verl_scenario{
    {"MSP104", "verl-scenario", "verl has the msProbe dump built in; configure it instead of editing code",
     Severity::Info, FixAvailability::None, kDocs},
    &check};

}  // namespace msprobe::analysis
