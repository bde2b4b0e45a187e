// MSP304 config-combination: in config.json, the cross-field rules msProbe's
// DebuggerConfig enforces; in Python, the one combination that is about the
// script: save() calls while the debugger's level is not debug.
#include <algorithm>

#include "config/config_walk.h"
#include "msprobe/analysis/config/debugger_sites.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Checks the rules that tie fields together, as msProbe's `DebuggerConfig.check` does:
- level `L2` needs task `tensor`, an empty `scope` and exactly one API in `list`;
- `async_dump: true` needs a non-empty `list` with task tensor (except at level debug), forbids
  `summary_mode: "md5"`, and works with tasks statistics/tensor only;
- task `nan_check` needs level `L1` and rejects `data_mode` with `input` but no `output`;
- task `structure` works at level L0 or mix (others are switched to mix, with a warning);
- `slice` / `request_id` are dropped at levels L2 and debug, `tensor_list` at level debug;
- `scope` names must follow the level's naming (modules for L0, APIs for L1); a module name at
  level L1 is an error, since msProbe then stops with `ScopeException`;
- 8.x: `overflow_check` needs L0/L1, `free_benchmark` needs L1 and its own pairings.

In a Python script it reports `debugger.save(...)` while the debugger's level (from its
`config_path` file or its `level=` argument) is not `debug`, or its task is not tensor or
statistics: `save()` records nothing then.

## Why it matters
The errors stop the script when the debugger is built; the warnings mean msProbe silently changes
or ignores what the file asks for.

## Example
```json
{"task": "statistics", "level": "L2", "dump_path": "/data/dump"}
```

## Fix
Follow the message: for a kernel dump use `"task": "tensor"` with
`"tensor": {"list": ["Functional.linear.0.forward"]}`.

## Source
msprobe-facts §1.3 (rule 7 for `save()`).
)md";

void check(const RuleContext& ctx, FindingSink& sink) {
  auto sites = config::find_debugger_sites(ctx.facts);
  if (sites.empty()) return;
  config::EffectiveConfig e = config::effective_config(ctx.options, sites.front());
  if (!e.known) return;
  bool level_ok = e.level == "debug", task_ok = e.task == "tensor" || e.task == "statistics";
  if (level_ok && task_ok) return;
  std::string from = e.source.empty() ? std::string("msProbe's default") : e.source;
  for (int i : config::find_debugger_calls(ctx.facts, sites, "save")) {
    Finding f;
    f.severity = Severity::Warning;
    f.range = ctx.facts.calls[static_cast<std::size_t>(i)].range;
    f.message = !level_ok ? "save() records data only at level \"debug\", but " + from + " sets level \"" + e.level +
                                "\": nothing is saved"
                          : "save() records data only with task tensor or statistics, but the task is \"" + e.task +
                                "\": nothing is saved";
    sink.report(std::move(f));
  }
}

// ----- config.json -----

using config::JsonKind;
using config::JsonMember;
using config::JsonValue;

class Combinations {
 public:
  Combinations(const config::ConfigContext& ctx, const config::RunSettings& e, FindingSink& sink)
      : ctx_(ctx), e_(e), sink_(sink) {}

  void run() {
    const std::string& task = e_.task;
    const std::string& level = e_.level;
    if (level == "L2") l2();
    async_dump();
    if (task == "nan_check" && ctx_.version == config::ConfigVersion::V26) nan_check();
    if (task == "structure" && level != "L0" && level != "mix")
      report(Severity::Warning, e_.level_member ? e_.level_at : e_.task_at,
             "task structure works at level L0 or mix; msProbe warns and switches level " + level + " to mix");
    if (task == "statistics" || task == "tensor") data_tasks();
    if (task == "tensor" && ctx_.version == config::ConfigVersion::V26) {
      const JsonMember* bench = e_.block_member("bench_path");
      if (bench && !str(bench).empty() && str(e_.block_member("summary_mode")) != "md5")
        report(Severity::Warning, bench->key_range, "bench_path needs summary_mode \"md5\" (in both runs)");
    }
    if (ctx_.version == config::ConfigVersion::V8) combinations_8x();
  }

 private:
  void report(Severity sev, ByteRange r, std::string message) {
    sink_.report(config::make_finding("MSP304", sev, r, std::move(message)));
  }
  static long count(const JsonMember* m) {
    return m && m->value.is(JsonKind::Array) ? static_cast<long>(m->value.items.size()) : 0;
  }
  static std::string str(const JsonMember* m) {
    return m && m->value.is(JsonKind::String) ? m->value.text : std::string();
  }

  void l2() {
    if (e_.task != "tensor") {
      report(Severity::Error, e_.level_at,
             "level L2 needs task \"tensor\" (\"When level is set to L2, the task must be set to tensor.\")");
      return;
    }
    const JsonMember* scope = e_.block_member("scope");
    if (count(scope) > 0)
      report(Severity::Error, scope->value.range,
             "level L2 does not allow a scope (\"When level is set to L2, the scope cannot be configured.\")");
    const JsonMember* list = e_.block_member("list");
    if (count(list) != 1)
      report(Severity::Error, list ? list->value.range : e_.level_at,
             "level L2 needs tensor.list with exactly one API name, e.g. [\"Functional.linear.0.forward\"]");
  }

  void async_dump() {
    const JsonMember* async = ctx_.doc.root.member("async_dump");
    if (!async || !async->value.is(JsonKind::Bool) || !async->value.boolean) return;
    ByteRange at = async->value.range;
    const std::string& task = e_.task;
    if (task == "tensor" && e_.level != "debug" && count(e_.block_member("list")) == 0)
      report(Severity::Error, at,
             "async_dump with task tensor needs a non-empty tensor.list (\"the parameters list cannot be empty\")");
    if (str(e_.block_member("summary_mode")) == "md5")
      report(Severity::Error, at, "async_dump does not allow summary_mode \"md5\"");
    if (task != "statistics" && task != "tensor")
      report(Severity::Warning, at, "async_dump works with tasks statistics and tensor only");
    if (e_.level == "L2") report(Severity::Warning, at, "async_dump does not work at level L2");
    report(Severity::Hint, at,
           "msProbe warns that async_dump may cause OOM; use it when the tool's synchronisation changes results");
  }

  // The NPU requirement of nan_check is MSP308's.
  void nan_check() {
    if (e_.level != "L1") report(Severity::Error, e_.level_at, "task nan_check needs level \"L1\"");
    const JsonMember* dm = e_.block_member("data_mode");
    if (!dm || !dm->value.is(JsonKind::Array)) return;
    bool input = false, output = false;
    for (const JsonValue& item : dm->value.items) {
      if (item.text == "input") input = true;
      if (item.text == "output" || item.text == "all") output = true;
    }
    if (input && !output)
      report(Severity::Error, dm->value.range,
             "task nan_check rejects data_mode with \"input\" but without \"output\"");
  }

  void data_tasks() {
    const std::string& level = e_.level;
    if (level == "L2" || level == "debug") {
      for (const char* key : {"slice", "request_id"}) {
        const JsonMember* m = e_.block_member(key);
        bool set = m && ((m->value.is(JsonKind::Array) && !m->value.items.empty()) ||
                         (m->value.is(JsonKind::String) && !m->value.text.empty()));
        if (set)
          report(Severity::Warning, m->key_range,
                 std::string(key) + " works at levels L0, L1 and mix only; at level " + level + " msProbe drops it");
      }
    }
    if (level == "debug" && count(e_.block_member("tensor_list")) > 0)
      report(Severity::Warning, e_.block_member("tensor_list")->key_range, "tensor_list is ignored at level debug");
    if (const JsonMember* scope = e_.block_member("scope"); count(scope) == 2) scope_names(scope->value);
  }

  // L0 scope names are module names, L1 ones API names. A module name at L1
  // is an error: 8.3.3 and 26.0 both stop with ScopeException when the
  // debugger is built.
  void scope_names(const JsonValue& scope) {
    static const std::vector<std::string> kPrefixes = {
        "Distributed", "Functional", "Torch", "Tensor", "Mint", "MintFunctional",
        "Primitive",   "Aten",       "VF",    "NPU",    "Jit"};
    for (const JsonValue& item : scope.items) {
      if (!item.is(JsonKind::String)) continue;
      std::string head = item.text.substr(0, item.text.find('.'));
      bool module = head == "Module";
      bool api = std::find(kPrefixes.begin(), kPrefixes.end(), head) != kPrefixes.end();
      if (e_.level == "L0" && !module)
        report(Severity::Warning, item.range,
               "at level L0 scope names are module names such as \"Module.conv1.Conv2d.forward.0\"");
      else if (e_.level == "L1" && module)
        report(Severity::Error, item.range,
               "at level L1 the scope takes API names, and " + config::quoted(item.text) +
                   " is a module name: msProbe stops with ScopeException when the debugger is built. Use level L0 "
                   "or mix for module names, or API names such as \"Tensor.add.0.forward\"");
      else if (e_.level == "L1" && !api)
        report(Severity::Warning, item.range,
               "at level L1 scope names are API names such as \"Tensor.add.0.forward\" (prefixes: " +
                   config::join(kPrefixes) + ")");
    }
  }

  void combinations_8x() {
    const std::string& task = e_.task;
    const std::string& level = e_.level;
    auto str_or = [&](std::string_view key, std::string def) {
      const JsonMember* m = e_.block_member(key);
      return m && m->value.is(JsonKind::String) ? m->value.text : def;
    };
    if (task == "overflow_check" && level != "L0" && level != "L1")
      report(Severity::Error, e_.level_at, "task overflow_check needs level L0 or L1 with PyTorch");
    if (task != "free_benchmark") return;
    if (level != "L1") report(Severity::Error, e_.level_at, "task free_benchmark needs level L1");
    if (!e_.block) return;
    if (count(e_.block_member("scope")) > 0 && count(e_.block_member("list")) > 0)
      report(Severity::Error, e_.block_member("list")->key_range, "free_benchmark takes scope or list, not both");
    std::string device = str_or("fuzz_device", "npu"), pert = str_or("pert_mode", "improve_precision");
    std::string handler = str_or("handler_type", "check"), stage = str_or("fuzz_stage", "forward");
    auto at = [&](std::string_view key) {
      const JsonMember* m = e_.block_member(key);
      return m ? m->value.range : e_.level_at;
    };
    if ((device == "cpu") != (pert == "to_cpu"))
      report(Severity::Error, at(device == "cpu" ? "fuzz_device" : "pert_mode"),
             "fuzz_device \"cpu\" and pert_mode \"to_cpu\" go together");
    if (handler == "fix") {
      const JsonMember* preheat = e_.block_member("if_preheat");
      bool pre = preheat && preheat->value.is(JsonKind::Bool) && preheat->value.boolean;
      if (stage != "forward" || pre || (pert != "improve_precision" && pert != "to_cpu"))
        report(
            Severity::Error, at("handler_type"),
            "handler_type \"fix\" needs fuzz_stage forward, if_preheat false and pert_mode improve_precision or to_cpu");
    }
    if (stage == "backward" && (count(e_.block_member("list")) == 0 || handler != "check"))
      report(Severity::Error, at("fuzz_stage"),
             "fuzz_stage \"backward\" needs a non-empty list and handler_type \"check\"");
  }

  const config::ConfigContext& ctx_;
  const config::RunSettings& e_;
  FindingSink& sink_;
};

void check_config(const config::ConfigContext& ctx, FindingSink& sink) {
  if (ctx.effective) Combinations(ctx, *ctx.effective, sink).run();
}

}  // namespace

extern const Rule msp304_config_combination{
    {"MSP304", "config-combination", "config.json fields that do not go together", Severity::Error,
     FixAvailability::None, kDocs},
    check,
    &check_config};

}  // namespace msprobe::analysis
