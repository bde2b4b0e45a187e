// The command line: `msprobe-lsp check|rules|explain|enable|disable|remove|config|check-dump|verify|schema`.
// Same engine as the server, no LSP involved.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/analysis/rule.h"

namespace msprobe::cli {

// Parsed `--flag value` / `--flag=value` options and positional arguments.
struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // "--format" -> "json"
  std::vector<std::string> errors;

  bool has(const std::string& k) const { return options.count(k) != 0; }
  std::string get(const std::string& k, const std::string& def = "") const {
    auto it = options.find(k);
    return it == options.end() ? def : it->second;
  }
};

// `flags` are options that take no value.
Args parse_args(int argc, char** argv, int first, const std::vector<std::string>& flags);

// Analysis options from --torch-version, --msprobe-version, --disable, --config.
analysis::AnalysisOptions analysis_options(const Args& args);

// Reads a whole file; false with `error` set on failure.
bool read_file(const std::string& path, std::string& out, std::string& error);

int run_check(const Args& args);
int run_config(const Args& args);  // cli/config.cpp
// cli/config_files.cpp: config.json support for `check`.
analysis::AnalysisOptions with_config_resolver(const analysis::AnalysisOptions& options, const std::string& script);
bool is_config_path(const std::string& path);
std::vector<analysis::Finding> config_file_findings(const std::string& text, const analysis::AnalysisOptions& options);
int run_check_dump(const Args& args);  // cli/check_dump.cpp
int run_schema(const Args& args);      // cli/schema.cpp
int run_rules(const Args& args);
// enable / disable / remove (`command`), in instrument.cpp.
int run_instrument(const std::string& command, const Args& args);
int run_vllm_ascend_flags(const Args& args);
int run_explain(const Args& args);
int run_verify(const Args& args);  // cli/verify.cpp

// Returns the exit code, or nullopt when argv[1] is not a CLI command.
// True for the names of the subcommands run() handles.
bool is_command(const std::string& name);
std::optional<int> run(int argc, char** argv);

}  // namespace msprobe::cli
