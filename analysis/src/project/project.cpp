// Project snapshots, the scan of a project's files and the parallel build of
// their summaries (see project.h).
#include "msprobe/analysis/project.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include "bindings.h"
#include "derive.h"
#include "facts_builder.h"
#include "msprobe/analysis/syntax.h"
#include "project/modules.h"
#include "project/session.h"
#include "project/summary.h"
#include "torch_api.h"

namespace msprobe::analysis {
namespace fs = std::filesystem;

ProjectSnapshot::ProjectSnapshot(std::string root, std::map<std::string, std::shared_ptr<const ModuleSummary>> files,
                                 std::vector<std::string> package_roots)
    : root_(std::move(root)), files_(std::move(files)), package_roots_(std::move(package_roots)) {
  modules_ = std::make_shared<const ModuleTable>(files_, package_roots_);
}

ProjectSnapshot::~ProjectSnapshot() = default;

const ModuleSummary* ProjectSnapshot::file(const std::string& rel) const {
  auto it = files_.find(rel);
  return it == files_.end() ? nullptr : it->second.get();
}

std::shared_ptr<const ProjectSnapshot> ProjectSnapshot::with(const std::string& rel,
                                                             std::shared_ptr<const ModuleSummary> summary) const {
  auto next = std::shared_ptr<ProjectSnapshot>(new ProjectSnapshot(*this));
  auto it = next->files_.find(rel);
  bool same_files = summary ? it != next->files_.end() : it == next->files_.end();
  bool same_sys_path = true;
  if (same_files && summary && it->second) {
    same_sys_path = ModuleTable::sys_path_dirs(rel, *it->second) == ModuleTable::sys_path_dirs(rel, *summary);
  }
  if (summary) next->files_[rel] = std::move(summary);
  else if (it != next->files_.end()) next->files_.erase(it);
  // The module table depends on the file list and the sys.path folders only.
  if (!same_files || !same_sys_path)
    next->modules_ = std::make_shared<const ModuleTable>(next->files_, next->package_roots_);
  return next;
}

std::string project_relative(const std::string& root, const std::string& path) {
  std::error_code ec;
  fs::path r = fs::path(root).lexically_normal();
  fs::path p = fs::path(path).lexically_normal();
  fs::path rel = p.lexically_relative(r);
  if (rel.empty() || *rel.begin() == "..") return "";
  std::string out = rel.generic_string();
  return out == "." ? "" : out;
}

std::string find_project_root(const std::string& file) {
  std::error_code ec;
  fs::path start = fs::absolute(fs::path(file), ec).lexically_normal().parent_path();
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    for (const char* marker : {".git", "pyproject.toml", "setup.py", "setup.cfg"}) {
      if (fs::exists(dir / marker, ec)) return dir.string();
    }
    if (dir == dir.root_path()) break;
  }
  return start.string();
}

namespace {

bool skipped_folder(const std::string& name) {
  static const char* kNames[] = {"venv", "site-packages", "node_modules", "build", "dist", "__pycache__"};
  if (!name.empty() && name[0] == '.') return true;  // .git, .venv, .tox, .mypy_cache, ...
  for (const char* n : kNames) {
    if (name == n) return true;
  }
  return false;
}

}  // namespace

ScanResult scan_project(const std::string& root, const ScanLimits& limits) {
  ScanResult out;
  std::error_code ec;
  fs::path base = fs::path(root).lexically_normal();
  std::set<std::string> seen_dirs;  // canonical paths: a symlink loop is walked once
  std::set<std::string> roots;
  std::vector<std::pair<fs::path, std::string>> stack{{base, ""}};
  std::size_t bytes = 0;
  while (!stack.empty() && !out.truncated) {
    auto [dir, rel] = stack.back();
    stack.pop_back();
    fs::path canonical = fs::canonical(dir, ec);
    if (ec) {
      out.skipped.push_back((rel.empty() ? "." : rel) + ": " + ec.message());
      ec.clear();
      continue;
    }
    if (!seen_dirs.insert(canonical.string()).second) continue;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
      out.skipped.push_back((rel.empty() ? "." : rel) + ": " + ec.message());
      ec.clear();
      continue;
    }
    std::vector<std::pair<std::string, bool>> entries;  // name, is a folder
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      std::string name = it->path().filename().string();
      bool is_dir = it->is_directory(ec);
      if (ec) {
        ec.clear();
        continue;
      }
      entries.push_back({name, is_dir});
    }
    ec.clear();
    std::sort(entries.begin(), entries.end());
    std::vector<std::pair<fs::path, std::string>> subdirs;
    for (const auto& [name, is_dir] : entries) {
      std::string child = rel.empty() ? name : rel + "/" + name;
      if (is_dir) {
        if (!skipped_folder(name)) subdirs.push_back({dir / name, child});
        continue;
      }
      if (name == "setup.py" || name == "pyproject.toml" || name == "setup.cfg") roots.insert(rel);
      if (name.size() < 4 || name.compare(name.size() - 3, 3, ".py") != 0) continue;
      std::uintmax_t size = fs::file_size(dir / name, ec);
      if (ec) {
        out.skipped.push_back(child + ": " + ec.message());
        ec.clear();
        continue;
      }
      if (size > limits.max_file_bytes) {
        out.skipped.push_back(child + ": larger than " + std::to_string(limits.max_file_bytes >> 20) + " MB");
        continue;
      }
      if (out.files.size() >= limits.max_files || bytes + size > limits.max_bytes) {
        out.truncated = true;
        break;
      }
      bytes += size;
      out.files.push_back(child);
    }
    // Depth first, in name order.
    for (auto d = subdirs.rbegin(); d != subdirs.rend(); ++d) stack.push_back(*d);
  }
  std::sort(out.files.begin(), out.files.end());
  std::set<std::string> file_dirs;
  for (const std::string& f : out.files) {
    for (std::string d = parent_dir(f); !d.empty(); d = parent_dir(d)) file_dirs.insert(d);
  }
  out.package_roots.push_back("");
  if (file_dirs.count("src")) out.package_roots.push_back("src");
  for (const std::string& r : roots) {
    if (r.empty()) continue;
    out.package_roots.push_back(r);
    std::string src = r + "/src";
    if (file_dirs.count(src)) out.package_roots.push_back(src);
  }
  return out;
}

std::shared_ptr<const ProjectSnapshot> index_project(const std::string& root, const ScanResult& scan,
                                                     const FileReader& read, unsigned threads,
                                                     std::vector<std::string>* skipped, const IndexControl* control) {
  std::vector<std::shared_ptr<const ModuleSummary>> summaries(scan.files.size());
  std::vector<std::string> errors(scan.files.size());
  std::atomic<std::size_t> next{0}, done{0};
  auto work = [&]() {
    PythonParser parser;
    if (control) parser.set_timeout_micros(control->parse_timeout_micros);
    for (std::size_t i = next++; i < scan.files.size(); i = next++) {
      // A provided file is not read: nothing to wait for before it.
      const bool provided = control && control->provided && control->provided(scan.files[i]);
      if (!provided && control && control->before_file) control->before_file();
      if (control && control->cancel && control->cancel->load()) break;
      struct Done {
        const IndexControl* c;
        std::atomic<std::size_t>& n;
        std::size_t total;
        ~Done() {
          std::size_t d = ++n;
          if (c && c->progress) c->progress(d, total);
        }
      } report{control, done, scan.files.size()};
      if (provided) continue;
      std::optional<std::string> text = read(scan.files[i]);
      if (!text) {
        errors[i] = scan.files[i] + ": cannot be read";
        continue;
      }
      summaries[i] = summarize_source(parser, SourceText(std::move(*text)));
      if (!summaries[i]) errors[i] = scan.files[i] + ": too large or complex to parse in time";
    }
  };
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(scan.files.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  std::map<std::string, std::shared_ptr<const ModuleSummary>> files;
  for (std::size_t i = 0; i < scan.files.size(); ++i) {
    if (summaries[i]) files.emplace(scan.files[i], std::move(summaries[i]));
    else if (skipped && !errors[i].empty()) skipped->push_back(errors[i]);
  }
  return std::make_shared<const ProjectSnapshot>(root, std::move(files), scan.package_roots);
}

void derive_loops_in_project(const SourceText& source, FileFacts& facts, const ProjectSnapshot& project,
                             const std::string& rel, const ModuleSummary& summary) {
  ProjectSession session(project, rel, &summary);
  derive_loops_with(source.view(), facts, session.solver(rel), Bindings(facts));
}

namespace {

bool is_dump_call(MsprobeKind k) {
  return k == MsprobeKind::Start || k == MsprobeKind::Stop || k == MsprobeKind::Step ||
         k == MsprobeKind::ForwardBackwardDumpEnd;
}

// Which launched scripts run this file's dump calls, and whether their
// process builds the debugger (in a function they reach, or at their module level).
void find_dump_entries(ProjectSession& session, const std::string& rel, const ModuleSummary& summary, ProjectView& v) {
  std::set<int> dump_functions;
  for (const MsprobeRef& r : summary.msprobe) {
    if (r.kind == MsprobeKind::Construct) return;  // built here: the file's own business
    if (is_dump_call(r.kind)) dump_functions.insert(r.function);
  }
  if (dump_functions.empty()) return;
  for (const auto& [file, s] : session.project().files()) {
    if (!session.is_script(file)) continue;
    const ProjectSession::Reach& reach = session.reach({file, -1});
    bool reaches = std::any_of(dump_functions.begin(), dump_functions.end(), [&](int f) {
      return reach.steps.count({rel, f}) != 0;
    });
    if (!reaches) continue;
    if (!v.dump_calls_reached) {
      v.dump_calls_reached = true;
      v.dump_entry = file;
    }
    for (const FunctionRef& g : reach.order) {
      const ModuleSummary* gs = session.summary(g.file);
      if (!gs) continue;
      for (const MsprobeRef& r : gs->msprobe) {
        if (r.kind == MsprobeKind::Construct && r.function == g.function) {
          v.debugger_built_by_entry = true;
          v.builder = file;
          return;
        }
      }
    }
  }
}

// MSP208 across files: a script that builds the debugger after importing
// (through any chain of project modules) the module `rel`.
void find_importers_before_construction(ProjectSession& session, const std::string& rel, const ModuleSummary& summary,
                                        ProjectView& v) {
  if (!binds_torch_names(summary)) return;
  for (const auto& [file, s] : session.project().files()) {
    if (file == rel || !session.is_script(file) || !s) continue;
    // Where the script builds the debugger: at module level, its line; in a
    // function, after every module-level import.
    std::optional<uint32_t> line;
    for (const MsprobeRef& r : s->msprobe) {
      if (r.kind != MsprobeKind::Construct) continue;
      uint32_t at = r.function < 0 ? r.line : UINT32_MAX;
      line = line ? std::min(*line, at) : at;
    }
    if (!line) continue;
    std::vector<std::string> queue = session.imported_files(file, *line);
    std::set<std::string> seen(queue.begin(), queue.end());
    for (std::size_t i = 0; i < queue.size() && i < 5000; ++i) {
      if (queue[i] == rel) {
        v.imported_before_construction = file;
        v.construction_line = *line == UINT32_MAX ? 0 : *line;
        return;
      }
      for (const std::string& next : session.imported_files(queue[i], UINT32_MAX)) {
        if (seen.insert(next).second) queue.push_back(next);
      }
    }
  }
}

}  // namespace

bool depends_on_project(const FileFacts& facts) {
  for (const MsprobeUse& u : facts.msprobe) {
    if (u.kind != MsprobeKind::Other) return true;
  }
  return std::any_of(facts.imports.begin(), facts.imports.end(), [](const Import& i) {
    return i.top_level && !i.name.empty() && is_wrapped_api(i.module, i.name);
  });
}

bool depends_on_project(const ModuleSummary& summary) { return !summary.msprobe.empty() || binds_torch_names(summary); }

ProjectView project_view(const SourceText& source, FileFacts& facts, const ProjectSnapshot& project,
                         const std::string& rel, const ModuleSummary& summary) {
  return project_view(source, facts, project, rel, summary, Bindings(facts));
}

ProjectView project_view(const SourceText& source, FileFacts& facts, const ProjectSnapshot& project,
                         const std::string& rel, const ModuleSummary& summary, const Bindings& names) {
  ProjectSession session(project, rel, &summary);
  derive_loops_with(source.view(), facts, session.solver(rel), names);
  ProjectView v;
  find_dump_entries(session, rel, summary, v);
  // Workers of other modules started by this file that do the dump's work.
  for (const LaunchRef& l : summary.launches) {
    Symbol sym = session.lookup(rel, l.worker);
    if (sym.kind != Symbol::Kind::Function || sym.file == rel) continue;
    bool works = false;
    for (const FunctionRef& g : session.reach({sym.file, sym.index}).order) {
      const ModuleSummary* gs = session.summary(g.file);
      if (!gs) continue;
      for (const MsprobeRef& r : gs->msprobe)
        works = works || (r.kind == MsprobeKind::Start && r.function == g.function);
      for (std::size_t li = 0; li < gs->effects.loops.size() && !works; ++li) {
        works = gs->effects.loops[li].function == g.function &&
                loop_has_role(session.solver(g.file).loop_kinds(static_cast<int>(li)));
      }
      if (works) break;
    }
    if (works) v.launched_workers[l.start] = session.function_name({sym.file, sym.index}) + "() in " + sym.file;
  }
  find_importers_before_construction(session, rel, summary, v);
  // What the calls into other modules do.
  EffectSolver& self = session.solver(rel);
  for (const CallSite& site : summary.effects.sites) {
    if (site.target < 0) continue;
    if (std::optional<FunctionEffect> e = session.resolve(self, site, 0); e && e->kinds)
      v.call_effects[site.at.start] = e->kinds;
  }
  return v;
}

}  // namespace msprobe::analysis
