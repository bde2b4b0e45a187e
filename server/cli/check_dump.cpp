// `msprobe-lsp check-dump CONFIG`: did the run dump what the config asks for?
// Exit 0 when it looks complete, 1 when something is missing, 2 on errors.
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "config_paths.h"
#include "dump_check.h"

namespace msprobe::cli {

int run_check_dump(const Args& args) {
  if (!args.errors.empty() || args.positional.size() != 1) {
    for (const auto& e : args.errors) std::cerr << "msprobe-lsp check-dump: " << e << "\n";
    std::cerr << "usage: msprobe-lsp check-dump [--format text|json] [--msprobe-version V] [--base DIR] CONFIG\n"
                 "  a relative dump_path is looked for under --base, the config's directory and the current one\n";
    return 2;
  }
  std::string format = args.get("--format", "text");
  if (format != "text" && format != "json") {
    std::cerr << "msprobe-lsp check-dump: --format must be text or json\n";
    return 2;
  }
  std::string config = args.positional.front();
  std::string text, error;
  if (!read_file(config, text, error)) {
    std::cerr << "msprobe-lsp check-dump: " << error << "\n";
    return 2;
  }
  std::error_code ec;
  std::string cwd = std::filesystem::current_path(ec).string();
  std::string config_abs = server::absolute_path(config, cwd);
  std::vector<std::string> bases;
  if (args.has("--base")) bases.push_back(server::absolute_path(args.get("--base"), cwd));
  bases.push_back(std::filesystem::path(config_abs).parent_path().string());
  bases.push_back(cwd);
  server::DumpReport r = server::check_dump(config_abs, text, bases, analysis_options(args));
  if (format == "json") std::cout << server::to_json(r).dump(2) << "\n";
  else std::cout << server::to_text(r);
  if (!r.error.empty()) return 2;
  return r.ok ? 0 : 1;
}

}  // namespace msprobe::cli
