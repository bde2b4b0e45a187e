#include "docs_location.h"

#include <filesystem>
#include <system_error>

#include "uri.h"

namespace msprobe::server {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDocShare = "share/doc/msprobe-lsp";

std::string running_executable() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

std::string file_uri_of(const std::string& path) {
  std::error_code ec;
  return path.empty() ? std::string() : path_to_uri(fs::weakly_canonical(path, ec).string());
}

}  // namespace

std::vector<std::string> shipped_file_candidates(const std::string& exe_path, const std::string& name,
                                                 const std::string& share_dir, const std::string& source_dir) {
  std::vector<std::string> out;
  if (!exe_path.empty()) {
    fs::path dir = fs::path(exe_path).parent_path();
    out.push_back((dir / name).string());
    out.push_back((dir.parent_path() / share_dir / name).string());
  }
  out.push_back((fs::path(source_dir) / name).string());
  return out;
}

std::string find_shipped_file(const std::string& name, const std::string& share_dir, const std::string& source_dir) {
  std::error_code ec;
  for (const std::string& c : shipped_file_candidates(running_executable(), name, share_dir, source_dir)) {
    if (fs::is_regular_file(c, ec)) return c;
  }
  return std::string();
}

std::vector<std::string> rules_doc_candidates(const std::string& exe_path) {
  return shipped_file_candidates(exe_path, "rules.md", kDocShare, MSPROBE_LSP_DOCS_DIR);
}

const std::string& rules_doc_uri() {
  static const std::string uri = file_uri_of(find_shipped_file("rules.md", kDocShare, MSPROBE_LSP_DOCS_DIR));
  return uri;
}

const std::string& reference_doc_uri() {
  static const std::string uri = file_uri_of(
      find_shipped_file("msprobe-reference.md", kDocShare, MSPROBE_LSP_DOCS_DIR));
  return uri;
}

std::string verify_runner_path() {
  return find_shipped_file("msprobe_verify_runner.py", "share/msprobe-lsp", MSPROBE_LSP_RUNNER_DIR);
}

}  // namespace msprobe::server
