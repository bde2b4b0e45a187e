// What `msprobe-lsp check` needs for config files: a resolver that reads the
// config a script names from disk (so MSP205/MSP306/MSP307 work in CI), and
// the findings of a config.json given on the command line.
#include <filesystem>

#include "cli.h"
#include "config_paths.h"
#include "msprobe/analysis/config/config_check.h"

namespace msprobe::cli {
namespace fs = std::filesystem;

analysis::AnalysisOptions with_config_resolver(const analysis::AnalysisOptions& options, const std::string& script) {
  analysis::AnalysisOptions o = options;
  std::error_code ec;
  std::string cwd = fs::current_path(ec).string();
  std::string dir = fs::path(server::absolute_path(script, cwd)).parent_path().string();
  o.config_resolver = std::make_shared<const analysis::ConfigResolver>([dir, cwd](const std::string& p) {
    analysis::ConfigLookup l;
    l.searched = server::config_candidates(p, dir, {cwd});
    l.path = l.searched.empty() ? p : l.searched.front();
    for (const auto& c : l.searched) {
      std::string text;
      if (server::read_small_file(c, text)) {
        l.found = true;
        l.path = c;
        l.text = std::make_shared<const std::string>(std::move(text));
        return l;
      }
      std::error_code e;
      if (fs::is_regular_file(c, e)) {
        l.found = true;
        l.path = c;
        return l;
      }
    }
    return l;
  });
  return o;
}

bool is_config_path(const std::string& path) { return fs::path(path).extension() == ".json"; }

std::vector<analysis::Finding> config_file_findings(const std::string& text, const analysis::AnalysisOptions& options) {
  return analysis::config::check_config(text, options);
}

}  // namespace msprobe::cli
