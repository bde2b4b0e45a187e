// The analysis threads. A small pool runs jobs for different documents in
// parallel, so a long parse of one file never delays another; jobs for the
// same document run one at a time and in order, because each one reparses
// incrementally from the tree the previous one left. Results are posted back
// to the I/O thread's io_context.
//
// A large document opened while nothing else is analysed is parsed in two
// halves, the second on a helper thread (the other core), and its result
// published. The helper goes on to parse the whole text as soon as its half
// is built (from the first half's tree); after publishing, the job waits for
// that tree, which the next edit starts from. Its snapshot has no tree
// (Analysis::in_parts): a request that needs one waits for a quiet analysis
// that reuses that tree and those facts. On an edit of a large document the
// helper copies the previous facts while the job reparses
// (PreviousFacts::donor), under the same condition: nothing else runs or waits.
#pragma once

#include <asio.hpp>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "document.h"
#include "msprobe/analysis/second_core.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::server {

// Whether a JSON document is checked as an msProbe config (handlers/config_sync.cpp).
enum class ConfigCheck { No, IfMsprobeKeys, Always };

struct AnalysisJob {
  std::string uri;
  int version = 0;
  DocumentKind kind = DocumentKind::Other;
  std::shared_ptr<const analysis::SourceText> source;
  std::vector<analysis::ByteEdit> edits;  // since the previous job for this uri
  bool reset_tree = false;
  analysis::AnalysisOptions options;
  ConfigCheck config_check = ConfigCheck::No;
  uint64_t parse_timeout_micros = 1'500'000;
  int test_delay_ms = 0;                          // test-only: sleep (cancellably) before analysing
  bool quiet = false;                             // refreshes a slim snapshot's facts: the result is not published
  std::optional<analysis::ProjectInput> project;  // the project the document belongs to
  // Re-checks a document because another file of its project changed:
  // diagnostics equal to the ones already published are not sent again.
  bool project_refresh = false;
  uint64_t generation = 0;  // Document::generation
  // The document was edited since it was opened: its tree is worth keeping
  // for the next edit. One that was only opened keeps it while it is the
  // newest (an editor restoring its tabs opens dozens at once).
  bool edited = false;
};

class AnalysisWorker {
 public:
  // `threads` == 0 runs nothing until run_pending() is called on the caller's
  // thread: deterministic, for the fuzzer and tests.
  explicit AnalysisWorker(asio::io_context& reply_to, unsigned threads = 2);
  ~AnalysisWorker();
  AnalysisWorker(const AnalysisWorker&) = delete;
  AnalysisWorker& operator=(const AnalysisWorker&) = delete;

  // Queues a job. Jobs for one uri that queue up behind each other are merged
  // (only the newest result matters), and a running job for the same uri is
  // cancelled: its edits carry over to the next one.
  void submit(AnalysisJob job, std::function<void(SnapshotPtr)> done);
  // Drops the uri's tree and queued jobs; results still running are not delivered.
  void forget(const std::string& uri);
  // True when no job is queued or running and every result has been posted.
  bool idle() const { return outstanding_.load() == 0; }
  // With threads == 0: runs every queued job now; returns how many ran.
  std::size_t run_pending();

 private:
  struct Pending {
    AnalysisJob job;
    std::function<void(SnapshotPtr)> done;
  };
  struct UriState {
    std::deque<Pending> queue;
    bool running = false;
    std::shared_ptr<std::atomic<bool>> cancel;  // of the running job
    uint64_t epoch = 0;                         // bumped by forget()
    analysis::TreePtr tree;                     // after the last job that parsed (kept for a few uris only)
    std::size_t tree_bytes = 0;                 // size of the source that tree is of
    // The analysis that tree came from: its facts (and text) lend the next
    // analysis the facts of the top-level statements an edit left alone.
    SnapshotPtr previous;
    // Edits of jobs that were cancelled before their parse finished.
    std::vector<analysis::ByteEdit> carry;
    bool carry_reset = false;
    bool edited = false;  // some job said AnalysisJob::edited
    // Parsing the whole text after publishing an analysis in two parts: a job
    // submitted meanwhile waits for that tree instead of cancelling it (the
    // rest of that parse costs less than the fresh parse it would need).
    bool completing = false;
  };

  void thread_main();
  // Takes the next ready uri; false when there is none (and `wait` is false or we stop).
  bool take(std::unique_lock<std::mutex>& lock, bool wait, std::string& uri);
  void run_one(const std::string& uri, analysis::PythonParser& parser, std::unique_lock<std::mutex>& lock);
  // Marks `uri`'s tree as the newest and drops the trees beyond the budget
  // (a tree takes ~45 bytes per source byte; without one the next edit of that
  // document parses from scratch). Called with the lock held.
  void keep_tree(const std::string& uri);

 public:
  // The tree budget: the newest tree always, then up to kMaxTrees trees of
  // edited documents of at most kMaxTreeSourceBytes of source together.
  static constexpr std::size_t kMaxTrees = 4;
  static constexpr std::size_t kMaxTreeSourceBytes = 256 * 1024;
  std::size_t trees_kept() const;
  // The helper thread for documents parsed in two halves has started.
  bool second_core_ready() const { return second_ && second_->ready(); }
  bool has_tree(const std::string& uri) const;

 private:
  std::deque<std::string> tree_order_;  // uris holding a tree, newest first

  asio::io_context& reply_to_;
  mutable std::mutex mutex_;
  std::condition_variable ready_cv_;
  std::unordered_map<std::string, UriState> uris_;
  std::deque<std::string> ready_;  // uris with queued jobs and none running
  bool stopping_ = false;
  std::atomic<std::size_t> outstanding_{0};
  std::unique_ptr<analysis::PythonParser> inline_parser_;  // threads == 0
  // Parses the second half of a large document opened while no other job
  // runs (analyze(), split_analysis.h); none with threads == 0.
  std::unique_ptr<analysis::SecondCore> second_;
  std::size_t running_jobs_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace msprobe::server
