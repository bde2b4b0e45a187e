// Which files a change can reach across a project (see project.h,
// files_affected_by).
//
// Every cross-file answer (a lookup, the call graph, the scripts that reach a
// file's dump calls, MSP208's importers, the overrides of a method) starts
// from one file and follows what its imports bind. So two files whose answers
// can depend on each other are linked by a chain of imports, taken in either
// direction. The graph here over-approximates that chain:
//  - `from m import n` links the file to m's file, to m's parent packages'
//    __init__.py, and to the submodule m.n when there is one;
//  - a name bound to a package (`import a.b` binds `a`, `import a.b as x`
//    binds `a.b`, `from a import sub` with `sub` a package) links the file to
//    a node of the package's folder, which links every file under it: the
//    code may reach any submodule through attributes;
//  - imports inside functions count like the others, and each import is
//    resolved as from a script and as from a module.
#include <algorithm>
#include <map>

#include "msprobe/analysis/project.h"
#include "project/modules.h"
#include "project/summary.h"

namespace msprobe::analysis {
namespace {

class Graph {
 public:
  int node(const std::string& key) {
    auto [it, fresh] = ids_.try_emplace(key, static_cast<int>(parent_.size()));
    if (fresh) parent_.push_back(it->second);
    return it->second;
  }
  int find(int x) {
    while (parent_[static_cast<std::size_t>(x)] != x) {
      int& p = parent_[static_cast<std::size_t>(x)];
      p = parent_[static_cast<std::size_t>(p)];
      x = p;
    }
    return x;
  }
  void link(int a, int b) { parent_[static_cast<std::size_t>(find(a))] = find(b); }
  const std::map<std::string, int>& ids() const { return ids_; }

 private:
  std::map<std::string, int> ids_;
  std::vector<int> parent_;
};

// Node keys: a file is its relative path; a package's folder is "/" + folder
// (no relative path starts with a slash).
std::string folder_key(const std::string& dir) { return "/" + dir; }

// The dotted prefixes of a module name, shortest first, the name last
// ("a.b.c" -> a, a.b, a.b.c; "..x.y" -> ..x, ..x.y; ".." -> ..).
std::vector<std::string> prefixes(const std::string& dotted) {
  std::vector<std::string> out;
  std::size_t dots = dotted.find_first_not_of('.');
  if (dots == std::string::npos) return {dotted};
  for (std::size_t i = dotted.find('.', dots); i != std::string::npos; i = dotted.find('.', i + 1))
    out.push_back(dotted.substr(0, i));
  out.push_back(dotted);
  return out;
}

void link_imports(Graph& g, const ProjectSnapshot& p, const std::string& rel, const ModuleSummary& s,
                  std::vector<std::string>& folders) {
  const ModuleTable& modules = p.modules();
  int self = g.node(rel);
  auto to_file = [&](const ModuleRef& m) {
    if (!m.file.empty()) g.link(self, g.node(m.file));
  };
  auto to_package = [&](const ModuleRef& m) {
    to_file(m);
    if (m.dir.empty()) return;
    g.link(self, g.node(folder_key(m.dir)));
    folders.push_back(m.dir);
  };
  for (const ImportRef& imp : s.imports) {
    for (bool script : {true, false}) {
      std::vector<std::string> names = prefixes(imp.module);
      std::optional<ModuleRef> target;
      for (const std::string& name : names) {
        target = modules.resolve(rel, name, script);
        if (target) to_file(*target);
      }
      if (imp.name.empty()) {
        // What the statement binds: the first segment, or the whole module with `as`.
        bool binds_whole = !imp.bound.empty() && (imp.module == imp.bound || imp.module.rfind(imp.bound + ".", 0) != 0);
        std::optional<ModuleRef> bound = binds_whole ? target : modules.resolve(rel, names.front(), script);
        if (bound) to_package(*bound);
      } else if (target) {
        if (imp.name == "*") continue;
        if (std::optional<ModuleRef> sub = modules.submodule(*target, imp.name)) to_package(*sub);
        // `from . import x` with no x file: x may be defined in the package's __init__ (linked above).
      }
    }
  }
}

// Links the files of `p` by their imports into `g`.
void add_snapshot(Graph& g, const ProjectSnapshot& p, const std::set<std::string>* only) {
  std::vector<std::string> folders;
  for (const auto& [rel, s] : p.files()) {
    g.node(rel);
    if (!s || (only && !only->count(rel))) continue;
    link_imports(g, p, rel, *s, folders);
  }
  // A package's folder node links every file under the folder.
  std::sort(folders.begin(), folders.end());
  folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
  if (folders.empty()) return;
  for (const auto& [rel, s] : p.files()) {
    for (std::string d = parent_dir(rel);; d = parent_dir(d)) {
      if (std::binary_search(folders.begin(), folders.end(), d)) g.link(g.node(rel), g.node(folder_key(d)));
      if (d.empty()) break;
    }
  }
}

}  // namespace

std::set<std::string> changed_files(const ProjectSnapshot& before, const ProjectSnapshot& after) {
  std::set<std::string> out;
  auto a = before.files().begin(), b = after.files().begin();
  const auto a_end = before.files().end(), b_end = after.files().end();
  while (a != a_end || b != b_end) {
    if (b == b_end || (a != a_end && a->first < b->first)) {
      out.insert((a++)->first);
    } else if (a == a_end || b->first < a->first) {
      out.insert((b++)->first);
    } else {
      bool same = a->second == b->second ||
                  (a->second && b->second && a->second->fingerprint == b->second->fingerprint);
      if (!same) out.insert(a->first);
      ++a;
      ++b;
    }
  }
  return out;
}

AffectedFiles files_affected_by(const ProjectSnapshot& before, const ProjectSnapshot& after,
                                const std::set<std::string>& changed) {
  AffectedFiles out;
  if (changed.empty()) return out;
  // The folders imports resolve against moved: any import may lead elsewhere.
  if (before.package_roots() != after.package_roots() ||
      before.modules().extra_dirs() != after.modules().extra_dirs()) {
    out.all = true;
    return out;
  }
  Graph g;
  add_snapshot(g, after, nullptr);
  // The same module table resolves an unchanged file's imports the same way:
  // from `before` only the changed files' own imports are new.
  add_snapshot(g, before, &before.modules() == &after.modules() ? &changed : nullptr);
  // How many changed files each component holds.
  std::map<int, int> changed_in;
  for (const std::string& rel : changed) {
    auto it = g.ids().find(rel);
    if (it != g.ids().end()) ++changed_in[g.find(it->second)];
  }
  for (const auto& [key, id] : g.ids()) {
    if (key.empty() || key.front() == '/') continue;
    auto it = changed_in.find(g.find(id));
    if (it == changed_in.end()) continue;
    // A changed file is affected by the others that changed with it, not by itself.
    if (it->second > (changed.count(key) ? 1 : 0)) out.files.insert(key);
  }
  return out;
}

}  // namespace msprobe::analysis
