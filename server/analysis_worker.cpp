// Runs jobs in submission order on one thread (the machine has two cores: one
// for I/O, one for analysis).
#include "analysis_worker.h"

#include <spdlog/spdlog.h>

#include <unordered_map>

#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::server {
namespace {

// Worker-thread state; lives in the thread's stack frame.
struct WorkerState {
  analysis::PythonParser parser;
  std::unordered_map<std::string, analysis::TreePtr> trees;
};

thread_local WorkerState* tls_state = nullptr;

}  // namespace

AnalysisWorker::AnalysisWorker(asio::io_context& reply_to)
    : reply_to_(reply_to), guard_(asio::make_work_guard(io_)) {
  thread_ = std::thread([this] {
    WorkerState state;
    tls_state = &state;
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
          auto it = st.trees.find(job.uri);
          if (it != st.trees.end()) {
            old = it->second;
            for (const auto& e : job.edits) old = analysis::edited_copy(old, e);
          }
        }
        snap->result = analysis::analyze(st.parser, *job.source, job.options, old);
        if (snap->result.tree) st.trees[job.uri] = snap->result.tree;
        else st.trees.erase(job.uri);
      } else if (job.kind == DocumentKind::Json && job.config_check != ConfigCheck::No && job.source->size() <= (1u << 20) &&
                 (job.config_check == ConfigCheck::Always || analysis::config::looks_like_msprobe_config(job.source->view()))) {
        snap->result.findings = analysis::config::check_config(job.source->view(), job.options);
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
