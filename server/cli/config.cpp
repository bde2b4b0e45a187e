// `msprobe-lsp config`: writes a config.json from flags, with the same
// defaults and checks as the editor command. Without --output it prints the
// JSON; with it, the file is written atomically and an existing one is only
// replaced with --force.
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "config_paths.h"
#include "file_io.h"
#include "msprobe/analysis/config/config_generate.h"

namespace msprobe::cli {
namespace cfg = analysis::config;

namespace {

constexpr const char* kUsage =
    "usage: msprobe-lsp config [--task T] [--level L] [--rank R] [--step S] --dump-path P\n"
    "                          [--async-dump true|false] [--extra-info true|false] [--msprobe-version V]\n"
    "                          [--output FILE [--force]]\n"
    "  R, S: comma-separated integers or \"A-B\" ranges (\"0,1,4-6\"), or a JSON list; empty = all\n"
    "  defaults: task statistics, level L1, rank [], step [], async_dump false, extra_info true (26.x)\n";

bool parse_bool(const std::string& s, bool& out) {
  if (s == "true" || s == "1" || s == "yes") return out = true, true;
  if (s == "false" || s == "0" || s == "no") return out = false, true;
  return false;
}

}  // namespace

int run_config(const Args& args) {
  std::vector<std::string> errors = args.errors;
  if (!args.positional.empty()) errors.push_back("unexpected argument " + args.positional.front());
  if (!args.has("--dump-path")) errors.push_back("--dump-path is required");
  static const std::vector<std::string> known = {"--task",      "--level",      "--rank",       "--step",
                                                 "--dump-path", "--async-dump", "--extra-info", "--msprobe-version",
                                                 "--output",    "--force"};
  for (const auto& [k, v] : args.options) {
    if (std::find(known.begin(), known.end(), k) == known.end()) errors.push_back("unknown option " + k);
  }
  cfg::GenerateRequest req;
  req.task = args.get("--task", req.task);
  req.level = args.get("--level", req.task == "structure" ? "mix" : req.level);
  req.dump_path = args.get("--dump-path");
  for (const char* key : {"--rank", "--step"}) {
    if (!args.has(key)) continue;
    std::string err;
    auto list = cfg::parse_range_list(args.get(key), err);
    if (!list) errors.push_back(std::string(key) + ": " + err);
    else (std::string(key) == "--rank" ? req.rank : req.step) = *list;
  }
  if (args.has("--async-dump") && !parse_bool(args.get("--async-dump"), req.async_dump))
    errors.push_back("--async-dump must be true or false");
  if (args.has("--extra-info") && !parse_bool(args.get("--extra-info"), req.extra_info))
    errors.push_back("--extra-info must be true or false");
  analysis::AnalysisOptions options = analysis_options(args);
  if (args.has("--msprobe-version") && !options.msprobe_version) errors.push_back("--msprobe-version needs a version");
  if (!errors.empty()) {
    for (const auto& e : errors) std::cerr << "msprobe-lsp config: " << e << "\n";
    std::cerr << kUsage;
    return 2;
  }
  cfg::GeneratedConfig g = cfg::generate_config(req, options);
  if (!g.ok()) {
    for (const auto& e : g.errors) std::cerr << "msprobe-lsp config: " << e << "\n";
    return 2;
  }
  for (const auto& n : g.notes) std::cerr << "note: " << n << "\n";
  if (!args.has("--output")) {
    std::cout << g.text;
    return 0;
  }
  std::string out = args.get("--output");
  std::error_code ec;
  if (std::filesystem::exists(out, ec) && !args.has("--force")) {
    std::cerr << "msprobe-lsp config: " << out << " already exists; nothing was written (pass --force to replace it)\n";
    return 1;
  }
  if (std::filesystem::is_directory(out, ec)) {
    std::cerr << "msprobe-lsp config: " << out << " is a directory\n";
    return 2;
  }
  std::string error;
  if (!server::atomic_write(out, g.text, &error)) {
    std::cerr << "msprobe-lsp config: " << error << "\n";
    return 2;
  }
  std::cerr << "wrote " << out << "\n";
  return 0;
}

}  // namespace msprobe::cli
