// The plan of `msprobe-lsp verify`'s short run, without running anything:
// what to run (a script, `-m module`, or a launcher we only print a command
// for), the copy of the config limited to the first N steps, the directory
// the short run dumps into, and the runner's command line. Kept apart from
// the CLI glue so each piece is tested on its own.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace msprobe::server {

// What the user asked to run: SCRIPT ARGS..., -m MODULE ARGS..., or a
// launcher (torchrun, deepspeed, accelerate launch, python -m
// torch.distributed.run) followed by its own options and the script.
struct RunTarget {
  bool module = false;
  std::string target;             // script path or module name
  std::vector<std::string> args;  // the script's arguments
  // The launcher and its options, before the script; empty when none. It
  // starts with "-m" for `python -m torch.distributed.run`: the interpreter goes first.
  std::vector<std::string> launcher;
};

// Reads verify's positional arguments; nullopt with `error` set when they do not name something to run.
std::optional<RunTarget> parse_run_target(const std::vector<std::string>& positional, std::string& error);

// The file a module name stands for under `cwd` (pkg/mod.py or
// pkg/mod/__main__.py), "" when it is not there.
std::string module_file(const std::string& module, const std::string& cwd);

// The user's config with "step" limited to [0 .. steps-1] and "dump_path"
// set to `dump_dir`, every other key kept in its order; nullopt with `error`
// when the text is not a JSON object.
std::optional<std::string> short_run_config(const std::string& config_text, int steps, const std::string& dump_dir,
                                            std::string& error);

// Where the short run dumps: `<dump_path>_verify` beside the config's
// dump_path (relative ones resolved against `cwd`), or
// `<cwd>/msprobe_verify_dump` when the config has none. Never the user's
// dump_path itself, so an earlier dump there is not overwritten.
std::string short_run_dump_dir(const std::string& config_text, const std::string& cwd);

// Makes `dir` ready for a run: created when missing; emptied when a
// previous verify made it (it holds our marker file); refused (false, with
// `error`) when it holds anything else.
bool prepare_dump_dir(const std::string& dir, std::string& error);
inline constexpr const char* kDumpDirMarker = ".msprobe-lsp-verify";

// The runner's arguments after the interpreter: RUNNER --config ... -- SCRIPT ARGS.
std::vector<std::string> runner_arguments(const std::string& runner, const std::string& config_copy, int steps,
                                          const std::string& dump_dir, const std::string& status_file,
                                          const RunTarget& target);

// A command line for a shell: words quoted where needed.
std::string shell_command(const std::vector<std::string>& words);

}  // namespace msprobe::server
