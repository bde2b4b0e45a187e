// MSP202 debugger-too-late: PrecisionDebugger(...) built after the model, the
// optimizer or a forward already ran, instead of right after the imports.
#include <algorithm>
#include <set>

#include "bindings.h"
#include "call_graph.h"
#include "dump_points.h"
#include "effects.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports a `PrecisionDebugger(...)` construction that runs after the model is built (a class of
the file derived from `nn.Module`, `torch.nn.*` assigned to a model, `from_pretrained(...)`), after
the optimizer is built (`torch.optim.*`), after a forward of the loop's model, or after
`deepspeed.initialize` / `accelerator.prepare`. Constructions in loops are MSP201's, and offline
vLLM scripts (where `LLM(...)` must come first) are MSP503's.

## Why it matters
msProbe wraps the torch APIs when the debugger is built. Code that took a reference to an API
before that (a library saving `F.gelu`, a module built with a bound activation) keeps calling the
unwrapped function, so its data is missing from the dump, and some libraries fail their own
checks (`activation_func must be F.gelu`). The docs ask for the construction right after the
imports (msprobe-facts §2.1, §3.2, §8 item 2).

## Example
```python
model = Net()
optimizer = torch.optim.Adam(model.parameters())
debugger = PrecisionDebugger(config_path="./config.json")
```

## Fix
Move the construction (and the `seed_all()` right before it) to module level after the imports
when its arguments can be evaluated there; otherwise move it up in its function, to just after
the statements its arguments need.
)md";

struct Evidence {
  ByteRange range;
  std::string what;  // "the model", "the optimizer", "a forward of model"
  int call = -1;
};

bool module_class(const FileFacts& f, const std::string& name) {
  for (const ClassDef& c : f.classes) {
    if (c.name != name) continue;
    for (const std::string& b : c.bases) {
      if (ends_with(b, "Module") || f.qualify(b).rfind("torch.nn", 0) == 0) return true;
    }
  }
  return false;
}

// Calls that run before `c`: earlier in the same function (or module level),
// and, for a construction in a function, module-level code outside the main guard.
bool runs_before(const FileFacts& f, const Call& k, const Call& c) {
  if (k.range.start >= c.range.start && k.function == c.function) return false;
  if (inside(k.range, c.range)) return false;
  if (k.function == c.function) return true;
  if (c.function >= 0 && k.function == -1 && k.statement >= 0) {
    int top = top_level_statement(f, k.statement);
    return top != f.main_guard && stmt(f, top).type != "class_definition";
  }
  return false;
}

std::vector<Evidence> late_evidence(const FileFacts& f, const Call& c, const ProjectView* project) {
  std::set<std::string> models;
  for (const LoopInfo& info : f.loop_info) {
    if (!info.model.empty()) models.insert(info.model);
  }
  std::vector<Evidence> out;
  bool have_model = false, have_opt = false, have_forward = false, have_wrap = false;
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& k = f.calls[i];
    if (!runs_before(f, k, c)) continue;
    std::string target;
    for (const Assignment& a : f.assignments) {
      if (a.value_call == static_cast<int>(i)) target = a.target;
    }
    std::string_view last = last_name(k.qualified.empty() ? k.callee : k.qualified);
    std::string lt = lowered(target);
    bool model_target = models.count(target) || lt.find("model") != std::string::npos || lt == "net";
    if (!have_model && (module_class(f, k.callee) || ends_with(k.callee, "from_pretrained") ||
                        (k.qualified.rfind("torch.nn.", 0) == 0 && upper_first(last) && model_target) ||
                        (models.count(target) && !target.empty()))) {
      have_model = true;
      out.push_back({k.range, "the model", static_cast<int>(i)});
    } else if (!have_opt && k.qualified.rfind("torch.optim.", 0) == 0 && upper_first(last) &&
               k.qualified.find("lr_scheduler") == std::string::npos) {
      have_opt = true;
      out.push_back({k.range, "the optimizer", static_cast<int>(i)});
    } else if (!have_forward && models.count(k.callee)) {
      have_forward = true;
      out.push_back({k.range, "a forward of " + k.callee, static_cast<int>(i)});
    } else if (!have_forward && project && (project->effects_of(k.range) & kForward)) {
      // The loop (or a forward) of another module, run before the construction.
      have_forward = true;
      out.push_back({k.range, "a forward in " + k.callee + "() (another module)", static_cast<int>(i)});
    } else if (!have_wrap &&
               (k.qualified == "deepspeed.initialize" ||
                (ends_with(k.callee, ".prepare") && lowered(k.callee).find("accelerat") != std::string::npos))) {
      have_wrap = true;
      out.push_back({k.range, k.callee + "(...)", static_cast<int>(i)});
    }
  }
  std::sort(out.begin(), out.end(), [](const Evidence& a, const Evidence& b) { return a.range.start < b.range.start; });
  return out;
}

// The seed_all() statement right before the construction in its block.
int seed_before(const SourceText& src, const FileFacts& f, int construct_stmt) {
  std::vector<int> block = statements_in_block(f, stmt(f, construct_stmt).block);
  auto it = std::find(block.begin(), block.end(), construct_stmt);
  if (it == block.begin() || it == block.end()) return -1;
  int prev = *(it - 1);
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind != MsprobeKind::SeedAll || u.call < 0) continue;
    const Call& c = f.calls[static_cast<std::size_t>(u.call)];
    if (c.statement == prev && stmt(f, prev).range == c.range && owns_its_lines(src, stmt(f, prev))) return prev;
  }
  return -1;
}

int seed_call_of(const FileFacts& f, int seed_stmt) {
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::SeedAll && u.call >= 0 &&
        f.calls[static_cast<std::size_t>(u.call)].statement == seed_stmt)
      return u.call;
  }
  return -1;
}

// The sibling of `s` in its block that holds `x` (x itself, or an ancestor).
int sibling_holding(const FileFacts& f, int x, ByteRange block) {
  for (int cur = x; cur >= 0; cur = stmt(f, cur).parent_block_owner) {
    if (stmt(f, cur).block == block) return cur;
  }
  return -1;
}

std::optional<Fix> move_to_imports(const RuleContext& ctx, const ConstructSite& site, const Evidence& first) {
  const FileFacts& f = ctx.facts;
  const Call& c = f.calls[static_cast<std::size_t>(site.call)];
  if (!site.movable || (!site.target.empty() && !is_plain_name(site.target))) return std::nullopt;
  for (const Assignment& a : f.assignments) {
    if (a.target == site.target && a.function == c.function && a.value_call != site.call) return std::nullopt;
  }
  std::vector<int> stmts{site.stmt}, calls{site.call};
  int seed = seed_before(ctx.source, f, site.stmt);
  if (seed >= 0 && runs_at_module_setup(f, seed_call_of(f, seed))) {
    stmts.insert(stmts.begin(), seed);
    calls.insert(calls.begin(), seed_call_of(f, seed));
  }
  InsertionPoint to = module_setup_point(f);
  uint32_t at = static_cast<uint32_t>(to.after ? ctx.source.line_start(to.line + 1) : ctx.source.line_start(to.line));
  if (c.function < 0 && at > first.range.start) return std::nullopt;  // would still come too late
  auto edits = move_to_module_setup(ctx.source, f, stmts, calls);
  if (!edits) return std::nullopt;
  Fix fix;
  fix.title = seed >= 0 && stmts.size() == 2 ? "Move seed_all() and PrecisionDebugger(...) right after the imports"
                                             : "Move PrecisionDebugger(...) right after the imports";
  fix.edits = std::move(*edits);
  fix.safety = c.function < 0 ? FixSafety::Safe : FixSafety::Unsafe;
  return fix;
}

// Up in its own block, right after the last statement its arguments need.
std::optional<Fix> move_up_in_block(const RuleContext& ctx, const ConstructSite& site, const Evidence& first) {
  const FileFacts& f = ctx.facts;
  if (!site.movable) return std::nullopt;
  const Call& c = f.calls[static_cast<std::size_t>(site.call)];
  const Statement& st = stmt(f, site.stmt);
  int limit = sibling_holding(f, f.calls[static_cast<std::size_t>(first.call)].statement, st.block);
  if (limit < 0) return std::nullopt;
  std::vector<std::string> needed;
  for (const Argument& a : c.args) {
    for (const std::string& n : names_read(a.text)) needed.push_back(n);
  }
  std::vector<int> block = statements_in_block(f, st.block);
  auto pos = std::find(block.begin(), block.end(), site.stmt);
  if (pos == block.end()) return std::nullopt;
  int dest = -1;
  for (auto it = pos; it != block.begin();) {
    --it;
    std::vector<std::string> bound = names_bound(ctx.source, f, *it);
    bool needs = std::any_of(bound.begin(), bound.end(), [&](const std::string& n) {
      return std::find(needed.begin(), needed.end(), n) != needed.end();
    });
    if (needs) break;
    dest = *it;
  }
  if (dest == block.front() && stmt(f, dest).type == "expression_statement") {
    std::string_view t = ctx.source.view().substr(stmt(f, dest).range.start, 1);
    if (t == "\"" || t == "'") dest = block.size() > 1 ? block[1] : -1;  // keep the docstring first
  }
  if (dest < 0 || dest > limit || dest == site.stmt) return std::nullopt;  // a needed name comes from the late code
  const Statement& d = stmt(f, dest);
  if (!owns_its_lines(ctx.source, d)) return std::nullopt;
  std::vector<int> stmts{site.stmt};
  int seed = seed_before(ctx.source, f, site.stmt);
  if (seed >= 0 && seed > dest) stmts.insert(stmts.begin(), seed);
  InsertionPoint to{d.line, false, indent_of_line(ctx.source, d.line)};
  auto edits = move_statements(ctx.source, f, stmts, to);
  if (!edits) return std::nullopt;
  Fix fix;
  fix.title = "Move PrecisionDebugger(...) up to line " + std::to_string(d.line + 1) + ", before " + first.what +
              " is built";
  if (first.what.rfind("a forward", 0) == 0)
    fix.title = "Move PrecisionDebugger(...) up to line " + std::to_string(d.line + 1);
  fix.edits = std::move(*edits);
  fix.safety = FixSafety::Unsafe;
  return fix;
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  for (const Call& c : f.calls) {
    if (std::string_view(c.qualified) == "vllm.LLM") return;  // offline vLLM: MSP503 decides the order
  }
  std::vector<ConstructSite> sites = construct_sites(ctx.source, f);
  // A module-level construction before any model code already hooked
  // everything: later constructions are no-ops of the singleton.
  for (const ConstructSite& site : sites) {
    const Call& c = f.calls[static_cast<std::size_t>(site.call)];
    if (c.function < 0 && c.loop < 0 && c.statement >= 0 && top_level_statement(f, c.statement) != f.main_guard &&
        late_evidence(f, c, ctx.project).empty())
      return;
  }
  for (const ConstructSite& site : sites) {
    if (!is_pytorch_use(f, f.msprobe[static_cast<std::size_t>(site.use)])) continue;
    const Call& c = f.calls[static_cast<std::size_t>(site.call)];
    if (c.loop >= 0 || (c.function >= 0 && loop_calling(f, c.function))) continue;  // MSP201
    std::vector<Evidence> ev = late_evidence(f, c, ctx.project);
    if (ev.empty()) continue;
    Finding out;
    out.severity = Severity::Warning;
    out.range = c.range;
    std::string list;
    for (std::size_t i = 0; i < ev.size(); ++i) {
      if (i) list += i + 1 == ev.size() ? " and " : ", ";
      list += ev[i].what + " (line " + std::to_string(ctx.source.line_of(ev[i].range.start) + 1) + ")";
      out.related.push_back({ev[i].range, ev[i].what + " runs here, before the debugger is built"});
    }
    out.message = "PrecisionDebugger(...) is built after " + list +
                  ": APIs bound before the construction are not hooked and their data is missing; build it right "
                  "after the imports";
    if (auto fix = move_to_imports(ctx, site, ev.front())) out.fixes.push_back(std::move(*fix));
    else if (auto up = move_up_in_block(ctx, site, ev.front())) out.fixes.push_back(std::move(*up));
    if (!out.fixes.empty()) out.fixes.front().preferred = true;
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp202_debugger_too_late{
    {"MSP202", "debugger-too-late", "PrecisionDebugger(...) built after the model, optimizer or a forward",
     Severity::Warning, FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
