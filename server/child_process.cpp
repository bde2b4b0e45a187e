// posix_spawn with two pipes, read with poll until the child is gone.
#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace msprobe::server {
namespace {

void write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;  // our own output is gone; keep draining the child
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Splits a stream into lines for the callback; a very long line is cut.
struct LineSplitter {
  int stream = 1;
  std::string pending;
  void feed(const char* data, std::size_t n, const LineFn& on_line) {
    for (std::size_t i = 0; i < n; ++i) {
      if (data[i] == '\n' || pending.size() >= 64 * 1024) {
        if (on_line) on_line(stream, pending);
        pending.clear();
        if (data[i] == '\n') continue;
      }
      pending.push_back(data[i]);
    }
  }
  void flush(const LineFn& on_line) {
    if (!pending.empty() && on_line) on_line(stream, pending);
    pending.clear();
  }
};

std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || x.substr(0, x.find('=')) == name;
    if (!replaced) env.push_back(entry);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv_in, const std::vector<std::string>& extra_env, int out_fd,
                      int err_fd, const LineFn& on_line) {
  ChildResult r;
  if (argv_in.empty()) {
    r.error = "nothing to run";
    return r;
  }
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGQUIT);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  std::vector<std::string> args = argv_in;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = merged_environment(extra_env);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  struct sigaction ignore {
  }, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);

  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, args[0].c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    r.error = "cannot run " + args[0] + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;

  LineSplitter lines[2];
  lines[1].stream = 2;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  const int targets[2] = {out_fd, err_fd};
  int open_pipes = 2, status = 0;
  bool exited = false;
  while (open_pipes > 0) {
    int n = ::poll(fds, 2, exited ? 0 : 200);
    if (n < 0 && errno != EINTR) break;
    if (n > 0) {
      for (int i = 0; i < 2; ++i) {
        if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char buf[8192];
        ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
          ::close(fds[i].fd);
          fds[i].fd = -1;
          --open_pipes;
          continue;
        }
        write_all(targets[i], buf, static_cast<std::size_t>(got));
        lines[i].feed(buf, static_cast<std::size_t>(got), on_line);
      }
    }
    if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) exited = true;
    // Once the child is gone and nothing is left to read, stop: processes it
    // started (DataLoader workers, say) may still hold the pipes open.
    if (exited && n == 0) break;
  }
  for (auto& fd : fds) {
    if (fd.fd >= 0) ::close(fd.fd);
  }
  for (auto& l : lines) l.flush(on_line);
  if (!exited) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace msprobe::server
