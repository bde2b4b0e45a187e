// MSP206 seed-all-missing: a PrecisionDebugger with no seed_all() before it.
#include <algorithm>

#include "dump_points.h"
#include "effects.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports the first `PrecisionDebugger(...)` construction of a file when no msProbe `seed_all()`
runs before it: earlier in the same function, or at module level.

In a project, a `seed_all()` made by another module's function that this file calls first counts.

## Why it matters
The dump does not fix randomness by itself. Without `seed_all()` two runs (for example a GPU
baseline and an NPU run) differ in initial weights, dropout and data order, and their dumps cannot
be compared API by API. `seed_all()` seeds Python, NumPy and torch (CPU/CUDA/NPU), sets
`PYTHONHASHSEED` and `HCCL_DETERMINISTIC`; the docs call it right after the import, before the
debugger (msprobe-facts §2.4, §2.5).

## Example
```python
from msprobe.pytorch import PrecisionDebugger
debugger = PrecisionDebugger(config_path="./config.json")
```

## Fix
Insert `seed_all()` right before the construction (and import it next to `PrecisionDebugger`).
`seed_all(mode=True)` also makes the algorithms deterministic, at some speed cost.
)md";

bool seeded_before(const FileFacts& f, const Call& construct) {
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind != MsprobeKind::SeedAll || u.call < 0) continue;
    const Call& s = f.calls[static_cast<std::size_t>(u.call)];
    if (s.function == construct.function && s.range.start < construct.range.start) return true;
    if (s.function == -1 && construct.function >= 0 && s.statement >= 0 &&
        top_level_statement(f, s.statement) != f.main_guard)
      return true;
  }
  return false;
}

// A call into another module that calls seed_all(), made before the construction.
bool seeded_through_call(const RuleContext& ctx, const Call& construct) {
  if (!ctx.project) return false;
  const FileFacts& f = ctx.facts;
  for (const Call& s : f.calls) {
    if (!(ctx.project->effects_of(s.range) & kDumpSeed)) continue;
    if (s.function == construct.function && s.range.start < construct.range.start) return true;
    if (s.function == -1 && construct.function >= 0 && s.statement >= 0 &&
        top_level_statement(f, s.statement) != f.main_guard)
      return true;
  }
  return false;
}

bool seeds_later(const FileFacts& f) {
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::SeedAll) return true;
  }
  return false;
}

// The edit that makes `seed_all` importable where PrecisionDebugger is imported.
std::optional<Edit> import_seed_all(const RuleContext& ctx, const Call& construct) {
  const FileFacts& f = ctx.facts;
  for (const Import& i : f.imports) {
    if (i.bound == "seed_all") return std::nullopt;  // already there
  }
  for (const Import& i : f.imports) {
    if (i.bound != construct.callee || i.name.empty()) continue;
    std::string_view text = ctx.source.view().substr(i.range.start, i.range.end - i.range.start);
    if (text.find('(') == std::string_view::npos && text.find('\\') == std::string_view::npos)
      return Edit{{i.range.end, i.range.end}, ", seed_all"};
    std::string line = indent_of_line(ctx.source, i.line) + "from " + i.module + " import seed_all" +
                       line_break(ctx.source);
    return insert_after_line(ctx.source, ctx.source.line_of(i.range.end), line);
  }
  return std::nullopt;
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  std::vector<ConstructSite> sites = construct_sites(ctx.source, f);
  if (sites.empty()) return;
  const ConstructSite& site = sites.front();
  const Call& c = f.calls[static_cast<std::size_t>(site.call)];
  if (seeded_before(f, c) || seeded_through_call(ctx, c)) return;
  Finding out;
  out.severity = Severity::Hint;
  out.range = c.range;
  out.message = seeds_later(f) ? "seed_all() runs only after the PrecisionDebugger is built; call it before, so both "
                                 "runs to compare start from the same random state"
                               : "No seed_all() before the PrecisionDebugger: runs to compare will differ in weights, "
                                 "dropout and data order; call seed_all() right after the imports";
  // A seed_all(...) later in the same function moves up, arguments and all.
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind != MsprobeKind::SeedAll || u.call < 0 || c.statement < 0) continue;
    const Call& s = f.calls[static_cast<std::size_t>(u.call)];
    if (s.function != c.function || s.statement < 0 || !(stmt(f, s.statement).range == s.range)) continue;
    if (!std::all_of(s.args.begin(), s.args.end(), [](const Argument& a) { return is_constant_expression(a.text); }))
      continue;
    const Statement& st = stmt(f, c.statement);
    if (!owns_its_lines(ctx.source, st)) break;
    auto edits = move_statements(ctx.source, f, {s.statement},
                                 InsertionPoint{st.line, false, indent_of_line(ctx.source, st.line)});
    if (!edits) break;
    Fix fix;
    fix.title = "Move " + std::string(ctx.text(s.range).substr(0, 60)) + " before the debugger is built";
    fix.edits = std::move(*edits);
    fix.preferred = true;
    out.fixes.push_back(std::move(fix));
    sink.report(std::move(out));
    return;
  }
  if (c.statement >= 0 && owns_its_lines(ctx.source, stmt(f, c.statement))) {
    std::size_t dot = c.callee.rfind('.');
    std::string seed = dot == std::string::npos ? "seed_all()" : c.callee.substr(0, dot) + ".seed_all()";
    const Statement& st = stmt(f, c.statement);
    Fix fix;
    fix.title = "Call " + seed + " before the debugger is built";
    fix.edits.push_back(
        insert_before_line(ctx.source, st.line, indent_of_line(ctx.source, st.line) + seed + line_break(ctx.source)));
    bool importable = dot != std::string::npos;
    if (!importable) {
      if (auto e = import_seed_all(ctx, c)) {
        fix.edits.push_back(*e);
        importable = true;
      } else {
        importable = std::any_of(f.imports.begin(), f.imports.end(),
                                 [](const Import& i) { return i.bound == "seed_all"; });
      }
    }
    fix.preferred = true;
    if (importable) out.fixes.push_back(std::move(fix));
  }
  sink.report(std::move(out));
}

}  // namespace

extern const Rule msp206_seed_all_missing{{"MSP206", "seed-all-missing", "No seed_all() before the PrecisionDebugger",
                                           Severity::Hint, FixAvailability::Sometimes, kDocs},
                                          &check};

}  // namespace msprobe::analysis
