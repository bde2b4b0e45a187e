// MSP306 config-missing: PrecisionDebugger(config_path=...) names a file that
// is not there. The file is looked up through the resolver the caller gives.
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/debugger_sites.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Looks up the file named by `PrecisionDebugger(config_path="...")` (a string literal): relative
paths are tried against the script's directory, then each workspace folder; an open editor buffer
counts as existing. Reports the argument when no such file exists, when the name does not end
in `.json`, or when the path has characters msProbe's path check rejects.

## Why it matters
msProbe checks the path when the debugger is built and stops when the file is missing, is not a
`.json` file or cannot be read, before any data is dumped.

## Example
```python
debugger = PrecisionDebugger(config_path="./config.json")   # no config.json next to the script
```

## Fix
Run the code action "Generate msProbe config here", which asks for task, level, rank, step and
dump_path one by one and creates the file where the script expects it; or correct the path.

## Source
msprobe-facts §1.3 ("Also enforced": the config_path file must exist).
)md";

void check(const RuleContext& ctx, FindingSink& sink) {
  if (!ctx.options.config_resolver) return;
  for (const config::DebuggerSite& site : config::find_debugger_sites(ctx.facts)) {
    if (!site.config_path) continue;
    const std::string& path = *site.config_path;
    Finding f;
    f.severity = Severity::Error;
    f.range = site.config_arg;
    if (!ends_with(path, ".json")) {
      f.message = "config_path \"" + path + "\" is not a .json file; msProbe only accepts .json config files";
      sink.report(std::move(f));
      continue;
    }
    // msProbe's path check applies to config_path too (same characters as dump_path).
    if (std::string problem = config::dump_path_problem(path); !problem.empty()) {
      f.message = "config_path \"" + path + "\" would be rejected: " + problem.substr(problem.find("contains"));
      sink.report(std::move(f));
      continue;
    }
    ConfigLookup found = (*ctx.options.config_resolver)(path);
    if (found.found) continue;
    std::string where;
    for (std::size_t i = 0; i < found.searched.size(); ++i) where += (i ? ", " : "") + found.searched[i];
    f.message = "config file \"" + path + "\" does not exist" + (where.empty() ? "" : " (looked for " + where + ")") +
                "; msProbe stops when the debugger is built. Use the code action to generate it";
    sink.report(std::move(f));
  }
}

}  // namespace

extern const Rule msp306_config_missing{
    {"MSP306", "config-missing", "PrecisionDebugger(config_path=...) names a file that does not exist", Severity::Error,
     FixAvailability::Always, kDocs},
    &check};

}  // namespace msprobe::analysis
