// MSP307 rank-without-distributed: the config a script uses asks for specific
// ranks, but the script never sets up torch.distributed.
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/debugger_sites.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reads the config named by `PrecisionDebugger(config_path=...)` and reports the argument when its
`rank` list is not empty while the script never uses `torch.distributed` (nor DDP, DeepSpeed,
Accelerate, Megatron, Lightning, transformers or another launcher that initialises it), and no
`start(rank_id=...)` is given.

## Why it matters
Without an initialised process group msProbe sees no rank (the output folder is `proc{pid}`), and
any non-empty `rank` then matches nothing: the run succeeds and the dump is empty.

## Example
```python
debugger = PrecisionDebugger(config_path="./config.json")   # config.json: "rank": [0]
```

## Fix
Use `"rank": []` for a single-card run, or pass `start(rank_id=...)`. If another module of the
program initialises torch.distributed, suppress the finding on this line.

## Source
msprobe-facts §1.4 and §3 (item 6).
)md";

void check(const RuleContext& ctx, FindingSink& sink) {
  if (!ctx.options.config_resolver) return;
  auto sites = config::find_debugger_sites(ctx.facts);
  if (sites.empty() || config::uses_distributed(ctx.facts)) return;
  for (int i : config::find_start_calls(ctx.facts, sites)) {
    if (config::keyword(ctx.facts.calls[static_cast<std::size_t>(i)], "rank_id")) return;
  }
  const config::DebuggerSite& site = sites.front();  // a singleton: the first construction wins
  if (!site.config_path) return;
  ConfigLookup found = (*ctx.options.config_resolver)(*site.config_path);
  if (!found.found || !found.text) return;
  config::ConfigSummary s = config::summarize_config(*found.text);
  if (!s.readable || s.rank.empty()) return;
  Finding f;
  f.severity = Severity::Warning;
  f.range = site.config_arg;
  f.message = "\"" + *site.config_path + "\" sets \"rank\": " + s.rank_text +
              " but this script never initialises torch.distributed: msProbe sees no rank and dumps nothing. "
              "Use \"rank\": [] for a single-card run, or start(rank_id=...)";
  sink.report(std::move(f));
}

}  // namespace

extern const Rule msp307_rank_without_distributed{
    {"MSP307", "rank-without-distributed", "A non-empty rank in the config of a script without torch.distributed",
     Severity::Warning, FixAvailability::None, kDocs},
    &check};

}  // namespace msprobe::analysis
