#include "docs_location.h"

#include <filesystem>
#include <system_error>

#include "uri.h"

namespace msprobe::server {

namespace fs = std::filesystem;

std::vector<std::string> rules_doc_candidates(const std::string& exe_path) {
  std::vector<std::string> out;
  if (!exe_path.empty()) {
    fs::path dir = fs::path(exe_path).parent_path();
    out.push_back((dir / "rules.md").string());
    out.push_back((dir.parent_path() / "share" / "doc" / "msprobe-lsp" / "rules.md").string());
  }
  out.push_back(std::string(MSPROBE_LSP_DOCS_DIR) + "/rules.md");
  return out;
}

const std::string& rules_doc_uri() {
  static const std::string uri = [] {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    for (const std::string& c : rules_doc_candidates(ec ? std::string() : exe.string())) {
      if (fs::is_regular_file(c, ec)) return path_to_uri(fs::weakly_canonical(c, ec).string());
    }
    return std::string();
  }();
  return uri;
}

}  // namespace msprobe::server
