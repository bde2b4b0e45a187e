// ProjectIndex: the background index yields to the analyses of open
// documents, and a busy editor cannot starve it. No test measures time: the
// waits are bounded by what the index is told (a yield long enough to outlast
// the test, or one short enough to end), never by how fast the machine is.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "msprobe/analysis/syntax.h"
#include "project_index.h"

using namespace msprobe::server;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Folder {
  fs::path path;
  Folder() {
    path = fs::temp_directory_path() / ("msprobe-index-" + std::to_string(::getpid()) + "-" + std::to_string(rand()));
    fs::create_directories(path);
    std::ofstream(path / "train.py") << "import torch\nfrom model import Net\n\nmodel = Net()\n";
    std::ofstream(path / "model.py") << "import torch.nn as nn\n\nclass Net(nn.Module):\n    pass\n";
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Runs the io_context until `done()`; the timeout only guards against a hang.
template <class Pred>
bool run_until(asio::io_context& io, Pred done, int timeout_ms = 120000) {
  auto until = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!done()) {
    if (Clock::now() > until) return false;
    io.restart();
    if (io.poll() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// An editor analysing its documents while `busy` is true, and how often the
// index asked it. The index waits for it from the start, and only `busy`
// releases it (a yield longer than any test).
struct BusyEditor {
  std::atomic<bool> busy{true};
  std::atomic<int> asked{0};
  explicit BusyEditor(ProjectIndex& index) {
    index.editor_busy = [this] {
      ++asked;
      return busy.load();
    };
    index.start_delay = std::chrono::milliseconds(0);
    index.max_yield = std::chrono::minutes(10);
  }
};

}  // namespace

TEST_CASE("the index waits while the editor's documents are analysed") {
  Folder folder;
  asio::io_context io;
  ProjectIndex index(io);
  BusyEditor editor(index);
  std::atomic<bool>& busy = editor.busy;
  std::atomic<int>& asked = editor.asked;
  bool indexed = false;
  index.on_indexed = [&](const std::string&, auto) { indexed = true; };
  index.set_folders({folder.path.string()}, IndexSettings{});

  // The index thread is waiting: it has asked, and asks again, while busy.
  REQUIRE(run_until(io, [&] { return asked.load() >= 3; }));
  io.restart();
  io.poll();
  CHECK_FALSE(indexed);
  std::optional<ProjectIndex::Located> during = index.locate((folder.path / "train.py").string());
  REQUIRE(during);
  CHECK(during->snapshot->files().empty());

  busy = false;
  REQUIRE(run_until(io, [&] { return indexed; }));
  std::optional<ProjectIndex::Located> after = index.locate((folder.path / "train.py").string());
  REQUIRE(after);
  CHECK(after->snapshot->files().size() == 2);
}

TEST_CASE("an editor that stays busy cannot starve the index") {
  Folder folder;
  asio::io_context io;
  ProjectIndex index(io);
  std::atomic<int> asked{0};
  index.editor_busy = [&] {
    ++asked;
    return true;
  };
  index.start_delay = std::chrono::milliseconds(0);
  index.max_yield = std::chrono::milliseconds(20);
  bool indexed = false;
  index.on_indexed = [&](const std::string&, auto) { indexed = true; };
  index.set_folders({folder.path.string()}, IndexSettings{});
  REQUIRE(run_until(io, [&] { return indexed; }));
  CHECK(index.locate((folder.path / "model.py").string())->snapshot->files().size() == 2);
  // It asked before the folder. Whether it asks again before each file depends
  // on how much of its waiting budget the waits used, i.e. on how late the
  // thread woke up on a loaded machine: not asserted.
  CHECK(asked.load() >= 1);
}

TEST_CASE("without an editor to yield to, the index starts after its start delay") {
  Folder folder;
  asio::io_context io;
  ProjectIndex index(io);
  index.start_delay = std::chrono::milliseconds(1);
  bool indexed = false;
  index.on_indexed = [&](const std::string&, auto) { indexed = true; };
  index.set_folders({folder.path.string()}, IndexSettings{});
  REQUIRE(run_until(io, [&] { return indexed; }));
  CHECK(index.locate((folder.path / "train.py").string())->snapshot->files().size() == 2);
}

TEST_CASE("the index waits for the editor at most half of the time it runs, after a first allowance") {
  using std::chrono::milliseconds;
  const milliseconds max(1000);
  // At the start: the whole allowance (the documents the editor restores).
  CHECK(ProjectIndex::yield_limit(max, milliseconds(0), milliseconds(0)) == max);
  // Never more than max_yield at a time, however long it has run.
  CHECK(ProjectIndex::yield_limit(max, milliseconds(60000), milliseconds(0)) == max);
  // The allowance spent: it earns half of the time it runs.
  CHECK(ProjectIndex::yield_limit(max, milliseconds(400), milliseconds(1000)) == milliseconds(200));
  CHECK(ProjectIndex::yield_limit(max, milliseconds(2000), milliseconds(1800)) == milliseconds(200));
  // Overspent (a wait that ended late): no wait until it has earned more.
  CHECK(ProjectIndex::yield_limit(max, milliseconds(0), milliseconds(1500)) == milliseconds(0));
}

// That the open files are not even read is index_project's test (test_project.cpp,
// IndexControl::provided); here: the editor's summary wins, and the disk once closed.
TEST_CASE("the index leaves the open documents to the editor, and reads them again once closed") {
  Folder folder;
  asio::io_context io;
  ProjectIndex index(io);
  BusyEditor editor(index);
  int indexed = 0;
  index.on_indexed = [&](const std::string&, auto) { ++indexed; };
  index.set_folders({folder.path.string()}, IndexSettings{});
  REQUIRE(run_until(io, [&] { return editor.asked.load() >= 1; }));  // waiting before the folder

  // The editor's buffer of model.py differs from the disk: a second class.
  std::string model = (folder.path / "model.py").string();
  msprobe::analysis::PythonParser parser;
  std::shared_ptr<const msprobe::analysis::ModuleSummary> open = msprobe::analysis::summarize_source(
      parser, msprobe::analysis::SourceText(std::string("import torch.nn as nn\n\nclass Net(nn.Module):\n    pass\n\n"
                                                        "class Head(nn.Module):\n    pass\n")));
  REQUIRE(open);
  index.update(model, open);
  editor.busy = false;
  REQUIRE(run_until(io, [&] { return indexed == 1; }));
  std::optional<ProjectIndex::Located> after = index.locate(model);
  REQUIRE(after);
  CHECK(after->snapshot->files().size() == 2);
  CHECK(after->snapshot->file("model.py") == open.get());  // the buffer's, not the disk's
  CHECK(index.info().dump().find("\"progress\":{\"done\":2,\"total\":2}") != std::string::npos);

  index.closed(model);  // the disk wins again
  REQUIRE(run_until(io, [&] {
    const auto* now = index.locate(model)->snapshot->file("model.py");
    return now && now != open.get();
  }));
  CHECK(index.locate(model)->snapshot->files().size() == 2);
}
