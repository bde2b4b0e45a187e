// MSP404 task-version: PrecisionDebugger(task="...") naming a task the target
// msProbe version does not have.
#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "dump_points.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks a literal `task` given to the `PrecisionDebugger(...)` constructor (keyword or second
positional argument) against the target msProbe version: 26.x (the default) has `statistics`,
`tensor`, `acc_check`, `structure`, `nan_check` (and `diff_check`); 8.x has `statistics`,
`tensor`, `overflow_check`, `free_benchmark`, `run_ut`, `grad_probe`, `structure`.
`exception_dump` is MindSpore only. Unknown names get a did-you-mean.

## Why it matters
The constructor's task overrides `config.json` and is checked against the version's task list:
a task of the other line fails at construction ("task ... is not in [...]"). The 8.x tasks were
renamed or moved in 26.x: `run_ut` became `acc_check`, overflow detection became `nan_check`
plus the `msprobe overflow_check` CLI, and `free_benchmark`/`grad_probe` are gone
(msprobe-facts §1.1, §1.2, §2.6).

## Example
```python
debugger = PrecisionDebugger(config_path="./config.json", task="overflow_check")
```

## Fix
No automatic fix: pick a task of the installed version (26.x: `nan_check` for NaN/overflow
detection, `acc_check` for the accuracy pre-check), or set the target version
(`msprobe.msprobeVersion`) to the one installed.
)md";

const std::array<const char*, 6> k26 = {"statistics", "tensor", "acc_check", "structure", "nan_check", "diff_check"};
const std::array<const char*, 7> k8 = {"statistics", "tensor",     "overflow_check", "free_benchmark",
                                       "run_ut",     "grad_probe", "structure"};

template <std::size_t N>
bool in(const std::array<const char*, N>& a, const std::string& s) {
  return std::any_of(a.begin(), a.end(), [&](const char* x) { return s == x; });
}

// The value of a plain string literal, or nullopt.
std::optional<std::string> string_value(const std::string& text) {
  if (text.size() < 2) return std::nullopt;
  char q = text.front();
  if ((q != '"' && q != '\'') || text.back() != q) return std::nullopt;
  std::string v = text.substr(1, text.size() - 2);
  if (v.find(q) != std::string::npos || v.find('\\') != std::string::npos) return std::nullopt;
  return v;
}

std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t prev = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}

std::string replacement_hint(const std::string& task) {
  if (task == "overflow_check")
    return "; use nan_check for NaN/overflow detection (or the `msprobe overflow_check` CLI on a dump)";
  if (task == "run_ut") return "; it is called acc_check in 26.x";
  if (task == "free_benchmark" || task == "grad_probe") return "; 26.x has no equivalent task";
  if (task == "acc_check") return "; in 8.x the accuracy pre-check is run_ut";
  if (task == "nan_check") return "; in 8.x use overflow_check";
  return "";
}

void check(const RuleContext& ctx, FindingSink& sink) {
  const FileFacts& f = ctx.facts;
  const bool old = ctx.options.msprobe_is_8x();
  const std::string target = old                           ? "msProbe " + ctx.options.msprobe_version->text
                             : ctx.options.msprobe_version ? "msProbe " + ctx.options.msprobe_version->text
                                                           : "msProbe 26.x (the default target)";
  for (const ConstructSite& site : construct_sites(ctx.source, f)) {
    if (!is_pytorch_use(f, f.msprobe[static_cast<std::size_t>(site.use)])) continue;
    const Call& c = f.calls[static_cast<std::size_t>(site.call)];
    const Argument* task = nullptr;
    int positional = 0;
    for (const Argument& a : c.args) {
      if (a.keyword == "task" || (a.keyword.empty() && positional++ == 1)) task = &a;
    }
    if (!task) continue;
    auto value = string_value(task->text);
    if (!value) continue;
    const std::string& v = *value;
    bool ok = old ? in(k8, v) : in(k26, v);
    if (ok) continue;
    Finding out;
    out.severity = Severity::Error;
    out.range = task->range;
    if (v == "exception_dump") {
      out.message = "task \"exception_dump\" is MindSpore only; the PyTorch PrecisionDebugger rejects it";
    } else if (old ? in(k26, v) : in(k8, v)) {
      out.message = "task \"" + v + "\" is " + (old ? "a 26.x" : "an 8.x") + " task: " + target + " rejects it" +
                    replacement_hint(v);
    } else {
      std::string best;
      std::size_t best_d = 3;
      auto consider = [&](const char* t) {
        std::size_t d = distance(v, t);
        if (d < best_d) best_d = d, best = t;
      };
      for (const char* t :
           old ? std::vector<const char*>(k8.begin(), k8.end()) : std::vector<const char*>(k26.begin(), k26.end()))
        consider(t);
      out.message = "\"" + v + "\" is not a msProbe task" + (best.empty() ? "" : " (did you mean \"" + best + "\"?)") +
                    "; " + target + " accepts " +
                    (old ? "statistics, tensor, overflow_check, free_benchmark, run_ut, grad_probe, structure"
                         : "statistics, tensor, acc_check, structure, nan_check");
    }
    sink.report(std::move(out));
  }
}

}  // namespace

extern const Rule msp404_task_version{
    {"MSP404", "task-version", "A PrecisionDebugger task that the target msProbe version does not have",
     Severity::Error, FixAvailability::None, kDocs},
    &check};

}  // namespace msprobe::analysis
