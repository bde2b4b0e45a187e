// MSP303 config-dump-path: dump_path missing, not a string, or with
// characters msProbe's path check rejects (config_check.h's
// dump_path_problem, shared with the generator); a relative one gets a hint.
#include "config/config_walk.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks `dump_path`: it must be present (unless the constructor passes `dump_path=`), be a string,
and contain only letters, digits and `_ . : / -`. A relative path gets a hint.

## Why it matters
Without it msProbe stops with "The dump_path not found." when the debugger is built. With a space,
`+`, `~` or a non-ASCII character the debugger is built, but the run fails when the dump starts,
with `FileCheckException` ("contains special characters"), possibly after a long start-up (the
check runs on the absolute path, so the directory a relative path is resolved against counts too).
A relative path lands wherever the run was started.

## Example
```json
{"task": "statistics", "dump_path": "~/my dumps"}
```

## Fix
Use an absolute path made of allowed characters, e.g. `"/home/me/dump_path"`.

## Source
msprobe-facts §1.1 (`dump_path`).
)md";

void check_value(const config::JsonValue& v, FindingSink& sink) {
  if (!v.is(config::JsonKind::String)) {
    sink.report(config::make_finding("MSP303", Severity::Error, v.range,
                                     std::string("dump_path should be a string, not ") + config::to_string(v.kind) +
                                         " (\"dump_path is invalid, it should be a string\")"));
    return;
  }
  std::string problem = config::dump_path_problem(v.text);
  if (!problem.empty()) {
    // Both 8.3.3 and 26.0 build the debugger from such a file and fail later,
    // at the first dump, which can be well into a long run.
    sink.report(config::make_finding("MSP303", Severity::Error, v.range,
                                     problem + ". msProbe accepts the file, but the run fails when the dump starts "
                                               "(FileCheckException)"));
    return;
  }
  if (v.text[0] != '/')
    sink.report(
        config::make_finding("MSP303", Severity::Hint, v.range,
                             "relative dump_path: it is resolved against the directory the run starts in (and that "
                             "directory's characters are checked too); an absolute path is recommended"));
}

void check_config(const config::ConfigContext& ctx, FindingSink& sink) {
  if (!ctx.object_root) return;
  for (const config::MemberRef& m : ctx.members) {
    if (m.role == config::MemberRole::Field && m.top_level() && m.key() == "dump_path") check_value(m.value(), sink);
  }
  // Only a file read to its end can be said to lack the key.
  if (ctx.complete && !ctx.doc.root.member("dump_path")) {
    ByteRange at{ctx.doc.root.range.start, ctx.doc.root.range.start + 1};
    sink.report(config::make_finding("MSP303", Severity::Error, at,
                                     "dump_path is missing: msProbe stops with \"The dump_path not found.\" unless "
                                     "PrecisionDebugger(dump_path=...) passes it"));
  }
}

}  // namespace

extern const Rule msp303_config_dump_path{
    {"MSP303", "config-dump-path", "dump_path is missing, not a string, or has characters msProbe rejects",
     Severity::Error, FixAvailability::None, kDocs},
    nullptr,
    &check_config};

}  // namespace msprobe::analysis
