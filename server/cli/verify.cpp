// `msprobe-lsp verify SCRIPT`: the short run of step 6 of the workflow. It
// runs the script under the shipped runner with every PrecisionDebugger
// pointed at a copy of the config limited to the first N steps (dumping
// beside the config's dump_path, never into it), ends the run after the N-th
// step(), then prints the check-dump report of what the run wrote. The
// user's files are not touched. Exit 0 when the dump looks complete, 1 when
// not, 2 on usage errors (and for launchers, whose command line is printed).
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "child_process.h"
#include "cli.h"
#include "config_paths.h"
#include "docs_location.h"
#include "dump_check.h"
#include "file_io.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/debugger_sites.h"
#include "short_run.h"

namespace msprobe::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kUsage =
    "usage: msprobe-lsp verify SCRIPT [--config PATH] [--steps N] [--python PY] [--format text|json]\n"
    "                          [--dump-path DIR] [--report FILE] [--keep] [--msprobe-version V] [-- SCRIPT_ARGS...]\n"
    "       msprobe-lsp verify -m MODULE [options] [-- ARGS...]\n"
    "  runs SCRIPT with every PrecisionDebugger pointed at a copy of its config limited to the first N steps\n"
    "  (default 1), ends the run after the N-th step() and checks the dump; arguments for the script go after --.\n"
    "  For torchrun/deepspeed/accelerate launch, the command line to run is printed instead.\n";

constexpr std::size_t kErrorLinesKept = 10;

int usage(const std::string& message) {
  if (!message.empty()) std::cerr << "msprobe-lsp verify: " << message << "\n";
  std::cerr << kUsage;
  return 2;
}

int fail(const std::string& message) {
  std::cerr << "msprobe-lsp verify: " << message << "\n";
  return 2;
}

// The config a script's PrecisionDebugger names, found as `check` finds it.
std::string config_of_script(const std::string& script, const analysis::AnalysisOptions& options, std::string& error) {
  std::string text;
  if (!read_file(script, text, error)) return std::string();
  analysis::PythonParser parser;
  analysis::SourceText source(std::move(text));
  analysis::AnalysisOptions o = with_config_resolver(options, script);
  analysis::Analysis a = analysis::analyze(parser, source, o);
  auto sites = analysis::config::find_debugger_sites(a.facts);
  if (sites.empty()) {
    error = script + " builds no PrecisionDebugger: enable the dump first (msprobe-lsp enable " + script +
            " --write), or pass --config when another module builds it";
    return std::string();
  }
  const analysis::config::DebuggerSite& site = sites.front();  // a singleton: the first construction wins
  if (!site.config_path) {
    error = "PrecisionDebugger in " + script +
            (site.has_config_arg ? " computes its config_path" : " names no config_path") + ": pass --config PATH";
    return std::string();
  }
  analysis::ConfigLookup found = (*o.config_resolver)(*site.config_path);
  if (!found.found) {
    std::string where;
    for (const auto& s : found.searched) where += (where.empty() ? "" : ", ") + s;
    error = "the config \"" + *site.config_path + "\" that " + script + " names does not exist (looked for " + where +
            "); generate it (msprobe-lsp config ...) or pass --config";
    return std::string();
  }
  return found.path;
}

std::string make_temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/msprobe-verify-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  return ::mkdtemp(buf.data()) ? std::string(buf.data()) : std::string();
}

json read_status(const std::string& path) {
  std::ifstream in(path);
  if (!in) return json::object();
  json j = json::parse(in, nullptr, false);
  return j.is_object() ? j : json::object();
}

bool contains_error_marker(const std::string& line) { return line.find("[ERROR]") != std::string::npos; }

}  // namespace

int run_verify(const Args& args) {
  static const std::vector<std::string> kOptions = {"--config", "--steps",           "--python",
                                                    "--format", "--dump-path",       "--report",
                                                    "--keep",   "--msprobe-version", "--torch-version"};
  for (const auto& [name, value] : args.options) {
    if (std::find(kOptions.begin(), kOptions.end(), name) == kOptions.end())
      return usage("unknown option " + name + " (arguments for the script go after --)");
  }
  if (!args.errors.empty()) return usage(args.errors.front());
  std::string format = args.get("--format", "text");
  if (format != "text" && format != "json") return usage("--format must be text or json");
  int steps = 1;
  try {
    std::size_t used = 0;
    steps = std::stoi(args.get("--steps", "1"), &used);
    if (used != args.get("--steps", "1").size() || steps < 1) throw std::invalid_argument("steps");
  } catch (const std::exception&) {
    return usage("--steps must be a whole number of at least 1");
  }
  std::string error;
  auto target = server::parse_run_target(args.positional, error);
  if (!target) return usage(error);
  std::error_code ec;
  std::string cwd = fs::current_path(ec).string();
  std::string python = args.get("--python", "python3");
  analysis::AnalysisOptions options = analysis_options(args);
  options.config_path = "./config.json";  // --config names the config to verify here, not one to insert

  // The script (for the config lookup): a file, or the module's file under the current directory.
  std::string script_file = target->module ? server::module_file(target->target, cwd)
                                           : server::absolute_path(target->target, cwd);
  if (!target->module && !fs::is_regular_file(script_file, ec)) return fail("no such script: " + target->target);

  std::string config_path;
  if (args.has("--config")) {
    config_path = server::absolute_path(args.get("--config"), cwd);
  } else if (script_file.empty()) {
    return fail("module " + target->target + " is not a file under " + cwd + ": pass --config PATH");
  } else {
    config_path = config_of_script(script_file, options, error);
    if (config_path.empty()) return fail(error);
  }
  std::string config_text;
  if (!read_file(config_path, config_text, error)) return fail(error);
  std::string dump_dir = args.has("--dump-path") ? server::absolute_path(args.get("--dump-path"), cwd)
                                                 : server::short_run_dump_dir(config_text, cwd);
  auto copy_text = server::short_run_config(config_text, steps, dump_dir, error);
  if (!copy_text) return fail(config_path + ": " + error);
  std::string runner = server::verify_runner_path();
  if (runner.empty())
    return fail("the runner msprobe_verify_runner.py was not found beside msprobe-lsp or in its installation");
  std::string work = make_temp_dir();
  if (work.empty()) return fail("cannot create a temporary directory");
  std::string copy = work + "/config.json", status_file = work + "/status.json";
  if (!server::atomic_write(copy, *copy_text, &error)) return fail("cannot write " + copy + ": " + error);
  std::string steps_text = "[0" + std::string(steps > 1 ? " .. " + std::to_string(steps - 1) : "") + "]";

  // What msProbe would stop on, said before a possibly long start-up.
  std::vector<std::string> config_errors;
  for (const analysis::Finding& f : analysis::config::check_config(config_text, options)) {
    if (f.severity == analysis::Severity::Error) config_errors.push_back(f.code + ": " + f.message);
  }

  if (!target->launcher.empty()) {
    if (!server::prepare_dump_dir(dump_dir, error)) return fail(error);
    std::vector<std::string> words;
    if (target->launcher.front() == "-m") words.push_back(python);
    words.insert(words.end(), target->launcher.begin(), target->launcher.end());
    std::vector<std::string> runner_args = server::runner_arguments(runner, copy, steps, dump_dir, "", *target);
    words.insert(words.end(), runner_args.begin(), runner_args.end());
    std::cout << "msprobe-lsp verify runs single-process scripts; for " << target->launcher.front()
              << ", run the short run yourself (each worker stops after step() " << steps << "):\n\n  "
              << server::shell_command(words) << "\n\nthen check what it dumped:\n\n  msprobe-lsp check-dump "
              << server::shell_command({copy}) << "\n\n(config copy: " << copy << ", \"step\": " << steps_text
              << ", \"dump_path\": " << dump_dir << ")\n";
    return 2;
  }
  if (!server::prepare_dump_dir(dump_dir, error)) {
    fs::remove_all(work, ec);
    return fail(error);
  }

  std::vector<std::string> command = {python};
  std::vector<std::string> runner_args = server::runner_arguments(runner, copy, steps, dump_dir, status_file, *target);
  command.insert(command.end(), runner_args.begin(), runner_args.end());
  // The run's own output goes where the report does not: stdout for text, stderr for JSON.
  // No .pyc files are left behind in the user's folders by the short run.
  int out_fd = format == "json" ? 2 : 1;
  std::ostream& log = format == "json" ? std::cerr : std::cout;
  log << "msprobe-lsp verify: " << (target->module ? "-m " : "") << target->target << " with " << config_path
      << " limited to \"step\": " << steps_text << ", dumping into " << dump_dir << "\n";
  for (const auto& e : config_errors) log << "  config: " << e << "\n";
  log << "  " << server::shell_command(command) << "\n" << std::flush;

  std::vector<std::string> error_lines;
  long long error_total = 0;
  std::string last_stderr_line;
  server::ChildResult run = server::run_child(command, {"PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1"}, out_fd, 2,
                                              [&](int stream, const std::string& line) {
                                                if (contains_error_marker(line)) {
                                                  ++error_total;
                                                  if (error_lines.size() < kErrorLinesKept) error_lines.push_back(line);
                                                }
                                                if (stream == 2 && line.find_first_not_of(" \t\r") != std::string::npos)
                                                  last_stderr_line = line;
                                              });
  if (!run.started) {
    fs::remove_all(work, ec);
    return fail(run.error + " (--python " + python + ")");
  }
  json status = read_status(status_file);
  int built = status.value("built", 0), step_calls = status.value("steps", 0);
  bool stopped = status.value("stopped_by_runner", false);

  server::DumpReport report = server::check_dump(copy, *copy_text, {cwd}, options);
  // The estimate extrapolates to the steps of the user's config, not the copy's.
  analysis::config::ConfigSummary user = analysis::config::summarize_config(config_text);
  std::vector<long long> planned;
  if (user.step_valid && analysis::config::expand_ranges(user.step, planned, 1000000) && !planned.empty()) {
    report.planned_steps = static_cast<long long>(planned.size());
    report.planned_steps_text = analysis::config::range_list_json(user.step);
  } else {
    report.planned_steps = -1;
  }
  server::add_run_errors(report, error_lines, error_total);
  std::string outcome;
  if (stopped) {
    outcome = "ended by verify after step() returned " + std::to_string(step_calls) + " time(s)";
  } else if (run.signal) {
    outcome = "killed by signal " + std::to_string(run.signal) + " after " + std::to_string(step_calls) +
              " step() call(s)";
    report.causes.insert(report.causes.begin(), "the script was " + outcome);
  } else {
    outcome = "exited with code " + std::to_string(run.exit_code) + " after " + std::to_string(step_calls) + " of " +
              std::to_string(steps) + " step() call(s)";
    if (run.exit_code != 0)
      report.causes.insert(
          report.causes.begin(),
          "the script failed: it " + outcome + (last_stderr_line.empty() ? "" : "; last line: " + last_stderr_line));
    else if (built > 0 && step_calls == 0)
      report.causes.insert(report.causes.begin(),
                           "the script ended without calling step(): the dump of a step is "
                           "written when step() ends it");
  }
  if (status.empty() || built == 0)
    report.causes.insert(report.causes.begin(),
                         "the script never built a PrecisionDebugger (msprobe.pytorch was not imported in this "
                         "process): enable the dump first, or the debugger is built in a worker process that verify "
                         "does not start itself");
  bool ok = report.ok && built > 0 && (stopped || run.exit_code == 0) && !run.signal;
  report.ok = ok;

  json result{{"script", target->target},
              {"module", target->module},
              {"command", server::shell_command(command)},
              {"config", config_path},
              {"config_copy", copy},
              {"dump_path", dump_dir},
              {"steps", steps},
              {"run",
               {{"exit_code", run.signal ? json(nullptr) : json(run.exit_code)},
                {"signal", run.signal},
                {"outcome", outcome},
                {"step_calls", step_calls},
                {"stopped_by_runner", stopped},
                {"debugger_built", built},
                {"config_paths", status.value("config_paths", json::array())},
                {"overridden", status.value("overridden", json::array())}}},
              {"config_errors", config_errors},
              {"report", server::to_json(report)},
              {"ok", ok}};
  result["report"]["text"] = server::to_text(report);
  if (args.has("--report") &&
      !server::atomic_write(server::absolute_path(args.get("--report"), cwd), result.dump(2) + "\n", &error))
    std::cerr << "msprobe-lsp verify: cannot write the report: " << error << "\n";
  if (format == "json") {
    std::cout << result.dump(2) << "\n";
  } else {
    std::cout << "\nrun: " << outcome << "\n" << server::to_text(report);
  }
  if (!args.has("--keep")) fs::remove_all(work, ec);
  return ok ? 0 : 1;
}

}  // namespace msprobe::cli
