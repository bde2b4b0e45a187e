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

// `debugger.start(...)` calls (or `PrecisionDebugger.start(...)`), as indices into FileFacts::calls.
std::vector<int> find_start_calls(const FileFacts& facts, const std::vector<DebuggerSite>& sites);
bool call_has_model(const Call& call);
const Argument* keyword(const Call& call, std::string_view name);

// The value of a plain Python string literal ('x', "x", r"x", """x"""); nullopt
// for f-strings, bytes, concatenations and anything else.
std::optional<std::string> python_string_literal(std::string_view text);

// True when the script initialises torch.distributed itself or uses a library
// that does (DeepSpeed, Accelerate, Megatron, Lightning, transformers ...).
bool uses_distributed(const FileFacts& facts);

}  // namespace msprobe::analysis::config
