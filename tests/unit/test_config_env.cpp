// The environment probe against fake interpreters (tests/config/fake_python),
// and the pins read from requirements files.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "env_probe.h"

namespace fs = std::filesystem;
using namespace msprobe::server;
using namespace std::chrono_literals;

namespace {

// The probe's timeout for tests that are not about it: no fake interpreter
// comes near it, however loaded the machine.
constexpr auto kNoTimeout = std::chrono::minutes(10);

std::string fake(const char* name) { return (fs::path(MSPROBE_TESTS_DIR) / "config" / "fake_python" / name).string(); }

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("msprobe-env-" + std::to_string(::getpid()) + "-" + std::to_string(rand()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
  }
};

}  // namespace

TEST_CASE("probe: an interpreter with torch and msProbe") {
  ProbeResult r = EnvProbe::run(fake("present.sh"), false, kNoTimeout);
  CHECK(r.ran);
  CHECK(r.error.empty());
  CHECK(r.python_version == "3.10.12");
  CHECK(r.torch == std::optional<std::string>("2.7.1"));
  CHECK(r.msprobe == std::optional<std::string>("26.0.0"));
  CHECK_FALSE(r.npu_checked);
  ProbeResult npu = EnvProbe::run(fake("present.sh"), true, kNoTimeout);
  CHECK(npu.npu_checked);
  CHECK(npu.torch_npu == std::optional<bool>(false));
  CHECK(npu.npu_error == "No module named torch_npu");
  ProbeResult ascend = EnvProbe::run(fake("npu.sh"), true, kNoTimeout);
  CHECK(ascend.torch_npu == std::optional<bool>(true));
  CHECK(ascend.npu_available == std::optional<bool>(true));
}

TEST_CASE("probe: the interpreter runs below the server's priority") {
  ProbeResult r = EnvProbe::run(fake("niceness.sh"), false, kNoTimeout);
  REQUIRE(r.ran);
  CHECK(r.python_version == "10");  // what the fake read as its own niceness
}

TEST_CASE("probe: missing msProbe, missing interpreter, garbage output") {
  ProbeResult r = EnvProbe::run(fake("no_msprobe.sh"), false, kNoTimeout);
  CHECK(r.ran);
  CHECK(r.torch == std::optional<std::string>("2.1.0"));
  CHECK_FALSE(r.msprobe);
  ProbeResult missing = EnvProbe::run("/nonexistent/python3", false, kNoTimeout);
  CHECK_FALSE(missing.ran);
  CHECK(missing.error.find("No such file or directory") != std::string::npos);
  ProbeResult garbage = EnvProbe::run(fake("garbage.sh"), false, kNoTimeout);
  CHECK_FALSE(garbage.ran);
  CHECK(garbage.error.find("did not print") != std::string::npos);
}

TEST_CASE("probe: a hanging interpreter is killed at the timeout") {
  TempDir dir;
  std::string pidfile = (dir.path / "pid").string();
  ::setenv("MSPROBE_TEST_PIDFILE", pidfile.c_str(), 1);
  auto t0 = std::chrono::steady_clock::now();
  ProbeResult r = EnvProbe::run(fake("hang.sh"), false, 300ms);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  ::unsetenv("MSPROBE_TEST_PIDFILE");
  CHECK_FALSE(r.ran);
  CHECK(r.timed_out);
  CHECK(r.error.find("did not answer within 300 ms") != std::string::npos);
  CHECK(ms >= 300);
  CHECK(ms < 60000);  // killed, not waited for: hang.sh sleeps 60 s
  std::ifstream in(pidfile);
  int pid = 0;
  in >> pid;
  REQUIRE(pid > 0);
  CHECK(::kill(pid, 0) != 0);  // gone (and reaped)
}

TEST_CASE("probe: the real interpreter answers with the fixed script", "[python]") {
  ProbeResult r = EnvProbe::run("python3", false, kNoTimeout);
  if (!r.ran) WARN("python3 unavailable here: " << r.error);
  else CHECK_FALSE(r.python_version.empty());
}

TEST_CASE("probe: results arrive on the io_context, the caller never waits") {
  asio::io_context io;
  EnvProbe probe(io, kNoTimeout);
  std::optional<ProbeResult> got;
  probe.start(fake("present.sh"), false, [&](ProbeResult r) { got = r; });
  CHECK_FALSE(got);  // not delivered synchronously
  auto guard = asio::make_work_guard(io);
  for (int i = 0; i < 2400 && !got; ++i) io.run_for(50ms);  // a hang guard (2 min), not a measure
  REQUIRE(got);
  CHECK(got->torch == std::optional<std::string>("2.7.1"));
}

TEST_CASE("probe: destroying the probe stops a hanging interpreter quickly") {
  asio::io_context io;
  auto t0 = std::chrono::steady_clock::now();
  {
    EnvProbe probe(io, kNoTimeout);
    probe.start(fake("hang.sh"), false, [](ProbeResult) {});
    std::this_thread::sleep_for(100ms);
  }
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  CHECK(ms < 60000);  // stopped, not waited for: neither the timeout nor hang.sh's 60 s sleep ran out
}

TEST_CASE("probe: the interpreter starts only once the editor's documents are analysed") {
  asio::io_context io;
  TempDir dir;
  std::string pidfile = (dir.path / "pid").string();
  ::setenv("MSPROBE_TEST_PIDFILE", pidfile.c_str(), 1);
  std::atomic<bool> busy{true};
  std::atomic<int> asked{0};
  {
    EnvProbe probe(io, kNoTimeout);
    probe.editor_busy = [&] {
      ++asked;
      return busy.load();
    };
    probe.max_yield = std::chrono::minutes(10);
    probe.start(fake("hang.sh"), false, [](ProbeResult) {});
    for (int i = 0; i < 2400 && asked.load() < 3; ++i) std::this_thread::sleep_for(50ms);  // hang guard
    REQUIRE(asked.load() >= 3);
    CHECK_FALSE(fs::exists(pidfile));  // asked three times, told busy each time: nothing spawned
    busy = false;
    for (int i = 0; i < 2400 && !fs::exists(pidfile); ++i) std::this_thread::sleep_for(50ms);
    CHECK(fs::exists(pidfile));  // the editor went idle: the interpreter ran
  }                              // destroying the probe kills hang.sh
  ::unsetenv("MSPROBE_TEST_PIDFILE");

  // A busy editor delays the probe by at most max_yield, and a probe still
  // waiting for it is dropped at once when the server goes away.
  EnvProbe capped(io, kNoTimeout);
  capped.editor_busy = [] { return true; };
  capped.max_yield = 0ms;
  std::optional<ProbeResult> got;
  capped.start(fake("present.sh"), false, [&](ProbeResult r) { got = r; });
  auto guard = asio::make_work_guard(io);
  for (int i = 0; i < 2400 && !got; ++i) io.run_for(50ms);  // a hang guard (2 min), not a measure
  REQUIRE(got);
  CHECK(got->ran);
  auto t0 = std::chrono::steady_clock::now();
  {
    EnvProbe waiting(io, kNoTimeout);
    waiting.editor_busy = [] { return true; };
    waiting.max_yield = std::chrono::minutes(10);
    waiting.start(fake("present.sh"), false, [](ProbeResult) {});
  }
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  CHECK(ms < 5 * 60 * 1000);  // not the 10 minutes it would otherwise have waited
}

TEST_CASE("pins from requirements files and pyproject.toml") {
  TempDir dir;
  dir.write("requirements-dev.txt", "torch_npu==2.7.0\n# torch==9.9\ntorch == 2.7.1+cpu ; python_version>'3.8'\n");
  dir.write("pyproject.toml", "[project]\ndependencies = [\"mindstudio-probe==26.0.0\", \"torch>=2.1\"]\n");
  PinnedVersions p = read_pins({dir.path.string()});
  CHECK(p.torch == std::optional<std::string>("2.7.1+cpu"));
  CHECK(p.msprobe == std::optional<std::string>("26.0.0"));
  CHECK_FALSE(p.source.empty());
  TempDir empty;
  PinnedVersions none = read_pins({empty.path.string()});
  CHECK_FALSE(none.torch);
}
