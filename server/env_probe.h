// Asks the user's Python interpreter (msprobe.pythonPath) which torch and
// mindstudio-probe versions it has, and on request whether torch_npu imports
// and an NPU is available. A fixed script of our own runs with `python -c`
// from "/" (so no module of the user's workspace can shadow the standard
// library), in a background thread, killed after the timeout. Results are
// delivered on the server's io_context; the I/O thread never waits.
#pragma once

#include <asio.hpp>
#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace msprobe::server {

struct ProbeResult {
  std::string python;  // the interpreter asked
  bool ran = false;    // it started and printed the expected JSON
  bool timed_out = false;
  std::string error;  // why it did not run, or what went wrong
  std::string python_version;
  std::optional<std::string> torch, msprobe;  // versions; empty when not installed
  bool npu_checked = false;
  std::optional<bool> torch_npu, npu_available;
  std::string npu_error;
  long long elapsed_ms = 0;
};

// Versions pinned in requirements*.txt / pyproject.toml of a folder.
struct PinnedVersions {
  std::optional<std::string> torch, msprobe;
  std::string source;  // the file the first pin came from
};
PinnedVersions read_pins(const std::vector<std::string>& folders);

class EnvProbe {
 public:
  explicit EnvProbe(asio::io_context& io, std::chrono::milliseconds timeout = std::chrono::seconds(5));
  ~EnvProbe();  // kills running interpreters and joins their threads
  EnvProbe(const EnvProbe&) = delete;
  EnvProbe& operator=(const EnvProbe&) = delete;

  // The probe is background work, started as the editor opens its documents:
  // an interpreter importing torch takes a core for a second or more. So
  // that the first diagnostics do not wait for it (as the project index
  // does), a probe begins `start_delay` after start() and then waits while
  // `editor_busy` (asked on the probe's thread, so thread-safe; may be empty)
  // returns true, at most `max_yield`. The timeout counts from the spawn.
  std::function<bool()> editor_busy;
  std::chrono::milliseconds start_delay{0};
  std::chrono::milliseconds max_yield{1000};

  // Runs the probe in the background; `done` is posted to the io_context.
  void start(const std::string& python, bool check_npu, std::function<void(ProbeResult)> done);
  int running() const { return running_.load(); }

  // The same work on the calling thread (tests, CLI).
  static ProbeResult run(const std::string& python, bool check_npu, std::chrono::milliseconds timeout,
                         const std::atomic<bool>* cancel = nullptr);
  static const char* script();

 private:
  void wait_for_editor(const std::atomic<bool>& stopping) const;

  asio::io_context& io_;
  std::chrono::milliseconds timeout_;
  std::shared_ptr<std::atomic<bool>> stopping_;
  std::atomic<int> running_{0};
  std::list<std::thread> threads_;
};

}  // namespace msprobe::server
