// Runs a program in the foreground with its output passed through: what it
// writes to stdout and stderr goes to our own descriptors as it comes, and
// each complete line is also handed to a callback (verify scans them for
// msProbe's [ERROR] lines). It stays in our process group, so Ctrl+C reaches
// it; while it runs, SIGINT and SIGQUIT are ignored here, as system() does,
// so the report can still be written after it stops.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace msprobe::server {

struct ChildResult {
  bool started = false;
  std::string error;   // why it did not start
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
};

// `argv[0]` is looked up on PATH. `extra_env` entries ("NAME=value") are added
// to (or replace in) the environment. `out_fd` / `err_fd` receive the child's
// stdout / stderr.
// `on_line` gets 1 or 2 (the stream) and each line without its newline.
using LineFn = std::function<void(int stream, const std::string& line)>;
ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env, int out_fd,
                      int err_fd, const LineFn& on_line);

}  // namespace msprobe::server
