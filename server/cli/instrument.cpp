// `msprobe-lsp enable|disable|remove FILE [--diff | --write]` and
// `msprobe-lsp vllm-ascend-flags CONFIG`: the same edits the server offers as
// code actions, printed (the new text, or a diff) or written atomically.
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "cli/project_cli.h"
#include "cli/unified_diff.h"
#include "config_lookup.h"
#include "file_io.h"
#include "msprobe/analysis/instrument.h"
#include "msprobe/analysis/project_instrument.h"

namespace msprobe::cli {
namespace {

constexpr const char* kInstrumentUsage =
    "usage: msprobe-lsp enable FILE [--project ROOT] [--entry ENTRY] [--loop LINE] [--config PATH] [--diff | --write]\n"
    "       msprobe-lsp disable FILE [--project ROOT] [--entry ENTRY] [--diff | --write]\n"
    "       msprobe-lsp remove FILE [--project ROOT] [--entry ENTRY] [--diff | --write]\n"
    "FILE is the script that is launched or the file holding the loop; the edits span the\n"
    "loop's file and the entry of the process that runs it (ROOT: --project, else the\n"
    "nearest folder with .git, pyproject.toml, setup.py or setup.cfg, else FILE's folder).\n"
    "Without --diff or --write the edited file goes to stdout (every edited file, each\n"
    "after a '# ==> PATH <==' line, when there are several); files are only changed with\n"
    "--write, all of them atomically or none.\n";

}  // namespace

int run_instrument(const std::string& command, const Args& args) {
  auto usage = [&](const std::string& why) {
    if (!why.empty()) std::cerr << "msprobe-lsp " << command << ": " << why << "\n";
    std::cerr << kInstrumentUsage;
    return 2;
  };
  for (const auto& e : args.errors) return usage(e);
  if (args.positional.size() != 1)
    return usage(args.positional.empty() ? "a FILE is needed" : "only one FILE at a time");
  if (args.has("--diff") && args.has("--write")) return usage("--diff and --write exclude each other");
  if (command != "enable" && (args.has("--loop") || args.has("--config")))
    return usage("--loop and --config are options of enable");
  const std::string& path = args.positional.front();

  analysis::ProjectPlanOptions plan_options;
  if (args.has("--loop")) {
    const std::string v = args.get("--loop");
    char* end = nullptr;
    long line = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || line < 1) return usage("--loop needs a line number (1-based)");
    plan_options.loop_line = static_cast<uint32_t>(line - 1);
  }
  {
    std::string text, error;
    if (!read_file(path, text, error)) {
      std::cerr << "msprobe-lsp " << command << ": " << error << "\n";
      return 2;
    }
  }
  CliProject project = load_project(path, args.get("--project"));
  if (!project.error.empty()) {
    std::cerr << "msprobe-lsp " << command << ": " << project.error << "\n";
    return 2;
  }
  if (args.has("--entry")) {
    plan_options.entry = project_file(project, args.get("--entry"));
    if (plan_options.entry.empty())
      return usage("--entry " + args.get("--entry") + " is not a file of the project " + project.root);
  }

  analysis::ProjectEditResult r;
  if (command == "enable") {
    analysis::InstrumentOptions options;
    // The config is looked up next to the file that builds the debugger.
    std::string why;
    std::optional<analysis::ProjectPlan> plan = analysis::plan_project(*project.snapshot, project.rel, project.read,
                                                                       plan_options, &why);
    std::string entry = plan ? project_path(project, plan->entry.construct_file) : path;
    options.config_path = server::config_path_for(entry, args.get("--config", server::kDefaultConfigPath));
    r = analysis::enable_in_project(*project.snapshot, project.rel, project.read, plan_options, options);
  } else {
    r = analysis::dump_off_in_project(
        *project.snapshot, project.rel, project.read, plan_options,
        command == "disable" ? analysis::DumpOffMode::Disable : analysis::DumpOffMode::Remove);
  }
  if (!r.ok()) {
    std::cerr << "msprobe-lsp " << command << ": " << (r.error.rfind(project.rel + ":", 0) == 0 ? "" : path + ": ")
              << r.error << "\n";
    return 1;
  }
  for (const std::string& note : r.notes) std::cerr << "note: " << note << "\n";

  std::vector<server::FileWrite> writes;
  for (const analysis::FileEdits& f : r.files) {
    std::string result = analysis::apply_edits(f.text, f.result.all_edits());
    if (result != f.text) writes.push_back({project_path(project, f.file), std::move(result), f.text});
  }
  auto rel_of = [&](const server::FileWrite& w) { return analysis::project_relative(project.root, w.path); };
  if (args.has("--diff")) {
    for (const server::FileWrite& w : writes)
      std::cout << unified_diff(w.original, w.bytes, "a/" + rel_of(w), "b/" + rel_of(w));
  } else if (args.has("--write")) {
    std::string error;
    if (!server::atomic_write_all(writes, &error)) {
      std::cerr << "msprobe-lsp " << command << ": " << error << " (no file was changed)\n";
      return 2;
    }
    std::cerr << path << ": " << (writes.empty() ? "unchanged: " : "") << r.summary << "\n";
  } else if (writes.size() <= 1 && (writes.empty() || rel_of(writes.front()) == project.rel)) {
    if (writes.empty()) {
      std::string text, error;
      read_file(path, text, error);
      std::cout << text;
    } else {
      std::cout << writes.front().bytes;
    }
  } else {
    for (const server::FileWrite& w : writes) std::cout << "# ==> " << rel_of(w) << " <==\n" << w.bytes;
  }
  return 0;
}

int run_vllm_ascend_flags(const Args& args) {
  if (!args.errors.empty() || args.positional.size() != 1) {
    std::cerr << "usage: msprobe-lsp vllm-ascend-flags CONFIG.json\n";
    return 2;
  }
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(args.positional.front(), ec);
  if (ec) {
    std::cerr << "msprobe-lsp vllm-ascend-flags: " << ec.message() << "\n";
    return 2;
  }
  std::cout << analysis::vllm_ascend_flags(p.lexically_normal().string()) << "\n";
  if (!std::filesystem::is_regular_file(p, ec)) {
    // The flag is still printed (the file may be written later), but vLLM
    // would fail at start-up today.
    std::cerr << "msprobe-lsp vllm-ascend-flags: warning: " << p.lexically_normal().string()
              << " does not exist yet (create it with `msprobe-lsp config --output`)\n";
    return 1;
  }
  return 0;
}

}  // namespace msprobe::cli
