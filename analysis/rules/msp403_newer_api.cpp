// MSP403 newer-api: 26.x-only API used while the target is msProbe 8.x.
#include "dump_points.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Only when the target msProbe version is 8.x (`msprobe.msprobeVersion`), reports the API that
only 26.x has: `start(rank_id=...)` and `start(scheduled_tokens=...)` (or a third/fourth
positional argument of `start`), `seed_all(is_enhanced=...)`, and imports of `random_save`,
`acl_save` and `AclGraphDumper` from `msprobe.pytorch`.

## Why it matters
8.x's `start(model=None, token_range=None)` and `seed_all(seed, mode, rm_dropout)` raise
`TypeError` on the newer arguments, and the newer functions do not exist there (ImportError)
(msprobe-facts §2.2, §2.4, §2.6).

## Example
```python
debugger.start(model=model, rank_id=local_rank)   # msProbe 8.3
```

## Fix
No automatic fix: upgrade msProbe to 26.x (`pip uninstall mindstudio-probe`, then install), or
drop the argument: without `rank_id` the rank comes from `torch.distributed`.
)md";

void check(const RuleContext& ctx, FindingSink& sink) {
  if (!ctx.options.msprobe_is_8x()) return;
  const FileFacts& f = ctx.facts;
  const std::string version = ctx.options.msprobe_version->text;
  auto report = [&](ByteRange r, const std::string& what) {
    Finding out;
    out.severity = Severity::Error;
    out.range = r;
    out.message = what + " only exists in msProbe 26.x; with the target msProbe " + version + " it raises " +
                  (what.find("import") != std::string::npos ? "ImportError" : "TypeError");
    sink.report(std::move(out));
  };
  for (const MsprobeUse& u : f.msprobe) {
    if (u.call < 0 || !is_pytorch_use(f, u)) continue;
    const Call& c = f.calls[static_cast<std::size_t>(u.call)];
    int positional = 0;
    for (std::size_t i = 0; i < c.args.size(); ++i) {
      const Argument& a = c.args[i];
      ByteRange r{argument_start(ctx.source, c, i), a.range.end};
      int pos = a.keyword.empty() ? positional++ : -1;
      if (u.kind == MsprobeKind::Start) {
        if (a.keyword == "rank_id" || a.keyword == "scheduled_tokens") report(r, "start(" + a.keyword + "=...)");
        else if (pos >= 2)
          report(r, "A " + std::string(pos == 2 ? "third" : "fourth") + " argument of start() (" +
                        (pos == 2 ? "rank_id" : "scheduled_tokens") + ")");
      } else if (u.kind == MsprobeKind::SeedAll) {
        if (a.keyword == "is_enhanced" || pos == 3) report(r, "seed_all(is_enhanced=...)");
      }
    }
  }
  for (const Import& imp : f.imports) {
    if (imp.module.rfind("msprobe", 0) != 0) continue;
    if (imp.name == "random_save" || imp.name == "acl_save" || imp.name == "AclGraphDumper")
      report(imp.range, "The import of " + imp.name);
  }
}

}  // namespace

extern const Rule msp403_newer_api{{"MSP403", "newer-api", "26.x-only msProbe API used with an 8.x target",
                                    Severity::Error, FixAvailability::None, kDocs},
                                   &check};

}  // namespace msprobe::analysis
