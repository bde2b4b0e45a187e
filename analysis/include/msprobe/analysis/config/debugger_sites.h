// The Python side of the config rules: where a script builds PrecisionDebugger
// (found from FileFacts::calls), which config file it names, the calls of
// start() on it, and whether the script sets up torch.distributed. Kept small
// on purpose: the general msProbe call facts live elsewhere (msprobe_api.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis::config {

struct DebuggerSite {
  int call = -1;                           // index into FileFacts::calls
  std::vector<std::string> variables;      // names it is assigned to ("debugger", "self.debugger")
  bool has_config_arg = false;             // config_path given (keyword or first positional)
  std::optional<std::string> config_path;  // its value, when it is a plain string literal
  ByteRange config_arg;                    // the argument's value
  std::optional<std::string> level, task;  // constructor arguments that override the file
  bool dump_path_arg = false;
};

std::vector<DebuggerSite> find_debugger_sites(const FileFacts& facts);

// `debugger.<method>(...)` calls (or `PrecisionDebugger.<method>(...)`), as indices into FileFacts::calls.
std::vector<int> find_debugger_calls(const FileFacts& facts, const std::vector<DebuggerSite>& sites,
                                     std::string_view method);
inline std::vector<int> find_start_calls(const FileFacts& facts, const std::vector<DebuggerSite>& sites) {
  return find_debugger_calls(facts, sites, "start");
}
bool call_has_model(const Call& call);

// The level and task the debugger built at `site` runs with: its constructor
// arguments over the config file it names (read through the resolver), over
// msProbe's defaults (L1, statistics). `known` is false when the file cannot
// be read and the constructor does not say.
struct EffectiveConfig {
  std::string level = "L1", task = "statistics";
  std::string source;  // what set the level: "\"./config.json\"", "PrecisionDebugger(level=...)", or empty
  bool known = true;
};
EffectiveConfig effective_config(const AnalysisOptions& options, const DebuggerSite& site);
const Argument* keyword(const Call& call, std::string_view name);

// The value of a plain Python string literal ('x', "x", r"x", """x"""); nullopt
// for f-strings, bytes, concatenations and anything else.
std::optional<std::string> python_string_literal(std::string_view text);

// True when the script initialises torch.distributed itself or uses a library
// that does (DeepSpeed, Accelerate, Megatron, Lightning, transformers ...).
bool uses_distributed(const FileFacts& facts);

}  // namespace msprobe::analysis::config
