// The rule interface: metadata (which drives hover, codeDescription and the
// generated rule reference), a check over a Python file's FileFacts and, for
// the config rules, a check over a config.json (config/config_walk.h).
#pragma once

#include <functional>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/config/config_inputs.h"
#include "msprobe/analysis/dynamo.h"
#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/source.h"
#include "msprobe/analysis/version.h"

namespace msprobe::analysis {

namespace config {
class ConfigContext;
}

enum class FixAvailability { None, Sometimes, Always };

struct RuleMeta {
  std::string_view code;     // "MSP101"
  std::string_view name;     // "dynamo-in-dump"
  std::string_view summary;  // one line
  Severity severity;         // default
  FixAvailability fix;
  std::string_view docs;  // Markdown: What it does / Why / Example / Fix
};

// What the user told us about their environment and preferences.
struct AnalysisOptions {
  std::optional<Version> torch_version;
  std::optional<Version> msprobe_version;
  std::set<std::string> disabled_rules;
  std::map<std::string, Severity> severity_overrides;
  std::string config_path = "./config.json";  // what an inserted PrecisionDebugger points at
  // Reads the config file a script names (config/config_inputs.h); null: cross-file rules stay silent.
  std::shared_ptr<const ConfigResolver> config_resolver;
  // Whether a directory exists (the server's and the CLI's file system); null:
  // checks that need it (acc_check's error_data_path) stay silent.
  std::shared_ptr<const std::function<bool(const std::string&)>> directory_exists;
  // What the environment probe found about Ascend NPU support (unset: not probed).
  std::optional<bool> torch_npu_importable;
  std::optional<bool> npu_available;

  bool msprobe_is_8x() const { return msprobe_version && msprobe_version->major < 26; }
};

class FindingSink {
 public:
  explicit FindingSink(std::vector<Finding>& out) : out_(out) {}
  void report(Finding f) { out_.push_back(std::move(f)); }

 private:
  std::vector<Finding>& out_;
};

// What the rest of a project says about the file being checked (null when
// the file is checked alone): the rules that depend on other files read it.
struct ProjectView {
  // A launched script (or a worker it starts) runs this file's start/stop/step
  // calls: `dump_entry` is the first such script (relative to the project root).
  bool dump_calls_reached = false;
  std::string dump_entry;
  // ... and builds the PrecisionDebugger in that process (`builder`).
  bool debugger_built_by_entry = false;
  std::string builder;

  // Calls of this file that run code of other modules, by the call's first
  // byte: what that code does, as effects.h's bits (a forward, backward or
  // step; msProbe's start/stop/step, construction, seed_all).
  std::map<uint32_t, uint16_t> call_effects;
  // Worker functions of other modules that this file's launch calls (by the
  // call's first byte) start in new processes, and that run a loop or
  // start(): "main_worker() in worker.py".
  std::map<uint32_t, std::string> launched_workers;
  // A launched script that imports this module (directly or through other
  // project modules) before it builds the debugger: "train.py" and the
  // 0-based line of its construction. Names this module binds from torch at
  // import time then escape msProbe's wrappers.
  std::string imported_before_construction;
  uint32_t construction_line = 0;
  uint16_t effects_of(ByteRange call) const {
    auto it = call_effects.find(call.start);
    return it == call_effects.end() ? 0 : it->second;
  }
};

struct RuleContext {
  const SourceText& source;
  const FileFacts& facts;
  const AnalysisOptions& options;
  const ProjectView* project = nullptr;
  // find_dynamo_sites over these facts when the caller has it (the module
  // summary was built from it), else null.
  const std::vector<DynamoSite>* known_dynamo_sites = nullptr;
  std::string_view text(ByteRange r) const { return source.view().substr(r.start, r.end - r.start); }
  // find_dynamo_sites over this file, found on the first ask: MSP101 and
  // MSP106 both read it. A context lives for one check_facts on one thread.
  const std::vector<DynamoSite>& dynamo_sites() const;
  // Filled by dynamo_sites(); public only so the context stays an aggregate.
  mutable std::optional<std::vector<DynamoSite>> dynamo_sites_ = std::nullopt;
};

struct Rule {
  RuleMeta meta;
  void (*check)(const RuleContext&, FindingSink&);  // Python files; null for config-only rules
  void (*check_config)(const config::ConfigContext&, FindingSink&) = nullptr;  // config.json files
};

// Every registered rule, in code order.
const std::vector<const Rule*>& all_rules();
const Rule* find_rule(std::string_view code);

}  // namespace msprobe::analysis
