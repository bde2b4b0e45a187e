// Path resolution, workspace containment, globs and atomic writes.
#include "config_paths.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace msprobe::server {
namespace fs = std::filesystem;

std::string absolute_path(const std::string& path, const std::string& base) {
  fs::path p(path);
  if (p.is_relative()) p = fs::path(base) / p;
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::vector<std::string> config_candidates(const std::string& config_path, const std::string& script_dir,
                                           const std::vector<std::string>& workspace_folders) {
  std::vector<std::string> out;
  auto add = [&](const std::string& p) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  if (config_path.empty()) return out;
  if (fs::path(config_path).is_absolute()) {
    add(absolute_path(config_path, "/"));
    return out;
  }
  if (!script_dir.empty()) add(absolute_path(config_path, script_dir));
  for (const auto& f : workspace_folders) add(absolute_path(config_path, f));
  return out;
}

bool inside_folders(const std::string& path, const std::vector<std::string>& folders) {
  std::error_code ec;
  fs::path target = fs::weakly_canonical(fs::path(absolute_path(path, "/")), ec);
  if (ec) return false;
  for (const auto& f : folders) {
    fs::path root = fs::weakly_canonical(fs::path(absolute_path(f, "/")), ec);
    if (ec) continue;
    auto rel = target.lexically_relative(root);
    std::string r = rel.string();
    if (!rel.empty() && r != "." && r != ".." && r.rfind("../", 0) != 0 && !rel.is_absolute()) return true;
  }
  return false;
}

namespace {

// Expands the first {a,b} group; patterns without one come back alone.
std::vector<std::string> expand_braces(const std::string& p) {
  std::size_t open = p.find('{');
  std::size_t close = open == std::string::npos ? std::string::npos : p.find('}', open);
  if (close == std::string::npos) return {p};
  std::vector<std::string> out;
  std::string head = p.substr(0, open), tail = p.substr(close + 1), body = p.substr(open + 1, close - open - 1);
  std::stringstream ss(body);
  std::string alt;
  while (std::getline(ss, alt, ',')) {
    for (auto& e : expand_braces(head + alt + tail)) out.push_back(e);
  }
  return out;
}

bool match_here(const char* p, const char* s) {
  for (;;) {
    if (*p == '\0') return *s == '\0';
    if (p[0] == '*' && p[1] == '*') {
      const char* rest = p + 2;
      if (*rest == '/') ++rest;
      for (const char* t = s;; ++t) {
        if (match_here(rest, t)) return true;
        if (*t == '\0') return false;
      }
    }
    if (*p == '*') {
      for (const char* t = s;; ++t) {
        if (match_here(p + 1, t)) return true;
        if (*t == '\0' || *t == '/') return false;
      }
    }
    if (*s == '\0') return false;
    if (*p != '?' && *p != *s) return false;
    if (*p == '?' && *s == '/') return false;
    ++p;
    ++s;
  }
}

}  // namespace

bool glob_match(const std::string& pattern, const std::string& path, const std::vector<std::string>& folders) {
  for (const std::string& p : expand_braces(pattern)) {
    if (!p.empty() && p[0] == '/') {
      if (match_here(p.c_str(), path.c_str())) return true;
      continue;
    }
    for (const auto& f : folders) {
      fs::path rel = fs::path(path).lexically_relative(fs::path(f));
      std::string r = rel.string();
      if (rel.empty() || r.rfind("..", 0) == 0) continue;
      if (match_here(p.c_str(), r.c_str())) return true;
    }
    if (p.rfind("**/", 0) == 0 && match_here(p.c_str(), path.c_str() + (path.empty() ? 0 : 1))) return true;
  }
  return false;
}

bool read_small_file(const std::string& path, std::string& out, std::size_t limit) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  auto size = fs::file_size(path, ec);
  if (ec || size > limit) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return !in.bad();
}

}  // namespace msprobe::server
