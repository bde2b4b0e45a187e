// msprobe-lsp: the language server over stdio, or a CLI subcommand.
#include <signal.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define MSPROBE_LSP_HAS_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MSPROBE_LSP_HAS_LSAN 1
#endif
#endif
#if MSPROBE_LSP_HAS_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#include "cli/cli.h"
#include "heap.h"
#include "language_server.h"
#include "transport.h"

namespace {

constexpr const char* kUsage = R"(msprobe-lsp - a language server for enabling msProbe's PrecisionDebugger dump

Usage:
  msprobe-lsp [--stdio] [--clientProcessId=PID] [--log-file PATH] [--log-level LEVEL]
      Run the language server on stdin/stdout (the default).
  msprobe-lsp check [--format text|json] [--torch-version V] [--msprobe-version V] PATH...
      Report msProbe findings for Python files (directories are walked).
  msprobe-lsp config [--task T] [--level L] [--rank R] [--step S] --dump-path P [--output FILE [--force]]
      Write an msProbe config.json (printed when --output is not given).
  msprobe-lsp check-dump [--format text|json] [--msprobe-version V] [--base DIR] CONFIG
      Report what a run dumped under the config's dump_path, why something is missing,
      and how much a tensor dump of the same steps would write.
  msprobe-lsp verify SCRIPT [--config PATH] [--steps N] [--python PY] [--format text|json] [-- SCRIPT_ARGS...]
      Run SCRIPT (or -m MODULE) for its first N steps (default 1) with a copy of its config,
      then check the dump. For torchrun/deepspeed, print the command line to run instead.
  msprobe-lsp schema [--msprobe-version V]
      Print the JSON Schema of config.json.
  msprobe-lsp enable FILE [--loop LINE] [--config PATH] [--diff | --write]
      Insert the msProbe dump points (import, seed_all, PrecisionDebugger,
      start/stop/step) into a loop; on a commented-out dump, uncomment it.
  msprobe-lsp disable FILE [--diff | --write]
      Comment the dump lines out.
  msprobe-lsp remove FILE [--diff | --write]
      Delete the dump code.
  msprobe-lsp vllm-ascend-flags CONFIG
      Print vllm-ascend's --additional-config for a config file.
  msprobe-lsp explain [--format text|json] [--loop LINE] FILE...
      Show what the engine finds: loops and their roles, Dynamo sites, msProbe calls, the plan.
  msprobe-lsp --version | --help

Log levels: trace, debug, info (default), warn, error, off. Logs go to stderr or the
log file, never to stdout (which carries the protocol).
)";

bool take_value(int argc, char** argv, int& i, const std::string& name, std::string& value) {
  std::string a = argv[i];
  if (a == name && i + 1 < argc) {
    value = argv[++i];
    return true;
  }
  if (a.rfind(name + "=", 0) == 0) {
    value = a.substr(name.size() + 1);
    return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  // `msprobe-lsp <command> --help`: the usage (which lists every command's options).
  if (argc >= 3 && msprobe::cli::is_command(argv[1])) {
    for (int i = 2; i < argc && std::string(argv[i]) != "--"; ++i) {
      if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
        std::cout << kUsage;
        return 0;
      }
    }
  }
  // `check` over a tree faults in hundreds of MB: huge pages, and freed memory
  // kept for the next file (heap.h).
  if (argc >= 2 && std::string(argv[1]) == "check") {
    msprobe::server::respawn_with_huge_pages(argv);
    msprobe::server::keep_freed_memory();
  }
  if (auto code = msprobe::cli::run(argc, argv)) return *code;

  std::string log_file, log_level = "info", client_pid;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--version" || a == "-V") {
      std::cout << "msprobe-lsp " << MSPROBE_LSP_VERSION << "\n";
      return 0;
    }
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--stdio") continue;
    if (take_value(argc, argv, i, "--log-file", log_file) || take_value(argc, argv, i, "--log-level", log_level) ||
        take_value(argc, argv, i, "--clientProcessId", client_pid))
      continue;
    std::cerr << "msprobe-lsp: unknown argument '" << a << "'\n\n" << kUsage;
    return 2;
  }

  try {
    std::shared_ptr<spdlog::logger> logger;
    if (!log_file.empty()) logger = spdlog::basic_logger_mt("msprobe-lsp", log_file);
    else logger = spdlog::stderr_logger_mt("msprobe-lsp");
    spdlog::set_default_logger(logger);
  } catch (const spdlog::spdlog_ex& e) {
    std::cerr << "msprobe-lsp: cannot open log file: " << e.what() << "\n";
    return 2;
  }
  auto level = spdlog::level::from_str(log_level);
  if (level == spdlog::level::off && log_level != "off") {
    std::cerr << "msprobe-lsp: unknown log level '" << log_level << "'\n";
    return 2;
  }
  spdlog::set_level(level);
  spdlog::flush_on(spdlog::level::info);

  ::signal(SIGPIPE, SIG_IGN);
  // Keep freed memory for the next analysis while the server works (heap.h);
  // the server gives it back once idle.
  if (msprobe::server::keep_freed_memory())
    spdlog::debug("heap: keeping up to {} MB freed per arena for reuse", msprobe::server::kHeapKeepBytes >> 20);
  asio::io_context io;
  msprobe::server::StdioTransport transport(STDIN_FILENO, STDOUT_FILENO);
  int exit_code = 1;
  {
    auto keep_running = asio::make_work_guard(io);  // the reader thread posts work later
    msprobe::server::LanguageServer server(io, transport);
    if (!client_pid.empty()) {
      // Lenient like the rest of the command line clients build: a value that is
      // not a positive pid is reported and ignored.
      char* end = nullptr;
      long pid = std::strtol(client_pid.c_str(), &end, 10);
      if (end && *end == '\0' && pid > 0 && pid <= std::numeric_limits<int>::max())
        server.watch_parent(static_cast<int>(pid));
      else spdlog::warn("ignoring --clientProcessId={}: not a process id", client_pid);
    }
    transport.start(
        io, [&](msprobe::protocol::Frame f) { server.on_frame(std::move(f)); },
        [&](std::string why) { server.on_eof(why); });
    spdlog::info("msprobe-lsp {} started", MSPROBE_LSP_VERSION);
    io.run();
    exit_code = server.exit_code();
  }
  spdlog::info("exiting with code {}", exit_code);
  spdlog::shutdown();
#if MSPROBE_LSP_HAS_LSAN
  // _exit() skips LeakSanitizer's atexit check: run it now, so sanitizer
  // builds of the transcript tests catch leaks in the server too.
  __lsan_do_leak_check();
#endif
  // The reader thread may still be blocked in read(); end the process without
  // waiting for it.
  std::cout.flush();
  ::_exit(exit_code);
}
