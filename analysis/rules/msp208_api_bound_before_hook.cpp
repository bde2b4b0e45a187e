// MSP208 api-bound-before-hook: torch APIs imported by name (`from torch import
// relu`) and called in the model: those calls bypass msProbe's wrappers.
#include <algorithm>
#include <cstdint>
#include <set>

#include "call_graph.h"
#include "dump_points.h"
#include "msprobe/analysis/rule.h"
#include "torch_api.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports calls, in the model (methods of `nn.Module` subclasses and what they call) or in a
training/inference loop (and its helpers), of a torch API that was imported by name:
`from torch import relu`, `from torch.nn.functional import gelu`, `from torch.distributed import
all_reduce`, `from torch_npu import npu_rms_norm`. Modules, classes, dtypes and helpers such as
`no_grad` or `manual_seed` are not reported.

In a project, the import itself is reported (a warning) when a launched script imports this
module, directly or through other project modules, before it builds the debugger.

## Why it matters
msProbe dumps an API by replacing it on its module (`torch.relu`, `torch.nn.functional.gelu`)
when the debugger is built. A name imported earlier still points at the original function, so
every call through it is missing from the dump (msprobe-facts §3.2, §8 item 2). Calls through the
module (`torch.relu(x)`, `F.gelu(x)`) look the API up at call time and are dumped.

## Example
```python
from torch.nn.functional import gelu

class MLP(nn.Module):
    def forward(self, x):
        return gelu(self.fc(x))
```

## Fix
Call it through its module: `F.gelu(...)` or `torch.nn.functional.gelu(...)` (an `import torch`
is added when the file has no import to call it through).
)md";

bool module_like(const FileFacts& f, const ClassDef& c) {
  for (const std::string& b : c.bases) {
    std::string q = f.qualify(b);
    if (b.size() >= 6 && b.compare(b.size() - 6, 6, "Module") == 0) return true;
    if (q.rfind("torch.nn", 0) == 0) return true;
  }
  return false;
}

// Functions that run as part of the model or of a dumped loop.
std::set<int> model_functions(const FileFacts& f) {
  CallGraph graph(f);
  std::set<int> out;
  std::set<std::string> classes;
  for (const ClassDef& c : f.classes) {
    if (module_like(f, c)) classes.insert(c.name);
  }
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    if (!classes.count(f.functions[i].class_name) || out.count(static_cast<int>(i))) continue;
    for (int g : graph.reachable(static_cast<int>(i))) out.insert(g);
  }
  std::set<int> role_loops;
  for (const LoopInfo& info : f.loop_info) role_loops.insert(info.loop);
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& c = f.calls[i];
    bool in_role = false;
    for (int l = c.loop; l >= 0; l = f.loops[static_cast<std::size_t>(l)].parent)
      in_role = in_role || role_loops.count(l);
    if (!in_role) continue;
    int g = graph.target(static_cast<int>(i));
    if (g >= 0 && !out.count(g)) {
      for (int h : graph.reachable(g)) out.insert(h);
    }
  }
  // Nested functions of a model function run with it.
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    for (int p = f.functions[i].parent; p >= 0; p = f.functions[static_cast<std::size_t>(p)].parent) {
      if (out.count(p)) out.insert(static_cast<int>(i));
    }
  }
  return out;
}

bool in_role_loop(const FileFacts& f, const Call& c) {
  for (const LoopInfo& info : f.loop_info) {
    for (int l = c.loop; l >= 0; l = f.loops[static_cast<std::size_t>(l)].parent) {
      if (l == info.loop) return true;
    }
  }
  return false;
}

// How to reach `imp`'s module through an existing module-level import:
// "F" for torch.nn.functional imported as F, "torch.nn.functional" through
// `import torch`. Empty when nothing binds it.
std::string module_path(const FileFacts& f, const std::string& module) {
  std::string best;
  std::size_t best_len = 0;
  for (const Import& i : f.imports) {
    if (!i.top_level || i.bound.empty() || i.target.empty()) continue;
    if (module == i.target || module.rfind(i.target + ".", 0) == 0) {
      if (i.target.size() >= best_len) {
        best_len = i.target.size();
        best = i.bound + module.substr(i.target.size());
      }
    }
  }
  return best;
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  // An import that runs after a module-level construction gets the wrapped API.
  uint32_t hooked_from = UINT32_MAX;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Construct && u.call >= 0 && f.calls[static_cast<std::size_t>(u.call)].function < 0)
      hooked_from = std::min(hooked_from, u.range.start);
  }
  std::vector<const Import*> names;
  for (const Import& imp : f.imports) {
    // Imports inside functions usually run after the debugger exists.
    if (is_wrapped_api(imp.module, imp.name) && !imp.bound.empty() && imp.top_level && imp.range.start < hooked_from)
      names.push_back(&imp);
  }
  if (names.empty()) return;
  // In a project: a launched script imports this module before it builds the
  // debugger, so these imports run first (the real msProbe then records
  // Tensor.softmax but not Functional.softmax). Reported on each import that
  // the module calls through.
  if (ctx.project && !ctx.project->imported_before_construction.empty()) {
    for (const Import* imp : names) {
      bool called = std::any_of(f.calls.begin(), f.calls.end(), [&](const Call& c) { return c.callee == imp->bound; });
      if (!called) continue;
      Finding out;
      out.severity = Severity::Warning;
      out.range = imp->range;
      out.message = imp->bound + " is bound from " + imp->module + " when this module is imported, and " +
                    ctx.project->imported_before_construction + " imports it before it builds the PrecisionDebugger" +
                    (ctx.project->construction_line
                         ? " (line " + std::to_string(ctx.project->construction_line + 1) + ")"
                         : std::string()) +
                    ": calls through " + imp->bound + " escape the dump; build the debugger in " +
                    ctx.project->imported_before_construction +
                    " before its project imports (right after the third-party ones), or call " + imp->module + "." +
                    imp->name + "(...) through its module";
      sink.report(std::move(out));
    }
  }
  std::set<int> model_fns = model_functions(f);
  for (const Call& c : f.calls) {
    const Import* imp = nullptr;
    for (const Import* i : names) {
      if (c.callee == i->bound) imp = i;
    }
    if (!imp) continue;
    if (!(c.function >= 0 && model_fns.count(c.function)) && !in_role_loop(f, c)) continue;
    std::string path = module_path(f, imp->module);
    std::string root = imp->module.substr(0, imp->module.find('.'));
    bool add_import = path.empty();
    if (add_import) path = imp->module;
    std::string call_name = path + "." + imp->name;
    std::string import_text = imp->name.empty() ? "" : "from " + imp->module + " import " + imp->name;
    Finding out;
    out.severity = Severity::Hint;
    out.range = c.callee_range;
    out.message = c.callee + " was imported by name (" + import_text + "), so msProbe's wrapper of " + imp->module +
                  "." + imp->name + " never sees these calls and they are not dumped; call " + call_name +
                  "(...) instead";
    out.related.push_back({imp->range, "imported by name here"});
    Fix fix;
    fix.title = "Call " + call_name + "(...)";
    fix.edits.push_back({c.callee_range, call_name});
    if (add_import) {
      fix.edits.push_back(
          insert_after_line(ctx.source, ctx.source.line_of(imp->range.end),
                            indent_of_line(ctx.source, imp->line) + "import " + root + line_break(ctx.source)));
    }
    fix.preferred = true;
    out.fixes.push_back(std::move(fix));
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp208_api_bound_before_hook{
    {"MSP208", "api-bound-before-hook", "A torch API imported by name is not dumped when called", Severity::Hint,
     FixAvailability::Always, kDocs},
    &check};

}  // namespace msprobe::analysis
