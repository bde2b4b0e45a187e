// MSP302 config-range-syntax: `rank` and `step` lists msProbe cannot parse
// (the entry syntax itself is config_check.h's range_entry_problem, shared
// with the generator and the editors' input checks).
#include "config/config_walk.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks `rank` and `step`: each must be a list whose entries are integers from 0 to 1000000, or
strings `"N"` or `"A-B"` (an inclusive range with A <= B). msProbe 8.x reads a string only as an
`"A-B"` range: with an 8.x target, `"0"` or `"7"` are errors (write the number; a quick fix does).

## Why it matters
msProbe parses both lists when the debugger is built and stops on anything else, for example
"rank is invalid, it should be a list", "The hyphen(-) must start and end with decimal numbers" or
"the left boundary (5) cannot be greater than the right boundary (3)".

## Example
```json
{"rank": 0, "step": ["5-3", "-2"], "dump_path": "/data/dump"}
```

## Fix
Write lists: `"rank": [0]`, `"step": ["3-5"]`. `[]` means every rank or step.

## Source
msprobe-facts §1.4.
)md";

constexpr long long kRangeMax = 1000000;

void check_list(const config::MemberRef& m, bool v8, FindingSink& sink) {
  using config::JsonKind;
  const config::JsonValue& v = m.value();
  const std::string& name = m.key();
  auto error = [&](ByteRange r, std::string message) {
    sink.report(config::make_finding("MSP302", Severity::Error, r, std::move(message)));
  };
  if (v.is(JsonKind::Null)) return;
  if (!v.is(JsonKind::Array)) {
    return error(v.range, config::quoted(name) + " should be a list such as [] or [0, 1, \"4-6\"], not " +
                              config::to_string(v.kind) + " (\"" + name + " is invalid, it should be a list\")");
  }
  if (v.items.size() > static_cast<std::size_t>(kRangeMax))
    error(v.range, config::quoted(name) + " has more than 1000000 entries");
  for (const config::JsonValue& item : v.items) {
    config::RangeEntry e;
    if (item.is(JsonKind::Number) && item.integer) {
      e.number = item.int_fits ? item.int_value : (item.text[0] == '-' ? -1 : kRangeMax + 1);
    } else if (item.is(JsonKind::String)) {
      e.is_int = false;
      e.text = item.text;
    } else {
      error(item.range,
            name + " entries must be integers or strings such as \"4-6\", not " + config::to_string(item.kind));
      continue;
    }
    std::string problem = config::range_entry_problem(e, name);
    if (!problem.empty()) {
      error(item.range, problem);
      continue;
    }
    if (v8 && !e.is_int && e.text.find('-', 1) == std::string::npos) {
      // 8.3.3 takes a string only as an "A-B" range; 26.0 also reads "N".
      std::string digits = e.text;
      digits.erase(0, digits.find_first_not_of(" \t"));
      digits.erase(digits.find_last_not_of(" \t") + 1);
      bool plain = !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
      std::vector<Fix> fixes;
      if (plain) fixes.push_back(config::replace_fix("Write " + digits + " as a number", item.range, digits));
      sink.report(config::make_finding("MSP302", Severity::Error, item.range,
                                       "msProbe 8.x reads a string in " + name +
                                           " only as an \"A-B\" range and rejects " + config::quoted(e.text) +
                                           (plain ? ": write it as the number " + digits : "") + " (26.x accepts it)",
                                       std::move(fixes)));
    }
  }
}

void check_config(const config::ConfigContext& ctx, FindingSink& sink) {
  for (const config::MemberRef& m : ctx.members) {
    if (m.role == config::MemberRole::Field && m.top_level() && (m.key() == "rank" || m.key() == "step"))
      check_list(m, ctx.version == config::ConfigVersion::V8, sink);
  }
}

}  // namespace

extern const Rule msp302_config_range_syntax{{"MSP302", "config-range-syntax", "A rank/step entry msProbe cannot parse",
                                              Severity::Error, FixAvailability::Sometimes, kDocs},
                                             nullptr,
                                             &check_config};

}  // namespace msprobe::analysis
