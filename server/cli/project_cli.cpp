// Loading a project for the command line (see project_cli.h).
#include "cli/project_cli.h"

#include <filesystem>
#include <thread>

#include "cli.h"

namespace msprobe::cli {
namespace fs = std::filesystem;

std::string project_path(const CliProject& p, const std::string& rel) { return (fs::path(p.root) / rel).string(); }

std::string project_file(const CliProject& p, const std::string& path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  if (ec) return "";
  std::string rel = analysis::project_relative(p.root, abs.lexically_normal().string());
  if (rel.empty() && fs::exists(fs::path(p.root) / path, ec)) rel = fs::path(path).lexically_normal().generic_string();
  return rel;
}

CliProject load_project(const std::string& file, const std::string& root_option) {
  CliProject p;
  std::error_code ec;
  fs::path abs = fs::absolute(file, ec).lexically_normal();
  if (ec) {
    p.error = file + ": " + ec.message();
    return p;
  }
  if (!root_option.empty()) {
    fs::path root = fs::absolute(root_option, ec).lexically_normal();
    if (ec || !fs::is_directory(root, ec)) {
      p.error = "--project " + root_option + ": not a folder";
      return p;
    }
    p.root = root.string();
  } else {
    p.root = analysis::find_project_root(abs.string());
  }
  while (p.root.size() > 1 && p.root.back() == '/') p.root.pop_back();
  p.rel = analysis::project_relative(p.root, abs.string());
  if (p.rel.empty()) {
    p.error = file + " is not inside the project " + p.root;
    return p;
  }
  std::string root = p.root;
  p.read = [root](const std::string& rel) -> std::optional<std::string> {
    std::string text, error;
    if (!read_file((fs::path(root) / rel).string(), text, error)) return std::nullopt;
    return text;
  };
  analysis::ScanResult scan = analysis::scan_project(p.root);
  p.skipped = scan.skipped;
  if (scan.truncated) p.skipped.push_back("the project has more files than the index takes; the rest is left out");
  // The file asked about is always part of it (a file named on the command line is read even in a skipped folder).
  if (std::find(scan.files.begin(), scan.files.end(), p.rel) == scan.files.end()) {
    scan.files.push_back(p.rel);
    std::sort(scan.files.begin(), scan.files.end());
  }
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  p.snapshot = analysis::index_project(p.root, scan, p.read, threads, &p.skipped);
  return p;
}

}  // namespace msprobe::cli
