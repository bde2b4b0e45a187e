// The project layer: what a multi-file training project looks like to the
// engine. Each Python file is kept as a small ModuleSummary (imports,
// definitions, call effects, entry facts; no syntax tree), and a snapshot of
// all of them answers cross-file questions: which function a call in another
// module reaches, what a loop's iteration does once calls are followed across
// files, which launched script reaches a loop, and where the debugger must be
// built for it (msprobe-facts §2.1: in the target process, after the imports
// of its entry).
//
// Paths inside a project are relative to its root, with forward slashes.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/plan.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/source.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::analysis {

struct Analysis;       // analyzer.h
struct ModuleSummary;  // project/summary.h

// Summarises one file whose facts are built (`facts` of `source`).
std::shared_ptr<const ModuleSummary> summarize(const SourceText& source, const FileFacts& facts);

// Parses and summarises a file; null when the parse ran out of time.
std::shared_ptr<const ModuleSummary> summarize_source(PythonParser& parser, const SourceText& source);

// Size of a summary in bytes (approximate), and of the source it sums up, for
// the index's statistics.
std::size_t summary_bytes(const ModuleSummary& summary);
std::size_t summary_source_bytes(const ModuleSummary& summary);
// Equal for two summaries of a file when other files get the same answers
// from either (positions do not count).
uint64_t summary_fingerprint(const ModuleSummary& summary);

class ModuleTable;  // project/modules.h: module names <-> files

// An immutable view of a project's summaries. Cheap to copy around through
// shared_ptr; the index makes a new one on every change.
class ProjectSnapshot {
 public:
  ProjectSnapshot(std::string root, std::map<std::string, std::shared_ptr<const ModuleSummary>> files,
                  std::vector<std::string> package_roots);
  ~ProjectSnapshot();

  const std::string& root() const { return root_; }
  const std::map<std::string, std::shared_ptr<const ModuleSummary>>& files() const { return files_; }
  const ModuleSummary* file(const std::string& rel) const;
  // Folders (relative to the root, "" for the root itself) absolute imports
  // resolve against: the root, `src/`, folders holding a setup.py or pyproject.toml.
  const std::vector<std::string>& package_roots() const { return package_roots_; }
  const ModuleTable& modules() const { return *modules_; }

  // The same project with `rel` replaced (or added, or removed when null).
  std::shared_ptr<const ProjectSnapshot> with(const std::string& rel,
                                              std::shared_ptr<const ModuleSummary> summary) const;

 private:
  std::string root_;
  std::map<std::string, std::shared_ptr<const ModuleSummary>> files_;
  std::vector<std::string> package_roots_;
  std::shared_ptr<const ModuleTable> modules_;
};

// Limits of a project scan: hidden folders, virtual environments,
// site-packages, node_modules, build, dist and __pycache__ are skipped;
// symlinks to folders are followed once (loops are safe).
struct ScanLimits {
  std::size_t max_files = 5000;
  std::size_t max_bytes = 64u << 20;      // total source read
  std::size_t max_file_bytes = 4u << 20;  // a larger file is skipped
};

struct ScanResult {
  std::vector<std::string> files;          // relative paths of the .py files, sorted
  std::vector<std::string> package_roots;  // see ProjectSnapshot::package_roots
  std::vector<std::string> skipped;        // "path: why" for files or folders left out
  bool truncated = false;                  // max_files or max_bytes was reached
};

// Lists a project's Python files (no parsing).
ScanResult scan_project(const std::string& root, const ScanLimits& limits = {});

// Reads a project file (relative path) as the user sees it now: an open
// editor buffer, else the disk. nullopt when it cannot be read.
using FileReader = std::function<std::optional<std::string>(const std::string& rel)>;

// Progress and cancellation of index_project.
struct IndexControl {
  std::function<void(std::size_t done, std::size_t total)> progress;  // after each file, on the indexing thread
  const std::atomic<bool>* cancel = nullptr;                          // set: stop soon, return what is done
  std::function<void()> before_file;  // on the indexing thread, before each file (may wait: the server yields)
  // Files the caller holds a newer summary of (documents open in an editor):
  // neither read nor summarised (nor waited for: no before_file), and left out
  // of the snapshot (not `skipped`) for the caller to add its own. Asked on
  // the indexing thread, per file.
  std::function<bool(const std::string& rel)> provided;
  uint64_t parse_timeout_micros = 2'000'000;  // per file
};

// Builds the summaries of `scan.files` (parse + facts + summary, on
// `threads` threads); files that cannot be read or parsed are skipped with a
// line in `skipped`.
std::shared_ptr<const ProjectSnapshot> index_project(const std::string& root, const ScanResult& scan,
                                                     const FileReader& read, unsigned threads,
                                                     std::vector<std::string>* skipped = nullptr,
                                                     const IndexControl* control = nullptr);

// The nearest ancestor of `file` (an absolute path) holding .git,
// pyproject.toml, setup.py or setup.cfg; else the file's folder.
std::string find_project_root(const std::string& file);

// `path` relative to `root` with forward slashes, or "" when it is not inside.
std::string project_relative(const std::string& root, const std::string& path);

// ----- cross-file answers -----

// The loop facts of `facts` (the file `rel` of `project`) derived again with
// calls followed across the project: a loop whose forward, backward and step
// live in other modules gets its role. `summary` is the file's own, current
// summary (it replaces the snapshot's).
void derive_loops_in_project(const SourceText& source, FileFacts& facts, const ProjectSnapshot& project,
                             const std::string& rel, const ModuleSummary& summary);

// The findings of this file may change with the rest of its project: it
// calls msProbe, or binds by name a torch API that msProbe wraps (MSP208).
// Other files are checked alone (`check` re-checks only these).
bool depends_on_project(const FileFacts& facts);
// The same from a file's summary (the server asks it of open documents when
// another file of their project changes).
bool depends_on_project(const ModuleSummary& summary);

// The files whose findings may differ once the files `changed` (edited,
// added or removed) took a project from `before` to `after`: those linked to
// a changed file by a chain of imports, in either direction, in either
// snapshot (project/import_graph.cpp says how the links over-approximate
// what cross-file answers read). A changed file is in the set only when
// another changed file is linked to it.
struct AffectedFiles {
  bool all = false;             // the folders imports resolve against moved: every file
  std::set<std::string> files;  // otherwise these, relative to the root
};
AffectedFiles files_affected_by(const ProjectSnapshot& before, const ProjectSnapshot& after,
                                const std::set<std::string>& changed);
// The files that differ between two snapshots of a project in what other
// files can see of them (summary_fingerprint), or that only one holds.
std::set<std::string> changed_files(const ProjectSnapshot& before, const ProjectSnapshot& after);

// derive_loops_in_project, and what the rules need to know of the rest of
// the project about this file (rule.h's ProjectView).
ProjectView project_view(const SourceText& source, FileFacts& facts, const ProjectSnapshot& project,
                         const std::string& rel, const ModuleSummary& summary);

// A launched script (or a spawned worker) that reaches a loop.
struct ProjectEntry {
  std::string file;               // the launched script
  std::string construct_file;     // where the construction goes: the script, or the file of the worker
  std::string worker;             // the worker function the construction goes into; "" = module level
  int worker_function = -1;       // its index in construct_file's facts (the chosen entry only)
  std::vector<uint32_t> lines;    // 0-based lines, in `file`, of the calls on the way to the loop
  std::vector<std::string> path;  // how it reaches the loop ("chargpt.py", "Trainer.run (mingpt/trainer.py)")
};

// A file the caller has analysed already, in the project (an editor's open
// document): its text and its analysis, with the tree, the summary and the
// loops derived across the project.
struct KnownFile {
  const SourceText* source = nullptr;
  const Analysis* analysis = nullptr;
};

struct ProjectPlanOptions {
  std::string entry;                  // a given entry (relative path); "" = choose
  std::optional<uint32_t> loop_line;  // 0-based header line of the loop in the file asked about
  // Files analysed already: plans and edits use them instead of reading and
  // analysing the file again (nullopt: read it). Their text must be what the
  // reader would give.
  std::function<std::optional<KnownFile>(const std::string& rel)> known;
};

// Where the dump goes in a project: the loop (in `loop_file`) and the
// construction (in `entry.construct_file`).
struct ProjectPlan {
  std::string loop_file;
  uint32_t loop_line = 0;             // 0-based header line of the loop in loop_file
  DumpPlan loop;                      // the plan in loop_file
  ProjectEntry entry;                 // the chosen entry
  std::vector<ProjectEntry> entries;  // every entry that reaches the loop, the chosen one first
  // 0-based line in entry.construct_file after which the import, seed_all()
  // and the construction go; nullopt = at the top of the file. For a worker:
  // the line after which the construction goes inside the function.
  std::optional<uint32_t> construct_after_line;
  // Set when the construction must come before the entry's project imports
  // (a module they load binds torch functions by name, which would escape
  // the dump): the 0-based line of the first of them.
  std::optional<uint32_t> construct_before_line;
  std::vector<std::string> notes;  // what the user should know ("no launched script reaches ...")
  bool single_file() const { return entry.construct_file == loop_file && entry.worker.empty(); }
};

// Plans the dump for the file `rel` (the entry or the loop file). `error`
// says why when there is none.
std::optional<ProjectPlan> plan_project(const ProjectSnapshot& project, const std::string& rel, const FileReader& read,
                                        const ProjectPlanOptions& options, std::string* error);

}  // namespace msprobe::analysis
