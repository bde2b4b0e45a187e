#include "msprobe/analysis/second_core.h"

namespace msprobe::analysis {

SecondCore::SecondCore(Task init) : thread_([this, init = std::move(init)] { main(init); }) {}

SecondCore::~SecondCore() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

bool SecondCore::try_start(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!ready_ || held_ || stop_) return false;
    held_ = true;
    done_ = false;
    threw_ = false;
    task_ = std::move(task);
  }
  cv_.notify_all();
  return true;
}

bool SecondCore::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return done_ || !held_; });
  held_ = false;
  return !threw_;
}

void SecondCore::dispose(std::shared_ptr<void> garbage) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    garbage_.push_back(std::move(garbage));
  }
  cv_.notify_all();
}

void SecondCore::wait_ready() {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return ready_; });
}

bool SecondCore::ready() {
  std::lock_guard<std::mutex> lock(mutex_);
  return ready_;
}

void SecondCore::main(const Task& init) {
  try {
    if (init) init(parser_);
  } catch (...) {
    // A failed warm-up leaves the parser usable.
  }
  std::unique_lock<std::mutex> lock(mutex_);
  ready_ = true;
  cv_.notify_all();
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || task_ || !garbage_.empty(); });
    if (!garbage_.empty()) {
      std::vector<std::shared_ptr<void>> garbage = std::move(garbage_);
      garbage_.clear();
      lock.unlock();
      garbage.clear();
      lock.lock();
      continue;
    }
    if (!task_) return;  // stopping with nothing started
    Task task = std::move(task_);
    task_ = nullptr;
    lock.unlock();
    bool failed = false;
    try {
      task(parser_);
    } catch (...) {
      failed = true;
    }
    parser_.set_cancel_flag(nullptr);
    lock.lock();
    threw_ = failed;
    done_ = true;
    cv_.notify_all();
  }
}

}  // namespace msprobe::analysis
