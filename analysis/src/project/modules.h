// Module names <-> project files: where `import a.b` and `from ..x import y`
// lead, the way Python's import system would find them from the project's
// folders (the script's folder, the package roots, the folders the code puts
// on sys.path; packages with or without __init__.py).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace msprobe::analysis {

struct ModuleSummary;

// A module: a file (a/b.py, or a/b/__init__.py for a package) and, for a
// package, its folder (namespace packages have a folder and no file).
struct ModuleRef {
  std::string file;  // "" for a namespace package
  std::string dir;   // "" for a plain module
  friend bool operator==(const ModuleRef& a, const ModuleRef& b) { return a.file == b.file && a.dir == b.dir; }
};

class ModuleTable {
 public:
  ModuleTable(const std::map<std::string, std::shared_ptr<const ModuleSummary>>& files,
              const std::vector<std::string>& package_roots);

  // The module `dotted` names for an import in file `from` (relative
  // imports start with dots). nullopt when it is not a project module.
  std::optional<ModuleRef> resolve(const std::string& from, const std::string& dotted, bool from_is_script) const;
  // The submodule `name` of a package, if there is one.
  std::optional<ModuleRef> submodule(const ModuleRef& package, const std::string& name) const;

  // Folders put on sys.path by some file, relative to the root.
  const std::vector<std::string>& extra_dirs() const { return extra_dirs_; }
  // The sys.path folders of one summary, relative to the root (for telling
  // whether a change of the file changes the table).
  static std::vector<std::string> sys_path_dirs(const std::string& rel, const ModuleSummary& s);

 private:
  std::optional<ModuleRef> find_under(const std::string& dir, const std::string& dotted) const;

  std::set<std::string> files_;
  std::set<std::string> dirs_;
  std::vector<std::string> roots_;
  std::vector<std::string> extra_dirs_;
};

// "a/b/../c" -> "a/c"; nullopt when it climbs above the root.
std::optional<std::string> normalize_relative(const std::string& path);
// The folder of a relative path ("" for a file at the root).
std::string parent_dir(const std::string& rel);
// `dir` + "/" + `name`, without a leading slash for the root.
std::string join_path(const std::string& dir, const std::string& name);

}  // namespace msprobe::analysis
