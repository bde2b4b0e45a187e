// Runs jobs in submission order on one thread (the machine has two cores: one
// for I/O, one for analysis).
#include "analysis_worker.h"

#include <spdlog/spdlog.h>

#include <list>
#include <unordered_map>

#include "msprobe/analysis/syntax.h"

namespace msprobe::server {
namespace {

// The trees kept to seed incremental reparses, most recently analysed first.
// A tree-sitter tree takes about 45 bytes per byte of source (1.5 MB for a
// 1,000-line script), so keeping one per open document made the server's
// memory grow with every file opened (200 MB for 100 such files). Only the
// documents being edited need one: the most recent tree is always kept,
// others while they fit in kMaxTrees and kTreeSourceBudget bytes of source.
// A document whose tree was dropped is parsed from scratch on its next edit.
class TreeCache {
 public:
  static constexpr std::size_t kMaxTrees = 4;
  static constexpr std::size_t kTreeSourceBudget = 256 * 1024;

  analysis::TreePtr find(const std::string& uri) const {
    auto it = index_.find(uri);
    return it == index_.end() ? nullptr : it->second->tree;
  }

  void put(const std::string& uri, analysis::TreePtr tree, std::size_t source_bytes) {
    erase(uri);
    order_.push_front({uri, std::move(tree), source_bytes});
    index_[uri] = order_.begin();
    bytes_ += source_bytes;
    while (order_.size() > 1 && (order_.size() > kMaxTrees || bytes_ > kTreeSourceBudget)) {
      const Entry& last = order_.back();
      bytes_ -= last.bytes;
      index_.erase(last.uri);
      order_.pop_back();
    }
  }

  void erase(const std::string& uri) {
    auto it = index_.find(uri);
    if (it == index_.end()) return;
    bytes_ -= it->second->bytes;
    order_.erase(it->second);
    index_.erase(it);
  }

 private:
  struct Entry {
    std::string uri;
    analysis::TreePtr tree;
    std::size_t bytes;
  };
  std::list<Entry> order_;
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  std::size_t bytes_ = 0;
};

// Worker-thread state; lives in the thread's stack frame.
struct WorkerState {
  analysis::PythonParser parser;
  TreeCache trees;
};

thread_local WorkerState* tls_state = nullptr;

}  // namespace

AnalysisWorker::AnalysisWorker(asio::io_context& reply_to)
    : reply_to_(reply_to), guard_(asio::make_work_guard(io_)) {
  thread_ = std::thread([this] {
    WorkerState state;
    tls_state = &state;
    // Pay the one-time costs (the grammar's symbol table, the suppression
    // regexes, the parser's first allocations) now, while the client is still
    // initializing, rather than in the first document's latency.
    try {
      analysis::analyze(state.parser, analysis::SourceText("import torch  # noqa: MSP101 msprobe: ignore[MSP101]\n"),
                        analysis::AnalysisOptions{});
    } catch (const std::exception& e) {
      spdlog::warn("analysis worker warm-up: {}", e.what());
    }
    for (;;) {
      try {
        io_.run();
        break;
      } catch (const std::exception& e) {
        spdlog::error("analysis worker: {}", e.what());
      }
    }
    tls_state = nullptr;
  });
}

AnalysisWorker::~AnalysisWorker() {
  guard_.reset();
  io_.stop();
  if (thread_.joinable()) thread_.join();
}

void AnalysisWorker::submit(AnalysisJob job, std::function<void(SnapshotPtr)> done) {
  asio::post(io_, [this, job = std::move(job), done = std::move(done)]() mutable {
    auto snap = std::make_shared<AnalysisSnapshot>();
    snap->uri = job.uri;
    snap->version = job.version;
    snap->kind = job.kind;
    snap->source = job.source;
    try {
      if (job.kind == DocumentKind::Python) {
        WorkerState& st = *tls_state;
        analysis::TreePtr old;
        if (!job.reset_tree) {
          old = st.trees.find(job.uri);
          for (const auto& e : job.edits) {
            if (old) old = analysis::edited_copy(old, e);
          }
        }
        snap->result = analysis::analyze(st.parser, *job.source, job.options, old);
        old.reset();
        // The tree stays here only (see TreeCache); snapshots do not carry it.
        if (snap->result.tree) st.trees.put(job.uri, std::move(snap->result.tree), job.source->size());
        else st.trees.erase(job.uri);
        snap->result.tree.reset();
      }
    } catch (const std::exception& e) {
      spdlog::error("analysis of {} v{} failed: {}", job.uri, job.version, e.what());
      if (tls_state) tls_state->trees.erase(job.uri);
    }
    asio::post(reply_to_, [done = std::move(done), snap = SnapshotPtr(std::move(snap))] { done(snap); });
  });
}

void AnalysisWorker::forget(const std::string& uri) {
  asio::post(io_, [uri] {
    if (tls_state) tls_state->trees.erase(uri);
  });
}

void AnalysisWorker::run(std::function<void()> fn) { asio::post(io_, std::move(fn)); }

}  // namespace msprobe::server
