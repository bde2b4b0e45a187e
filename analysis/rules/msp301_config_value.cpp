// MSP301 config-value: the type and value of every config.json field msProbe
// reads, for the target msProbe version (rank/step, dump_path and the
// cross-field rules have rules of their own).
#include "config/config_walk.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks the type and the value of every config.json field msProbe reads, for the target msProbe
version (`msprobe.msprobeVersion`, 26.x by default): `task`, `level`, `async_dump`, `extra_info`,
`precision`, `risk_level`, and in the task's block `scope` (two names), `list`, `data_mode`
(`all` alone, at most 4 entries), `summary_mode`, `slice`, `diff_nums`, ... A task that exists only
in the other version (`overflow_check` on 26.x, `nan_check` on 8.x) is reported too.

`"task": ""`, `"level": ""` and `"level": null` are a warning, not an error: msProbe runs them
with its defaults (statistics, L1), which the message names.

## Why it matters
msProbe checks these values when the debugger is built and stops with
`[msprobe] Invalid parameter` (for example "level is invalid, it should be one of [...]"), or, for
`scope`, fails later when the hooks run.

## Example
```json
{"task": "statistics", "level": "l1", "async_dump": "false", "dump_path": "/data/dump"}
```

## Fix
Use one of the listed values (`"L1"`), and JSON booleans without quotes (`false`). A quick fix is
offered when the intended value is clear.

## Source
msprobe-facts §1.1 and §1.2.
)md";

using config::JsonKind;
using config::JsonValue;
using config::quoted;

class ValueCheck {
 public:
  ValueCheck(const config::ConfigContext& ctx, FindingSink& sink) : ctx_(ctx), sink_(sink) {}

  void run() {
    for (const config::MemberRef& m : ctx_.members) {
      if (m.role == config::MemberRole::Block && !m.value().is(JsonKind::Object)) {
        error(m.value().range, "the " + quoted(m.key()) + " block should be an object, not " +
                                   std::string(config::to_string(m.value().kind)));
        continue;
      }
      if (m.role != config::MemberRole::Field) continue;
      const config::FieldSpec& f = *m.field;
      if (m.top_level()) {
        if ((f.name == "task" || f.name == "level") && config::falls_back_to_default(m.value(), f.name == "level"))
          defaulted(f, m.value());
        else if (f.name == "task") task(m.value());
        else if (f.name != "dump_path" && f.name != "rank" && f.name != "step") value(f, m.value());
        continue;
      }
      value(f, m.value());
      if (f.name == "error_data_path") existing_directory(f, m.value());
    }
  }

 private:
  void error(ByteRange r, std::string message, std::vector<Fix> fixes = {}) {
    sink_.report(config::make_finding("MSP301", Severity::Error, r, std::move(message), std::move(fixes)));
  }

  // 8.3.3 and 26.0 both run `"task": ""`, `"level": ""` and `"level": null`
  // with their defaults; the file probably meant something else.
  void defaulted(const config::FieldSpec& f, const JsonValue& v) {
    std::string def = f.name == "task" ? "statistics" : "L1";
    sink_.report(config::make_finding("MSP301", Severity::Warning, v.range,
                                      quoted(f.name) + " is " + (v.is(JsonKind::Null) ? "null" : "empty") +
                                          ": msProbe runs with its default " + quoted(def) + "; write " + quoted(def) +
                                          " or the " + std::string(f.name) + " you want",
                                      {config::replace_fix("Write the default " + quoted(def), v.range, quoted(def))}));
  }

  std::vector<std::string> allowed_values(const config::FieldSpec& f) const {
    std::vector<std::string> out;
    if (f.name == "task" && f.block.empty()) {
      for (const config::TaskSpec* t : config::tasks_of(ctx_.version)) out.emplace_back(t->name);
      return out;
    }
    for (const config::EnumValue& e : f.values) {
      if (config::in_version(e.versions, ctx_.version)) out.emplace_back(e.name);
    }
    return out;
  }

  void type_error(const config::FieldSpec& f, const JsonValue& v, std::string extra = {}) {
    std::vector<Fix> fixes;
    if (f.type == config::FieldType::Bool && v.is(JsonKind::String) && (v.text == "true" || v.text == "false"))
      fixes.push_back(config::replace_fix("Write " + v.text + " without quotes", v.range, v.text));
    error(v.range,
          quoted(f.name) + " should be " + config::to_string(f.type) + ", not " + config::to_string(v.kind) + extra,
          fixes);
  }

  void enum_value(const config::FieldSpec& f, const JsonValue& v) {
    if (f.values.empty()) return;
    const config::EnumValue* e = f.value(v.text);
    if (e && config::in_version(e->versions, ctx_.version)) return;
    if (e) {
      error(v.range, quoted(f.name) + " " + quoted(v.text) + " needs msProbe " + config::versions_text(e->versions) +
                         ctx_.version_hint());
      return;
    }
    auto allowed = allowed_values(f);
    std::string best = config::did_you_mean(v.text, allowed);
    std::vector<Fix> fixes;
    std::string msg = quoted(v.text) + " is not a valid " + std::string(f.name) + ": use one of " +
                      config::join(allowed);
    if (!best.empty()) {
      msg = quoted(v.text) + " is not a valid " + std::string(f.name) + "; did you mean " + quoted(best) +
            "? (one of " + config::join(allowed) + ")";
      fixes.push_back(config::replace_fix("Change to " + quoted(best), v.range, quoted(best)));
    }
    error(v.range, msg, fixes);
  }

  void task(const JsonValue& v) {
    const config::FieldSpec& f = *config::find_field("", "task");
    if (!v.is(JsonKind::String)) return type_error(f, v);
    const config::TaskSpec* t = config::find_task(v.text);
    if (!t) return enum_value(f, v);
    if (t->mindspore_only)
      return error(v.range, "task " + quoted(v.text) + " is MindSpore only; the PyTorch dump rejects it");
    if (!config::in_version(t->versions, ctx_.version)) {
      std::string msg = "task " + quoted(v.text) + " does not exist in msProbe " + config::to_string(ctx_.version);
      if (!t->other_version.empty()) msg += " (" + std::string(t->other_version) + ")";
      error(v.range, msg + ctx_.version_hint());
    }
  }

  void value(const config::FieldSpec& f, const JsonValue& v) {
    switch (f.type) {
      case config::FieldType::String:
        if (!v.is(JsonKind::String)) return type_error(f, v);
        return enum_value(f, v);
      case config::FieldType::Bool:
        if (!v.is(JsonKind::Bool)) return type_error(f, v, "; msProbe rejects anything but a JSON boolean");
        return;
      case config::FieldType::Int:
        if (!v.is_int() || !v.int_fits) return type_error(f, v);
        if (f.int_rule == config::IntRule::Positive && v.int_value <= 0)
          error(v.range, quoted(f.name) + " must be a positive integer");
        if (f.int_rule == config::IntRule::PositiveOrMinusOne && v.int_value <= 0 && v.int_value != -1)
          error(v.range, quoted(f.name) + " must be -1 (no limit) or a positive integer");
        return;
      case config::FieldType::StringList: return string_list(f, v);
      case config::FieldType::SliceList: return slice_list(f, v);
      case config::FieldType::NumberList: return number_list(f, v);
      case config::FieldType::RankStepList: return;
    }
  }

  void string_list(const config::FieldSpec& f, const JsonValue& v) {
    if (!v.is(JsonKind::Array)) return type_error(f, v);
    bool all = false;
    for (const JsonValue& item : v.items) {
      if (!item.is(JsonKind::String)) {
        error(item.range,
              "every entry of " + quoted(f.name) + " should be a string, not " + config::to_string(item.kind));
        continue;
      }
      enum_value(f, item);
      if (item.text == "all") all = true;
    }
    if (f.name == "data_mode") {
      if (all && v.items.size() > 1) error(v.range, "data_mode \"all\" must be the only entry");
      if (v.items.size() > 4) error(v.range, "data_mode takes at most 4 entries");
    }
    if (f.name == "scope" && !v.items.empty() && v.items.size() != 2)
      error(v.range, "scope takes exactly two names (the start and the end of the dumped interval), not " +
                         std::to_string(v.items.size()));
  }

  // Unknown keys inside a slice are MSP305's; this checks the values msProbe reads.
  void slice_list(const config::FieldSpec& f, const JsonValue& v) {
    if (!v.is(JsonKind::Array)) return type_error(f, v);
    for (const JsonValue& item : v.items) {
      if (!item.is(JsonKind::Object)) {
        error(item.range, "every slice should be an object such as {\"dim\": 0, \"begin\": 0, \"end\": 8}");
        continue;
      }
      for (const config::JsonMember& m : item.members) {
        if (m.key != "dim" && m.key != "size" && m.key != "begin" && m.key != "end") continue;
        if (!m.value.is_int() || !m.value.int_fits) {
          error(m.value.range, "slice " + quoted(m.key) + " should be an integer");
          continue;
        }
        if ((m.key == "dim" || m.key == "size") && m.value.int_value < 0)
          error(m.value.range, "slice " + quoted(m.key) + " must be >= 0");
      }
    }
  }

  void number_list(const config::FieldSpec& f, const JsonValue& v) {
    if (!v.is(JsonKind::Array)) return type_error(f, v);
    const JsonValue* prev = nullptr;
    for (const JsonValue& item : v.items) {
      if (!item.is(JsonKind::Number)) {
        error(item.range, "every entry of " + quoted(f.name) + " should be a number");
        prev = nullptr;
        continue;
      }
      if (prev && f.name == "bounds" && !(prev->number < item.number))
        error(item.range, "bounds must be in ascending order");
      prev = &item;
    }
  }

  // acc_check's error_data_path must exist when msProbe reads the config. Only
  // an absolute path can be checked here: a relative one depends on the
  // directory the run starts in.
  void existing_directory(const config::FieldSpec& f, const JsonValue& v) {
    const auto& exists = ctx_.options.directory_exists;
    if (!exists || !v.is(JsonKind::String) || v.text.empty() || v.text[0] != '/') return;
    if ((*exists)(v.text)) return;
    error(v.range, std::string(f.name) + " " + quoted(v.text) + " does not exist: msProbe stops with \"" +
                       std::string(f.name) + ": " + v.text +
                       " does not exist\"; create the directory or point at an existing one");
  }

  const config::ConfigContext& ctx_;
  FindingSink& sink_;
};

void check_config(const config::ConfigContext& ctx, FindingSink& sink) { ValueCheck(ctx, sink).run(); }

}  // namespace

extern const Rule msp301_config_value{{"MSP301", "config-value", "A config.json field has a wrong type or value",
                                       Severity::Error, FixAvailability::Sometimes, kDocs},
                                      nullptr,
                                      &check_config};

}  // namespace msprobe::analysis
