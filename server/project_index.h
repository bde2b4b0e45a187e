// The server's projects: each workspace folder is indexed in the background
// (scan, then a summary per Python file), kept current from the open
// documents and from watched-file events, and handed to analysis jobs as
// immutable snapshots. Nothing here blocks the I/O thread: the scan, reads
// and parses run on one background thread, and their results are posted
// back; the snapshots are only replaced on the I/O thread.
#pragma once

#include <asio.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "msprobe/analysis/project.h"
#include "settings.h"

namespace msprobe::server {

class ProjectIndex {
 public:
  explicit ProjectIndex(asio::io_context& io);
  ~ProjectIndex();
  ProjectIndex(const ProjectIndex&) = delete;
  ProjectIndex& operator=(const ProjectIndex&) = delete;

  // Called on the I/O thread with each folder's progress, and when a folder
  // is indexed (or when an update changed what other files see).
  std::function<void(const std::string& root, std::size_t done, std::size_t total)> on_progress;
  // `before`: the folder's snapshot before the index (or the file read
  // again from disk) replaced it.
  using Changed = std::function<void(const std::string& root, std::shared_ptr<const analysis::ProjectSnapshot> before)>;
  Changed on_indexed;
  Changed on_changed;
  // Whether the editor's own documents are being analysed; asked on the index
  // thread (so it must be thread-safe), set before the first set_folders.
  // The index yields to them: a folder's indexing starts `start_delay` after
  // set_folders (editors open the documents they restore right after
  // initialising), and before each file it waits while this returns true. So
  // that continuous typing cannot starve it, it waits at most `max_yield` at a
  // time, and over a folder (or a file re-read) at most `max_yield` plus half
  // the time it has run: it keeps at least half its speed.
  std::function<bool()> editor_busy;
  std::chrono::milliseconds start_delay{150};
  std::chrono::milliseconds max_yield{1000};
  // How long the next wait may last, `ran` after the budget began and with
  // `yielded` spent waiting so far: min(max_yield, max_yield + ran / 2 - yielded), at least 0.
  static std::chrono::steady_clock::duration yield_limit(std::chrono::steady_clock::duration max_yield,
                                                         std::chrono::steady_clock::duration ran,
                                                         std::chrono::steady_clock::duration yielded);

  // Indexes `roots` (replacing the folders indexed before). Disabled: no folder.
  void set_folders(const std::vector<std::string>& roots, const IndexSettings& settings);

  struct Located {
    std::shared_ptr<const analysis::ProjectSnapshot> snapshot;
    std::string root;
    std::string rel;
  };
  // The folder holding `path` (the innermost), with its snapshot as it is now
  // (during indexing: the open documents only). nullopt outside every folder.
  std::optional<Located> locate(const std::string& path) const;

  // An open document's summary (it wins over the file on disk). True when
  // what other files see of it changed.
  bool update(const std::string& path, std::shared_ptr<const analysis::ModuleSummary> summary);
  // The document was closed, or the file changed, appeared or disappeared on
  // disk: read it again in the background (closed documents only).
  void closed(const std::string& path);
  void file_changed(const std::string& path);
  void file_deleted(const std::string& path);

  nlohmann::json info() const;

 private:
  struct Folder {
    std::string root;
    std::shared_ptr<const analysis::ProjectSnapshot> snapshot;
    std::map<std::string, std::shared_ptr<const analysis::ModuleSummary>> open;  // open documents, by rel
    bool indexed = false;
    std::size_t done = 0, total = 0;
    std::vector<std::string> skipped;
    bool truncated = false;
    double seconds = 0;
  };
  struct Task {
    std::string root;
    uint64_t generation = 0;
    std::string rel;  // empty: index the whole folder
    bool removed = false;
  };

  Folder* folder_of(const std::string& path, std::string& rel);
  const Folder* folder_of(const std::string& path, std::string& rel) const;
  void enqueue(Task t);
  void thread_main();
  void run_index(const Task& t);
  void run_file(const Task& t);
  // Waits at least `at_least`, then while editor_busy() within the budget
  // above; returns early when stopping or cancelled.
  void yield_to_editor(std::chrono::milliseconds at_least);
  // Starts the budget of yield_to_editor for one folder or file (index thread).
  void begin_yield_budget();
  std::chrono::steady_clock::time_point yield_budget_from_;
  std::chrono::steady_clock::duration yielded_{};
  // On the I/O thread: a file's summary arrived (null: it is gone).
  void apply_file(const std::string& root, uint64_t generation, const std::string& rel,
                  std::shared_ptr<const analysis::ModuleSummary> summary);

  asio::io_context& io_;
  std::shared_ptr<bool> alive_;  // false once destroyed: results posted later are dropped
  std::vector<Folder> folders_;
  IndexSettings settings_;
  uint64_t generation_ = 0;  // bumped by set_folders: older results are dropped

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Task> tasks_;
  bool stopping_ = false;
  std::atomic<bool> cancel_{false};
  std::atomic<uint64_t> live_generation_{0};
  std::thread thread_;

  // (root, rel) of every folder's open documents, for the index thread: a
  // folder's indexing skips them (their summaries are laid over its result),
  // so an editor restoring many documents does not have them parsed twice.
  bool is_open(const std::string& root, const std::string& rel) const;
  mutable std::mutex open_mutex_;
  std::set<std::pair<std::string, std::string>> open_files_;
};

}  // namespace msprobe::server
