// MSP204 dump-call-without-debugger: start/stop/step with no PrecisionDebugger
// created in the process.
#include <algorithm>
#include <regex>

#include "bindings.h"
#include "dump_points.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports `start()`, `stop()`, `step()` or `forward_backward_dump_end()` on a debugger when no
`PrecisionDebugger(...)` is created: called through a name this file never binds (not assigned,
imported, or received as a parameter), through `self.<attr>` that is never assigned, or as
classmethods on `PrecisionDebugger` in the script that is run (it has a main guard or a
module-level loop) without any construction. One finding per file, on the first such call.

In a project, the calls are checked against the scripts that run them: none is reported when the
launched script (or the worker it starts) that reaches them builds the debugger, and classmethod
calls in a module of their own are reported when the script that reaches them builds none.

## Why it matters
The dump methods are classmethods of a singleton: before an instance exists they raise
`Exception("PrecisionDebugger instance is not created.")`, and a name that was never bound raises
`NameError` (msprobe-facts §2.1). The construction must run in the same process as the code it
dumps.

## Example
```python
from msprobe.pytorch import PrecisionDebugger

for x, y in loader:
    PrecisionDebugger.start(model)
```

## Fix
Insert `debugger = PrecisionDebugger(config_path="./config.json")` (the configured
`msprobe.configPath`) after the imports, with its import when missing.
)md";

const char* kMethods[] = {"start", "stop", "step", "forward_backward_dump_end"};

struct Candidate {
  int call = -1;
  std::string receiver;
  std::string method;
};

bool imports_msprobe(const FileFacts& f) {
  return std::any_of(f.imports.begin(), f.imports.end(),
                     [](const Import& i) { return i.module == "msprobe" || i.module.rfind("msprobe.", 0) == 0; });
}

// Any way this file binds the simple name `n`.
bool file_binds(const SourceText& src, const FileFacts& f, const std::string& n) {
  for (const Import& i : f.imports) {
    if (i.bound == n) return true;
  }
  const std::regex word("(^|[^A-Za-z0-9_.])" + n + "([^A-Za-z0-9_]|$)");
  for (const Assignment& a : f.assignments) {
    if (std::regex_search(a.target, word) && a.target.find('.') == std::string::npos) return true;
  }
  for (const Loop& l : f.loops) {
    if (std::regex_search(l.target, word)) return true;
  }
  for (const Function& fn : f.functions) {
    if (fn.name == n) return true;
    std::string header(src.view().substr(fn.range.start, fn.body.start - fn.range.start));
    if (std::regex_search(header, word)) return true;  // a parameter
  }
  for (const WithBlock& w : f.with_blocks) {
    std::string header(src.view().substr(w.range.start, w.body.start - w.range.start));
    if (std::regex_search(header, std::regex("\\bas\\s+" + n + "\\b"))) return true;
  }
  for (const Statement& st : f.statements) {
    if (st.type != "global_statement") continue;
    if (std::regex_search(std::string(src.view().substr(st.range.start, st.range.end - st.range.start)), word))
      return true;
  }
  return false;
}

bool is_entry_script(const FileFacts& f) {
  if (f.main_guard >= 0) return true;
  return std::any_of(f.loop_info.begin(), f.loop_info.end(),
                     [&](const LoopInfo& i) { return f.loops[static_cast<std::size_t>(i.loop)].function < 0; });
}

// The name PrecisionDebugger is reachable by at module level, if imported there.
std::string module_class_name(const FileFacts& f) {
  for (const Import& i : f.imports) {
    if (i.top_level && i.target.size() >= 17 && i.target.compare(i.target.size() - 17, 17, "PrecisionDebugger") == 0 &&
        i.target.rfind("msprobe.", 0) == 0)
      return i.bound;
  }
  return "";
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Construct) return;
  }
  if (!imports_msprobe(f)) return;
  // In a project, the entry of the process that runs these calls decides.
  if (ctx.project && ctx.project->debugger_built_by_entry) return;
  const bool entry_without_debugger = ctx.project && ctx.project->dump_calls_reached;
  std::vector<Candidate> found;
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& c = f.calls[i];
    std::size_t dot = c.callee.rfind('.');
    if (dot == std::string::npos) continue;
    std::string recv = c.callee.substr(0, dot), method = c.callee.substr(dot + 1);
    if (std::none_of(std::begin(kMethods), std::end(kMethods), [&](const char* m) { return method == m; })) continue;
    std::string q = f.qualify(recv);
    bool klass = q.rfind("msprobe.", 0) == 0 && q.size() >= 17 &&
                 q.compare(q.size() - 17, 17, "PrecisionDebugger") == 0;
    std::string lower = lowered(last_name(recv));
    bool unbound = false;
    if (klass) {
      unbound = entry_without_debugger || is_entry_script(f);
    } else if (lower.find("debugger") != std::string::npos) {
      if (is_plain_name(recv)) {
        unbound = !file_binds(ctx.source, f, recv);
      } else if (recv.rfind("self.", 0) == 0 && is_plain_name(recv.substr(5))) {
        unbound = std::none_of(f.assignments.begin(), f.assignments.end(),
                               [&](const Assignment& a) { return a.target == recv; });
      }
    }
    if (unbound) found.push_back({static_cast<int>(i), recv, method});
  }
  if (found.empty()) return;
  const Call& first = f.calls[static_cast<std::size_t>(found.front().call)];
  Finding out;
  out.severity = Severity::Error;
  out.range = first.range;
  out.message = found.front().receiver + "." + found.front().method +
                "() is called but no PrecisionDebugger is created in this process: it raises \"PrecisionDebugger "
                "instance is not created.\" (or NameError); create the debugger right after the imports";
  if (entry_without_debugger) out.message += " of " + ctx.project->dump_entry + ", the script that runs this code";
  for (std::size_t i = 1; i < found.size() && i <= 5; ++i)
    out.related.push_back({f.calls[static_cast<std::size_t>(found[i].call)].range, "also needs the debugger"});
  // Insert the construction, bound to the name the calls use.
  std::string recv = found.front().receiver;
  std::string name = is_plain_name(recv) && recv != module_class_name(f) && f.qualify(recv).empty() ? recv : "debugger";
  // The construction belongs to the entry when another script runs this code
  // (the enable-dump action edits both files); otherwise here.
  if (!entry_without_debugger && (is_plain_name(recv) || !f.qualify(recv).empty())) {
    std::string eol = line_break(ctx.source);
    std::string cls = module_class_name(f);
    std::string text;
    if (cls.empty()) {
      cls = "PrecisionDebugger";
      text += "from msprobe.pytorch import PrecisionDebugger" + eol;
    }
    text += name + " = " + cls + "(config_path=\"" + ctx.options.config_path + "\")" + eol;
    Fix fix;
    fix.title = "Create the debugger after the imports: " + name + " = " + cls + "(config_path=\"" +
                ctx.options.config_path + "\")";
    fix.edits.push_back(insert_lines(ctx.source, module_setup_point(f), text));
    fix.safety = FixSafety::Unsafe;
    fix.preferred = true;
    out.fixes.push_back(std::move(fix));
  }
  sink.report(std::move(out));
}

}  // namespace

extern const Rule msp204_dump_call_without_debugger{
    {"MSP204", "dump-call-without-debugger", "start/stop/step with no PrecisionDebugger created", Severity::Error,
     FixAvailability::Sometimes, kDocs},
    &check};

}  // namespace msprobe::analysis
