// Module resolution (see modules.h).
#include "project/modules.h"

#include <algorithm>

#include "project/summary.h"

namespace msprobe::analysis {

std::optional<std::string> normalize_relative(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

std::string parent_dir(const std::string& rel) {
  std::size_t slash = rel.rfind('/');
  return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  if (name.empty()) return dir;
  return dir + "/" + name;
}

std::vector<std::string> ModuleTable::sys_path_dirs(const std::string& rel, const ModuleSummary& s) {
  std::vector<std::string> out;
  for (const SysPathEntry& e : s.sys_path) {
    std::string base = e.from_file ? parent_dir(rel) : std::string();
    if (std::optional<std::string> d = normalize_relative(join_path(base, e.path))) out.push_back(*d);
  }
  return out;
}

ModuleTable::ModuleTable(const std::map<std::string, std::shared_ptr<const ModuleSummary>>& files,
                         const std::vector<std::string>& package_roots)
    : roots_(package_roots) {
  if (std::find(roots_.begin(), roots_.end(), std::string()) == roots_.end()) roots_.insert(roots_.begin(), "");
  for (const auto& [rel, summary] : files) {
    files_.insert(rel);
    for (std::string d = parent_dir(rel); !d.empty(); d = parent_dir(d)) {
      if (!dirs_.insert(d).second) break;
    }
    if (!summary) continue;
    for (std::string& d : sys_path_dirs(rel, *summary)) {
      if (std::find(extra_dirs_.begin(), extra_dirs_.end(), d) == extra_dirs_.end())
        extra_dirs_.push_back(std::move(d));
    }
  }
}

std::optional<ModuleRef> ModuleTable::find_under(const std::string& dir, const std::string& dotted) const {
  std::string path = dir;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    std::size_t dot = dotted.find('.', start);
    std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) return std::nullopt;
    path = join_path(path, part);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  // A regular package, then a module, then a namespace package.
  std::string init = path + "/__init__.py";
  if (files_.count(init)) return ModuleRef{init, path};
  if (files_.count(path + ".py")) return ModuleRef{path + ".py", ""};
  if (dirs_.count(path)) return ModuleRef{"", path};
  return std::nullopt;
}

std::optional<ModuleRef> ModuleTable::resolve(const std::string& from, const std::string& dotted,
                                              bool from_is_script) const {
  if (dotted.empty()) return std::nullopt;
  if (dotted.front() == '.') {
    std::size_t level = dotted.find_first_not_of('.');
    std::string rest = level == std::string::npos ? std::string() : dotted.substr(level);
    if (level == std::string::npos) level = dotted.size();
    std::string base = parent_dir(from);
    for (std::size_t i = 1; i < level; ++i) {
      if (base.empty()) return std::nullopt;
      base = parent_dir(base);
    }
    if (rest.empty()) {
      std::string init = join_path(base, "__init__.py");
      return ModuleRef{files_.count(init) ? init : std::string(), base};
    }
    return find_under(base, rest);
  }
  std::string own = parent_dir(from);
  if (from_is_script) {
    if (auto m = find_under(own, dotted)) return m;
  }
  for (const std::string& r : roots_) {
    if (auto m = find_under(r, dotted)) return m;
  }
  for (const std::string& d : extra_dirs_) {
    if (auto m = find_under(d, dotted)) return m;
  }
  return find_under(own, dotted);
}

std::optional<ModuleRef> ModuleTable::submodule(const ModuleRef& package, const std::string& name) const {
  if (package.dir.empty() && !package.file.empty()) return std::nullopt;
  return find_under(package.dir, name);
}

}  // namespace msprobe::analysis
