// MSP102 graph-mode-scenario: torchair / ACL graph / CUDA graph code, which
// the eager PrecisionDebugger dump does not see.
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports graph-mode execution on Ascend or CUDA: torchair (`import torchair`,
`torchair.get_npu_backend(...)`, `CompilerConfig`), ACL graph capture (`torch.npu.graph(...)`,
`torch.npu.NPUGraph()`, `AclGraphDumper`) and CUDA graph capture (`torch.cuda.graph(...)`,
`torch.cuda.CUDAGraph()`). One finding per kind of graph mode, on its first marker; the other
markers are listed as related information.

## Why it matters
`PrecisionDebugger` hooks eager PyTorch APIs. Kernels replayed from a captured graph, or run by
the GE backend of torchair, never pass through those hooks, so the dump is empty or partial
(msprobe-facts §6). msProbe has separate tools for these modes.

## Example
```python
import torchair
npu_backend = torchair.get_npu_backend(compiler_config=config)
model = torch.compile(model, backend=npu_backend)
```

## Fix
No automatic fix: use the tool for the mode. torchair: `set_ge_dump_config(...)` or
`set_fx_dump_config(...)` from `msprobe.pytorch`. ACL graph: `AclGraphDumper(config_path)` with
`start(model)` before capture and `step()` after each replay (needs a wheel built with
`include-mod=aclgraph_dump`). CUDA graphs: dump an eager run without graph capture.
)md";

bool is_cuda_graph(const ScenarioMarker& m) { return m.evidence.find("torch.cuda.") != std::string::npos; }

std::string message_for(Scenario s, const ScenarioMarker& first, bool cuda) {
  if (s == Scenario::Torchair)
    return "torchair graph mode (" + first.evidence +
           "): the PrecisionDebugger dump only sees eager PyTorch; dump graph mode with set_ge_dump_config(...) or "
           "set_fx_dump_config(...) from msprobe.pytorch";
  if (cuda)
    return "CUDA graph capture (" + first.evidence +
           "): kernels replayed from the graph are not seen by the PrecisionDebugger dump; dump an eager run "
           "without graph capture";
  return "ACL graph capture (" + first.evidence +
         "): replayed graphs are not seen by the PrecisionDebugger dump; use msProbe's AclGraphDumper(config_path) "
         "(start(model) before capture, step() after each replay; wheel built with include-mod=aclgraph_dump)";
}

void check(const RuleContext& ctx, FindingSink& sink) {
  for (Scenario s : {Scenario::Torchair, Scenario::Aclgraph}) {
    // CUDA graphs and ACL graphs share a scenario but not an answer.
    for (int cuda = 0; cuda < 2; ++cuda) {
      if (s == Scenario::Torchair && cuda) continue;
      std::vector<const ScenarioMarker*> markers;
      for (const ScenarioMarker& m : ctx.facts.scenario_markers) {
        if (m.scenario == s && (s == Scenario::Torchair || is_cuda_graph(m) == (cuda != 0))) markers.push_back(&m);
      }
      if (markers.empty()) continue;
      Finding f;
      f.severity = Severity::Info;
      f.range = markers.front()->range;
      f.message = message_for(s, *markers.front(), cuda != 0);
      for (std::size_t i = 1; i < markers.size() && i <= 5; ++i)
        f.related.push_back({markers[i]->range, "also graph mode: " + markers[i]->evidence});
      sink.report(std::move(f));
    }
  }
}

}  // namespace

extern const Rule msp102_graph_mode_scenario{
    {"MSP102", "graph-mode-scenario", "Graph-mode code (torchair, ACL graph, CUDA graph) is not seen by the dump",
     Severity::Info, FixAvailability::None, kDocs},
    &check};

}  // namespace msprobe::analysis
