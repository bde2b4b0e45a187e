// A pool of analysis threads with per-document serialisation.
//
// Each uri has a queue. A uri is "ready" when it has queued jobs and none
// running; a thread takes a ready uri, merges everything queued for it into one
// job (the intermediate versions are stale before they could be published),
// runs it, and stores the tree for the next incremental parse. A job submitted
// while one for the same uri runs cancels that parse (tree-sitter's
// cancellation flag): the cancelled job's edits are kept and prepended to the
// next job, since the stored tree has not seen them.
#include "analysis_worker.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>

#include "heap.h"
#include "msprobe/analysis/config/config_check.h"
#include "thread_name.h"
#include "warm_up.h"

namespace msprobe::server {
namespace {
long thread_minor_faults() {
  rusage u{};
  return ::getrusage(RUSAGE_THREAD, &u) == 0 ? u.ru_minflt : 0;
}
}  // namespace

AnalysisWorker::AnalysisWorker(asio::io_context& reply_to, unsigned threads) : reply_to_(reply_to) {
  if (threads == 0) {
    inline_parser_ = std::make_unique<analysis::PythonParser>();
    return;
  }
  second_ = std::make_unique<analysis::SecondCore>([](analysis::PythonParser& parser) {
    name_this_thread(kSecondCoreThread);
    // Huge pages as for the analysis threads: in small pages its parse of a
    // 1,000-line document's second half took 5-7 ms instead of 2.6-4.7 (page
    // faults), for 2 MB more at start.
    if (prefer_huge_pages_for_this_thread() == HugePages::Refused)
      spdlog::debug("second-core thread: the kernel refused huge pages for its heap");
    warm_up(parser);
  });
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { thread_main(); });
}

AnalysisWorker::~AnalysisWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (auto& [uri, st] : uris_) {
      if (st.cancel) st.cancel->store(true);
    }
  }
  ready_cv_.notify_all();
  for (auto& t : threads_) t.join();
  second_ = nullptr;  // after the analysis threads: none of them holds it now
}

void AnalysisWorker::submit(AnalysisJob job, std::function<void(SnapshotPtr)> done) {
  std::string uri = job.uri;
  ++outstanding_;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    UriState& st = uris_[uri];
    if (st.running) {
      if (st.cancel && !st.completing) st.cancel->store(true);  // its result would be stale anyway
    } else if (st.queue.empty()) {
      ready_.push_back(uri);
    }
    st.queue.push_back({std::move(job), std::move(done)});
  }
  ready_cv_.notify_one();
}

void AnalysisWorker::forget(const std::string& uri) {
  std::size_t dropped = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = uris_.find(uri);
    if (it == uris_.end()) return;
    UriState& st = it->second;
    dropped = st.queue.size();
    if (st.running) {
      // The running thread sees the new epoch and delivers nothing.
      if (st.cancel) st.cancel->store(true);
      st.queue.clear();
      st.tree = nullptr;
      st.previous = nullptr;
      st.carry.clear();
      st.carry_reset = false;
      ++st.epoch;
    } else {
      uris_.erase(it);  // its entry in ready_ (if any) is skipped when taken
    }
  }
  outstanding_ -= dropped;
}

void AnalysisWorker::keep_tree(const std::string& uri) {
  tree_order_.erase(std::remove(tree_order_.begin(), tree_order_.end(), uri), tree_order_.end());
  auto it = uris_.find(uri);
  if (it != uris_.end() && it->second.tree) tree_order_.push_front(uri);
  std::size_t kept = 0, bytes = 0;
  for (auto o = tree_order_.begin(); o != tree_order_.end();) {
    auto s = uris_.find(*o);
    if (s == uris_.end() || !s->second.tree) {
      o = tree_order_.erase(o);
      continue;
    }
    bool newest = o == tree_order_.begin();
    if (!newest && (!s->second.edited || kept + 1 > kMaxTrees || bytes + s->second.tree_bytes > kMaxTreeSourceBytes)) {
      s->second.tree = nullptr;
      s->second.previous = nullptr;
      o = tree_order_.erase(o);
      continue;
    }
    ++kept;
    if (!newest) bytes += s->second.tree_bytes;
    ++o;
  }
}

std::size_t AnalysisWorker::trees_kept() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t n = 0;
  for (const auto& [uri, st] : uris_) n += st.tree != nullptr;
  return n;
}

bool AnalysisWorker::has_tree(const std::string& uri) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = uris_.find(uri);
  return it != uris_.end() && it->second.tree != nullptr;
}

bool AnalysisWorker::take(std::unique_lock<std::mutex>& lock, bool wait, std::string& uri) {
  for (;;) {
    if (stopping_) return false;
    while (!ready_.empty()) {
      uri = std::move(ready_.front());
      ready_.pop_front();
      auto it = uris_.find(uri);
      if (it != uris_.end() && !it->second.running && !it->second.queue.empty()) return true;
    }
    if (!wait) return false;
    ready_cv_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
  }
}

void AnalysisWorker::thread_main() {
  name_this_thread(kAnalysisThread);
  if (prefer_huge_pages_for_this_thread() == HugePages::Refused)
    spdlog::debug("analysis thread: the kernel refused huge pages for its heap");
  analysis::PythonParser parser;
  try {
    warm_up(parser);  // before the first document arrives (warm_up.h)
  } catch (const std::exception& e) {
    spdlog::debug("analysis thread: warm-up failed: {}", e.what());
  }
  std::unique_lock<std::mutex> lock(mutex_);
  std::string uri;
  while (take(lock, /*wait=*/true, uri)) run_one(uri, parser, lock);
}

std::size_t AnalysisWorker::run_pending() {
  if (!inline_parser_) return 0;
  std::size_t n = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  std::string uri;
  while (take(lock, /*wait=*/false, uri)) {
    run_one(uri, *inline_parser_, lock);
    ++n;
  }
  return n;
}

// Called with the lock held; releases it while analysing.
void AnalysisWorker::run_one(const std::string& uri, analysis::PythonParser& parser,
                             std::unique_lock<std::mutex>& lock) {
  UriState& st = uris_[uri];
  // Merge everything queued: the last job's text and options, all the edits.
  // The edits are gathered before the last job is moved out of the queue
  // (moving it empties its edit list).
  std::size_t merged = st.queue.size();
  std::vector<analysis::ByteEdit> edits = std::move(st.carry);
  bool reset = st.carry_reset;
  bool quiet = true;    // merged jobs publish unless every one of them was quiet
  bool refresh = true;  // ... and repeat identical diagnostics unless every one was a project refresh
  for (Pending& q : st.queue) {
    st.edited = st.edited || q.job.edited;
    quiet = quiet && q.job.quiet;
    refresh = refresh && q.job.project_refresh;
    if (q.job.reset_tree) {
      reset = true;
      edits.clear();
    }
    edits.insert(edits.end(), q.job.edits.begin(), q.job.edits.end());
  }
  Pending p = std::move(st.queue.back());
  st.queue.clear();
  st.carry.clear();
  st.carry_reset = false;
  st.running = true;
  ++running_jobs_;
  // The other core is free: no other job runs or waits.
  analysis::SecondCore* second = second_ && running_jobs_ == 1 && ready_.empty() && !quiet && !refresh ? second_.get()
                                                                                                       : nullptr;
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  st.cancel = cancel;
  const uint64_t epoch = st.epoch;
  analysis::TreePtr old = reset ? nullptr : st.tree;
  SnapshotPtr previous = reset ? nullptr : st.previous;
  outstanding_ -= merged - 1;  // merged jobs are answered by the last one's result
  lock.unlock();

  const AnalysisJob& job = p.job;
  auto snap = std::make_shared<AnalysisSnapshot>();
  snap->uri = job.uri;
  snap->version = job.version;
  snap->kind = job.kind;
  snap->source = job.source;
  snap->quiet = quiet;
  snap->project_refresh = refresh;
  snap->generation = job.generation;
  bool cancelled = false, failed = false;
  // With an analysis in two parts: the whole text's parse, running on the
  // second core since its part was done (stopped and waited for when dropped).
  std::shared_ptr<analysis::WholeTreeParse> whole_parse;
  if (job.test_delay_ms > 0) {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(job.test_delay_ms);
    while (!cancel->load() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    cancelled = cancel->load();
  }
  if (!cancelled && job.kind == DocumentKind::Python) {
    try {
      const long faults_before = thread_minor_faults();
      for (const auto& e : edits) old = analysis::edited_copy(old, e);
      parser.set_timeout_micros(job.parse_timeout_micros);
      parser.set_cancel_flag(cancel.get());
      analysis::PreviousFacts lend;
      if (previous && previous->source && previous->result.facts.chunks)
        lend = {&previous->result.facts, previous->source->view(), previous->result.summary.get()};
      // The other core parses half of a fresh text, or copies the previous
      // facts during an edit's reparse; an edit with no tree left to start
      // from is parsed here alone, as before.
      analysis::SecondCore* helper = edits.empty() || old ? second : nullptr;
      snap->result = analysis::analyze(parser, *job.source, job.options, old, job.project ? &*job.project : nullptr,
                                       lend.facts ? &lend : nullptr, helper, /*whole_tree=*/true);
      const analysis::StageTimes& t = snap->result.times;
      spdlog::debug(
          "analysed {} v{}: parse {:.2f} ms, facts {:.2f} ({} top-level statements walked, {} reused), summary {:.2f} "
          "({} calls derived, {} kept), project {:.2f}, rules {:.2f}; {} page faults",
          job.uri, job.version, t.parse, t.facts, t.statements_walked, t.statements_reused, t.summary, t.calls_derived,
          t.calls_reused, t.project, t.rules, thread_minor_faults() - faults_before);
      if (snap->result.in_parts)
        spdlog::debug(
            "... in two parts: the second parsed in {:.2f} ms and its facts built in {:.2f} on the other "
            "thread; waited {:.2f} ms for it",
            t.second_parse, t.second_facts, t.waited);
      if (t.donor)
        spdlog::debug(
            "... the previous facts copied in {:.2f} ms on the other thread during the parse; waited {:.2f} ms",
            t.donor_copy, t.donor_waited);
      cancelled = snap->result.timed_out && cancel->load();
      whole_parse = std::move(snap->result.whole_tree);
      snap->result.first_part = nullptr;
    } catch (const std::exception& e) {
      spdlog::error("analysis of {} v{} failed: {}", job.uri, job.version, e.what());
      failed = true;
    }
    parser.set_cancel_flag(nullptr);
  } else if (!cancelled && job.kind == DocumentKind::Json && job.config_check != ConfigCheck::No &&
             job.source->size() <= (1u << 20) &&
             (job.config_check == ConfigCheck::Always ||
              analysis::config::looks_like_msprobe_config(job.source->view()))) {
    try {
      snap->result.findings = analysis::config::check_config(job.source->view(), job.options);
    } catch (const std::exception& e) {
      spdlog::error("config check of {} v{} failed: {}", job.uri, job.version, e.what());
    }
  }

  lock.lock();
  // What this job replaces is freed after the result is on its way, unlocked:
  // freeing a large tree or facts takes a millisecond or more.
  analysis::TreePtr replaced_tree;
  SnapshotPtr replaced_previous;
  UriState& after = uris_[uri];  // a running uri is never erased: stays valid while unlocked
  bool posted = false;
  analysis::TreePtr whole;  // taken after the publish, when the analysis parsed two halves
  if (snap->result.in_parts && whole_parse && !cancelled && !failed && after.epoch == epoch && !stopping_) {
    asio::post(reply_to_, [done = std::move(p.done), s = SnapshotPtr(snap)] { done(s); });
    posted = true;
    // Only forget() and the worker's end stop this parse (UriState::completing).
    after.cancel = whole_parse->stop_flag();
    after.completing = true;
    lock.unlock();
    const auto waited_from = std::chrono::steady_clock::now();
    whole = whole_parse->take();
    spdlog::debug("whole tree of {} v{}: {} after waiting {:.2f} ms after the publish", job.uri, job.version,
                  whole ? "parsed" : "not parsed",
                  std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - waited_from).count());
    lock.lock();
    after.completing = false;
  }
  after.running = false;
  after.cancel = nullptr;
  --running_jobs_;
  bool deliver = after.epoch == epoch;
  if (deliver) {
    if (cancelled) {
      // The stored tree has not seen these edits: the next job applies them first.
      after.carry = std::move(edits);
      after.carry_reset = reset;
    } else if (job.kind == DocumentKind::Python) {
      replaced_tree = std::move(after.tree);
      replaced_previous = std::move(after.previous);
      // Null after a timeout: the next parse starts fresh.
      after.tree = failed ? nullptr : snap->result.in_parts ? whole : snap->result.tree;
      after.previous = after.tree && snap->result.facts.chunks ? snap : nullptr;
      after.tree_bytes = job.source ? job.source->size() : 0;
      keep_tree(uri);
    }
  }
  if (!after.queue.empty()) {
    ready_.push_back(uri);
    ready_cv_.notify_one();
  } else if (!after.tree && after.carry.empty() && !after.carry_reset) {
    uris_.erase(uri);  // nothing worth keeping (a forgotten uri, a timed-out parse, JSON)
  }
  // Cancelled results are never published: a newer job for the uri is queued
  // and will answer everyone waiting.
  deliver = deliver && !cancelled && !stopping_ && !posted;
  if (deliver) {
    asio::post(reply_to_, [done = std::move(p.done), s = SnapshotPtr(std::move(snap))] { done(s); });
  }
  --outstanding_;
  lock.unlock();
  replaced_tree = nullptr;
  replaced_previous = nullptr;
  whole = nullptr;
  whole_parse = nullptr;  // not taken (cancelled, failed, forgotten): stopped and waited for
  old = nullptr;
  previous = nullptr;
  lock.lock();
}

}  // namespace msprobe::server
