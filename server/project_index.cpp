// Background indexing of the workspace folders (see project_index.h).
#include "project_index.h"

#include "heap.h"
#include "thread_name.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

namespace msprobe::server {
namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_disk(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return text;
}

std::string normal(const std::string& path) {
  std::string p = fs::path(path).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

}  // namespace

ProjectIndex::ProjectIndex(asio::io_context& io) : io_(io), alive_(std::make_shared<bool>(true)) {}

ProjectIndex::~ProjectIndex() {
  *alive_ = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    cancel_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProjectIndex::set_folders(const std::vector<std::string>& roots, const IndexSettings& settings) {
  settings_ = settings;
  ++generation_;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.clear();
    live_generation_ = generation_;
    cancel_ = true;  // a folder being indexed for the old list stops
  }
  folders_.clear();
  {
    std::lock_guard<std::mutex> lock(open_mutex_);
    open_files_.clear();
  }
  if (!settings.enabled) return;
  for (const std::string& r : roots) {
    Folder f;
    f.root = normal(r);
    f.snapshot = std::make_shared<const analysis::ProjectSnapshot>(
        f.root, std::map<std::string, std::shared_ptr<const analysis::ModuleSummary>>{}, std::vector<std::string>{""});
    folders_.push_back(std::move(f));
  }
  for (const Folder& f : folders_) enqueue({f.root, generation_, "", false});
}

ProjectIndex::Folder* ProjectIndex::folder_of(const std::string& path, std::string& rel) {
  return const_cast<Folder*>(static_cast<const ProjectIndex*>(this)->folder_of(path, rel));
}

const ProjectIndex::Folder* ProjectIndex::folder_of(const std::string& path, std::string& rel) const {
  const Folder* best = nullptr;
  for (const Folder& f : folders_) {
    std::string r = analysis::project_relative(f.root, normal(path));
    if (r.empty()) continue;
    if (!best || f.root.size() > best->root.size()) {
      best = &f;
      rel = r;
    }
  }
  return best;
}

std::optional<ProjectIndex::Located> ProjectIndex::locate(const std::string& path) const {
  std::string rel;
  const Folder* f = path.empty() ? nullptr : folder_of(path, rel);
  if (!f) return std::nullopt;
  return Located{f->snapshot, f->root, rel};
}

bool ProjectIndex::update(const std::string& path, std::shared_ptr<const analysis::ModuleSummary> summary) {
  std::string rel;
  Folder* f = path.empty() || !summary ? nullptr : folder_of(path, rel);
  if (!f) return false;
  f->open[rel] = summary;
  {
    std::lock_guard<std::mutex> lock(open_mutex_);
    open_files_.emplace(f->root, rel);
  }
  const analysis::ModuleSummary* old = f->snapshot->file(rel);
  bool changed = !old || analysis::summary_fingerprint(*old) != analysis::summary_fingerprint(*summary);
  f->snapshot = f->snapshot->with(rel, std::move(summary));
  return changed;
}

void ProjectIndex::closed(const std::string& path) {
  std::string rel;
  Folder* f = folder_of(path, rel);
  if (!f) return;
  f->open.erase(rel);
  {
    std::lock_guard<std::mutex> lock(open_mutex_);
    open_files_.erase({f->root, rel});
  }
  enqueue({f->root, generation_, rel, false});
}

void ProjectIndex::file_changed(const std::string& path) {
  std::string rel;
  Folder* f = folder_of(path, rel);
  if (!f || f->open.count(rel)) return;  // an open document is newer than the disk
  enqueue({f->root, generation_, rel, false});
}

void ProjectIndex::file_deleted(const std::string& path) {
  std::string rel;
  Folder* f = folder_of(path, rel);
  if (!f || f->open.count(rel)) return;
  apply_file(f->root, generation_, rel, nullptr);
}

bool ProjectIndex::is_open(const std::string& root, const std::string& rel) const {
  std::lock_guard<std::mutex> lock(open_mutex_);
  return open_files_.count({root, rel}) > 0;
}

void ProjectIndex::enqueue(Task t) {
  std::lock_guard<std::mutex> lock(mutex_);
  tasks_.push_back(std::move(t));
  if (!thread_.joinable()) thread_ = std::thread([this] { thread_main(); });
  cv_.notify_one();
}

void ProjectIndex::thread_main() {
  name_this_thread(kIndexThread);
#ifdef __linux__
  // A background index runs only on a core nothing else wants (as clangd's
  // does): the analysis of the document being edited never waits for it.
  sched_param idle{};
  if (int e = pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle); e != 0)
    spdlog::debug("index thread: SCHED_IDLE refused ({}); it runs at normal priority", e);
#endif
  prefer_huge_pages_for_this_thread();
  for (;;) {
    Task t;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (stopping_) return;
      t = std::move(tasks_.front());
      tasks_.pop_front();
      if (t.generation != live_generation_) continue;
      cancel_ = false;
    }
    if (t.rel.empty()) run_index(t);
    else run_file(t);
  }
}

void ProjectIndex::begin_yield_budget() {
  yield_budget_from_ = std::chrono::steady_clock::now();
  yielded_ = {};
}

std::chrono::steady_clock::duration ProjectIndex::yield_limit(std::chrono::steady_clock::duration max_yield,
                                                              std::chrono::steady_clock::duration ran,
                                                              std::chrono::steady_clock::duration yielded) {
  using Duration = std::chrono::steady_clock::duration;
  return std::max(Duration::zero(), std::min(max_yield, max_yield + ran / 2 - yielded));
}

void ProjectIndex::yield_to_editor(std::chrono::milliseconds at_least) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const Clock::duration limit = yield_limit(max_yield, start - yield_budget_from_, yielded_);
  std::unique_lock<std::mutex> lock(mutex_);
  Clock::duration busy_wait{};
  for (;;) {
    if (stopping_ || cancel_) break;
    auto waited = Clock::now() - start;
    if (waited >= at_least) {
      busy_wait = waited - at_least;
      if (busy_wait >= limit || !editor_busy || !editor_busy()) break;
    }
    cv_.wait_for(lock, std::chrono::milliseconds(5));
  }
  yielded_ += busy_wait;
}

void ProjectIndex::run_index(const Task& t) {
  begin_yield_budget();
  yield_to_editor(start_delay);
  auto started = std::chrono::steady_clock::now();
  analysis::ScanLimits limits;
  limits.max_files = settings_.max_files;
  limits.max_bytes = settings_.max_bytes;
  analysis::ScanResult scan = analysis::scan_project(t.root, limits);
  std::vector<std::string> skipped = scan.skipped;
  std::string root = t.root;
  auto alive = alive_;
  // Progress at most every 2% (and the last file).
  std::size_t step = std::max<std::size_t>(1, scan.files.size() / 50);
  analysis::IndexControl control;
  control.cancel = &cancel_;
  control.before_file = [this] { yield_to_editor(std::chrono::milliseconds(0)); };
  control.provided = [this, root = t.root](const std::string& rel) { return is_open(root, rel); };
  control.progress = [this, root, alive, step, gen = t.generation](std::size_t done, std::size_t total) {
    if (done % step != 0 && done != total) return;
    asio::post(io_, [this, root, alive, gen, done, total] {
      if (!*alive || gen != generation_) return;
      for (Folder& f : folders_) {
        if (f.root != root) continue;
        f.done = done;
        f.total = total;
      }
      if (on_progress) on_progress(root, done, total);
    });
  };
  if (on_progress) control.progress(0, scan.files.size());
  auto snapshot = analysis::index_project(
      t.root, scan, [&](const std::string& rel) { return read_disk((fs::path(t.root) / rel).string()); }, 1, &skipped,
      &control);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (cancel_) return;
  for (const std::string& s : skipped) spdlog::info("index {}: skipped {}", t.root, s);
  bool truncated = scan.truncated;
  asio::post(io_, [this, alive, gen = t.generation, root, snapshot, skipped, truncated, seconds] {
    if (!*alive || gen != generation_) return;
    for (Folder& f : folders_) {
      if (f.root != root) continue;
      auto s = snapshot;
      for (const auto& [rel, summary] : f.open) s = s->with(rel, summary);
      auto before = std::exchange(f.snapshot, s);
      f.indexed = true;
      f.skipped = skipped;
      f.truncated = truncated;
      f.seconds = seconds;
      f.done = f.total = f.snapshot->files().size();  // with the open documents the index left to them
      spdlog::info("index {}: {} Python files in {:.2f} s{}", root, f.snapshot->files().size(), seconds,
                   truncated ? " (limit reached: the rest is left out)" : "");
      if (on_indexed) on_indexed(root, std::move(before));
    }
  });
}

void ProjectIndex::run_file(const Task& t) {
  begin_yield_budget();
  yield_to_editor(std::chrono::milliseconds(0));
  std::shared_ptr<const analysis::ModuleSummary> summary;
  std::string path = (fs::path(t.root) / t.rel).string();
  std::error_code ec;
  if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) <= (4u << 20)) {
    if (std::optional<std::string> text = read_disk(path)) {
      analysis::PythonParser parser;
      summary = analysis::summarize_source(parser, analysis::SourceText(std::move(*text)));
      if (!summary) spdlog::info("index {}: skipped {}: too large or complex to parse in time", t.root, t.rel);
    } else {
      spdlog::info("index {}: skipped {}: cannot be read", t.root, t.rel);
    }
  }
  auto alive = alive_;
  asio::post(io_, [this, alive, t, summary] {
    if (*alive) apply_file(t.root, t.generation, t.rel, summary);
  });
}

void ProjectIndex::apply_file(const std::string& root, uint64_t generation, const std::string& rel,
                              std::shared_ptr<const analysis::ModuleSummary> summary) {
  if (generation != generation_) return;
  for (Folder& f : folders_) {
    if (f.root != root || f.open.count(rel)) continue;
    const analysis::ModuleSummary* old = f.snapshot->file(rel);
    if (!old && !summary) return;
    bool changed = !old || !summary || analysis::summary_fingerprint(*old) != analysis::summary_fingerprint(*summary);
    auto before = std::exchange(f.snapshot, f.snapshot->with(rel, std::move(summary)));
    if (changed && on_changed) on_changed(root, std::move(before));
  }
}

nlohmann::json ProjectIndex::info() const {
  nlohmann::json out = nlohmann::json::array();
  for (const Folder& f : folders_) {
    std::size_t bytes = 0, source = 0;
    for (const auto& [rel, s] : f.snapshot->files()) {
      if (!s) continue;
      bytes += analysis::summary_bytes(*s);
      source += analysis::summary_source_bytes(*s);
    }
    out.push_back({{"root", f.root},
                   {"state", f.indexed ? "indexed" : "indexing"},
                   {"files", f.snapshot->files().size()},
                   {"openDocuments", f.open.size()},
                   {"sourceBytes", source},
                   {"summaryBytes", bytes},
                   {"progress", {{"done", f.done}, {"total", f.total}}},
                   {"skipped", f.skipped.size()},
                   {"truncated", f.truncated},
                   {"seconds", f.seconds}});
  }
  return out;
}

}  // namespace msprobe::server
