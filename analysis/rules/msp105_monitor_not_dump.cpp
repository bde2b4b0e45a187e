// MSP105 monitor-not-dump: TrainerMon is msProbe's monitor, not its dump.
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports msProbe's training-state monitor: `TrainerMon` (from `msprobe.pytorch` or
`msprobe.mindspore`), `msprobe.pytorch.monitor` and `TrainerMonitorV2`, on its first use.

## Why it matters
The monitor and the `PrecisionDebugger` dump are different tools. The monitor collects
activation, gradient and optimizer-state statistics for Megatron/DeepSpeed-style training from
its own monitor config; it writes no API dump, and its config is not a dump `config.json`
(msprobe-facts §6). Mixing the two setups is a common source of confusion.

## Example
```python
from msprobe.pytorch import TrainerMon
monitor = TrainerMon("./monitor_config.json", process_group=None)
```

## Fix
None needed if monitoring is what you want. To dump API data, set up `PrecisionDebugger`
(`seed_all()`, `PrecisionDebugger(config_path=...)`, `start`/`stop`/`step`) separately.
)md";

void check(const RuleContext& ctx, FindingSink& sink) {
  std::vector<const ScenarioMarker*> markers;
  for (const ScenarioMarker& m : ctx.facts.scenario_markers) {
    if (m.scenario == Scenario::Monitor) markers.push_back(&m);
  }
  if (markers.empty()) return;
  Finding f;
  f.severity = Severity::Info;
  f.range = markers.front()->range;
  f.message =
      "TrainerMon is msProbe's training-state monitor, not the PrecisionDebugger dump: it records "
      "activation/gradient/optimizer statistics from its own monitor config and writes no API dump; use "
      "PrecisionDebugger to dump data";
  for (std::size_t i = 1; i < markers.size() && i <= 3; ++i)
    f.related.push_back({markers[i]->range, "monitor use: " + markers[i]->evidence});
  sink.report(std::move(f));
}

}  // namespace

extern const Rule msp105_monitor_not_dump{
    {"MSP105", "monitor-not-dump", "TrainerMon is the monitor, not the PrecisionDebugger dump", Severity::Info,
     FixAvailability::None, kDocs},
    &check};

}  // namespace msprobe::analysis
