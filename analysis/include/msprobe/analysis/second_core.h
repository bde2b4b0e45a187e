// A helper thread with its own parser, lent to one analysis at a time: a
// fresh parse of a large text runs in two parts, one on each core
// (analyze(), split_analysis.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "msprobe/analysis/syntax.h"

namespace msprobe::analysis {

class SecondCore {
 public:
  using Task = std::function<void(PythonParser&)>;
  // `init` runs first on the new thread (the server names the thread, asks
  // for huge pages and warms the parser up); tasks are refused until it ends.
  explicit SecondCore(Task init = nullptr);
  ~SecondCore();
  SecondCore(const SecondCore&) = delete;
  SecondCore& operator=(const SecondCore&) = delete;

  // Starts `task` on the helper thread; false, and nothing runs, while the
  // thread is still starting or another analysis holds it. A started task
  // must be waited for with wait() before its captures go away.
  bool try_start(Task task);
  // Waits until the started task has returned; false when it threw.
  bool wait();
  // Hands the thread something to free (what a task made there: freeing
  // it on the thread that allocated it keeps each heap to its thread), before
  // its next task, without waiting.
  void dispose(std::shared_ptr<void> garbage);
  // Waits until `init` has run (tests: try_start refuses until then).
  void wait_ready();
  bool ready();

 private:
  void main(const Task& init);

  std::mutex mutex_;
  std::condition_variable cv_;
  Task task_;
  std::vector<std::shared_ptr<void>> garbage_;
  bool ready_ = false;  // init has run
  bool held_ = false;   // started and not yet waited for
  bool done_ = false;   // the held task returned
  bool threw_ = false;
  bool stop_ = false;
  PythonParser parser_;
  std::thread thread_;  // last: starts once the members above exist
};

// The parse of a whole text that a SecondCore runs once it has built the
// text's second part, while the caller finishes the analysis
// (analyze(..., second, /*whole_tree=*/true)): the tree the next edit
// reparses from. It holds the SecondCore, and reads the text, until take()
// or its destruction, which stops the parse and waits for it.
class WholeTreeParse {
 public:
  virtual ~WholeTreeParse() = default;
  // Waits for the parse and frees the SecondCore: the tree of the whole
  // text, or null when the parse was stopped, ran out of time or failed.
  virtual TreePtr take() = 0;
  // Setting this flag ends the parse early (take() then gives null).
  virtual std::shared_ptr<std::atomic<bool>> stop_flag() = 0;
};

}  // namespace msprobe::analysis
