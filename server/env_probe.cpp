// The environment probe: posix_spawn in its own process group, a pipe read
// with poll() against a deadline, SIGKILL to the group on timeout.
#include "env_probe.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "config_paths.h"
#include "thread_name.h"

extern char** environ;

namespace msprobe::server {
namespace {

// Niceness of the probe's process group (0 normal, 19 lowest): it still runs
// on a busy machine, but an analysis thread wanting the core goes first.
constexpr int kProbeNice = 10;

constexpr const char* kScript = R"py(import json, sys
r = {"python": sys.version.split()[0]}
try:
    from importlib import metadata
except ImportError:
    metadata = None
def version(dist):
    if metadata is None:
        return None
    try:
        return metadata.version(dist)
    except Exception:
        return None
r["torch"] = version("torch")
r["msprobe"] = version("mindstudio-probe")
if "--npu" in sys.argv:
    try:
        import torch
        import torch_npu
        r["torch_npu"] = True
        try:
            r["npu_available"] = bool(torch.npu.is_available())
        except Exception as e:
            r["npu_available"] = False
            r["npu_error"] = str(e)[:300]
    except Exception as e:
        r["torch_npu"] = False
        r["npu_error"] = str(e)[:300]
print("MSPROBE-LSP-PROBE " + json.dumps(r))
)py";

constexpr std::size_t kMaxOutput = 64 * 1024;

void parse_output(const std::string& out, ProbeResult& r) {
  static const std::string kMarker = "MSPROBE-LSP-PROBE ";
  std::size_t at = out.rfind(kMarker);
  if (at == std::string::npos) {
    r.error = "the interpreter did not print the probe's answer";
    return;
  }
  std::string line = out.substr(at + kMarker.size());
  line = line.substr(0, line.find('\n'));
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object()) {
    r.error = "the probe's answer is not JSON";
    return;
  }
  r.ran = true;
  auto str = [&](const char* k) -> std::optional<std::string> {
    if (j.contains(k) && j[k].is_string() && !j[k].get<std::string>().empty()) return j[k].get<std::string>();
    return std::nullopt;
  };
  r.python_version = str("python").value_or("");
  r.torch = str("torch");
  r.msprobe = str("msprobe");
  if (j.contains("torch_npu") && j["torch_npu"].is_boolean()) {
    r.npu_checked = true;
    r.torch_npu = j["torch_npu"].get<bool>();
    if (j.contains("npu_available") && j["npu_available"].is_boolean())
      r.npu_available = j["npu_available"].get<bool>();
    r.npu_error = str("npu_error").value_or("");
  }
}

}  // namespace

const char* EnvProbe::script() { return kScript; }

ProbeResult EnvProbe::run(const std::string& python, bool check_npu, std::chrono::milliseconds timeout,
                          const std::atomic<bool>* cancel) {
  ProbeResult r;
  r.python = python;
  auto t0 = std::chrono::steady_clock::now();
  auto finish = [&] {
    r.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  int fds[2];
  if (::pipe(fds) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return finish();
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  posix_spawn_file_actions_addchdir_np(&actions, "/");
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<std::string> args = {python, "-c", kScript};
  if (check_npu) args.push_back("--npu");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, python.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    r.error = "cannot run " + python + ": " + std::strerror(rc);
    return finish();
  }
  // The probe is background work: it yields the cores to the analysis of
  // what the user opened (its group: a pyenv-style shim starts Python as a
  // child of its own).
  ::setpriority(PRIO_PGRP, static_cast<id_t>(pid), kProbeNice);
  std::string out;
  auto deadline = t0 + timeout;
  bool eof = false;
  while (!eof) {
    if (cancel && cancel->load()) break;
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      r.timed_out = true;
      break;
    }
    int wait = static_cast<int>(
        std::min<long long>(100, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1));
    pollfd p{fds[0], POLLIN, 0};
    int n = ::poll(&p, 1, wait);
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    char buf[4096];
    ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      eof = true;
      break;
    }
    if (out.size() < kMaxOutput) out.append(buf, static_cast<std::size_t>(got));
  }
  ::close(fds[0]);
  int status = 0;
  if (!eof) {
    ::kill(-pid, SIGKILL);  // the whole group: the interpreter and anything it started
    ::waitpid(pid, &status, 0);
    if (r.timed_out)
      r.error = python + " did not answer within " + std::to_string(timeout.count()) + " ms and was stopped";
    else r.error = "probe cancelled";
    return finish();
  }
  // Output is complete; the process exits right after. Reap it (bounded).
  for (int i = 0; i < 50; ++i) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    ::usleep(20000);
    if (i == 49) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
    }
  }
  parse_output(out, r);
  if (!r.ran && WIFEXITED(status) && WEXITSTATUS(status) == 127) r.error = "cannot run " + python;
  return finish();
}

EnvProbe::EnvProbe(asio::io_context& io, std::chrono::milliseconds timeout)
    : io_(io), timeout_(timeout), stopping_(std::make_shared<std::atomic<bool>>(false)) {}

EnvProbe::~EnvProbe() {
  stopping_->store(true);
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void EnvProbe::wait_for_editor(const std::atomic<bool>& stopping) const {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto step = std::chrono::milliseconds(5);
  while (!stopping.load()) {
    const auto waited = Clock::now() - start;
    if (waited >= start_delay && (!editor_busy || !editor_busy() || waited >= start_delay + max_yield)) return;
    std::this_thread::sleep_for(step);
  }
}

void EnvProbe::start(const std::string& python, bool check_npu, std::function<void(ProbeResult)> done) {
  ++running_;
  threads_.emplace_back([this, python, check_npu, done = std::move(done), stopping = stopping_, timeout = timeout_] {
    name_this_thread(kProbeThread);
    wait_for_editor(*stopping);
    ProbeResult r = run(python, check_npu, timeout, stopping.get());
    --running_;
    if (stopping->load()) return;
    asio::post(io_, [done, r = std::move(r)] { done(r); });
  });
}

PinnedVersions read_pins(const std::vector<std::string>& folders) {
  PinnedVersions pins;
  static const std::regex torch_re(R"((?:^|["'\s])torch\s*===?\s*([0-9][^"',;\s\]#]*))");
  static const std::regex msprobe_re(R"((?:^|["'\s])mindstudio[-_]probe\s*===?\s*([0-9][^"',;\s\]#]*))",
                                     std::regex::icase);
  for (const auto& folder : folders) {
    std::vector<std::string> files;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(folder, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
      std::string name = it->path().filename().string();
      if ((name.rfind("requirements", 0) == 0 && it->path().extension() == ".txt") || name == "pyproject.toml")
        files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::string text;
      if (!read_small_file(f, text)) continue;
      std::istringstream lines(text);
      std::string line;
      while (std::getline(lines, line)) {
        line = line.substr(0, line.find('#'));
        std::smatch m;
        if (!pins.torch && std::regex_search(line, m, torch_re)) {
          pins.torch = m[1].str();
          if (pins.source.empty()) pins.source = f;
        }
        if (!pins.msprobe && std::regex_search(line, m, msprobe_re)) {
          pins.msprobe = m[1].str();
          if (pins.source.empty()) pins.source = f;
        }
      }
    }
  }
  return pins;
}

}  // namespace msprobe::server
