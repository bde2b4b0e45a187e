// `msprobe-lsp schema [--msprobe-version V]`: the config.json JSON Schema.
#include <iostream>

#include "cli.h"
#include "config_schema_json.h"

namespace msprobe::cli {

int run_schema(const Args& args) {
  if (!args.errors.empty() || !args.positional.empty()) {
    for (const auto& e : args.errors) std::cerr << "msprobe-lsp schema: " << e << "\n";
    std::cerr << "usage: msprobe-lsp schema [--msprobe-version V]\n";
    return 2;
  }
  analysis::AnalysisOptions options = analysis_options(args);
  if (args.has("--msprobe-version") && !options.msprobe_version) {
    std::cerr << "msprobe-lsp schema: --msprobe-version needs a version such as 26.0.0 or 8.3.3\n";
    return 2;
  }
  std::cout << server::config_json_schema(analysis::config::version_of(options)).dump(2) << "\n";
  return 0;
}

}  // namespace msprobe::cli
