// AnalysisWorker: per-document order and merging, cancellation with carried
// edits, forget(), and parallel progress across documents.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include <tree_sitter/api.h>

#include <cstdlib>

#include "analysis_worker.h"
#include "msprobe/analysis/analyzer.h"
#include "unbounded_parser.h"
#include "warm_up.h"

using namespace msprobe;
using namespace msprobe::server;
using Clock = std::chrono::steady_clock;

namespace {

AnalysisJob job(const std::string& uri, int version, const analysis::SourceText& text,
                std::vector<analysis::ByteEdit> edits = {}, bool reset = false, int delay_ms = 0) {
  AnalysisJob j;
  j.uri = uri;
  j.version = version;
  j.kind = DocumentKind::Python;
  j.source = std::make_shared<const analysis::SourceText>(text);
  j.edits = std::move(edits);
  j.reset_tree = reset;
  j.test_delay_ms = delay_ms;
  // Only the budget test below is about the parse budget.
  j.parse_timeout_micros = test_support::kUnboundedParseMicros;
  return j;
}

// A test delay no result may wait for: longer than run_until's guard, so a
// result that arrives at all did not wait for it. Jobs that sleep this long
// are cancelled (a newer job, forget()) before the test ends.
constexpr int kForeverMs = 10 * 60 * 1000;

// Runs the io_context until `done()`. The timeout only guards against a hang:
// nothing here measures time, so a slow or loaded machine never fails a test.
template <class Pred>
bool run_until(asio::io_context& io, AnalysisWorker& w, Pred done, int timeout_ms = 120000) {
  auto until = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!done()) {
    if (Clock::now() > until) return false;
    io.restart();
    std::size_t n = io.poll() + w.run_pending();
    if (n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

std::vector<std::string> codes(const SnapshotPtr& s) {
  std::vector<std::string> out;
  for (const auto& f : s->result.findings) out.push_back(f.code);
  return out;
}

}  // namespace

TEST_CASE("jobs queued for one document are merged: one result, the newest version, edits applied in order") {
  asio::io_context io;
  AnalysisWorker w(io, /*threads=*/0);
  std::vector<SnapshotPtr> results;
  analysis::SourceText text("import torch\n");
  w.submit(job("a", 1, text, {}, /*reset=*/true), [&](SnapshotPtr s) { results.push_back(s); });
  REQUIRE(run_until(io, w, [&] { return results.size() == 1; }));
  CHECK(codes(results[0]).empty());

  // Three edits, each its own job, queued before the worker runs.
  std::vector<analysis::ByteEdit> e1{text.replace(text.size(), text.size(), "m = torch.compile(m)\n")};
  w.submit(job("a", 2, text, e1), [&](SnapshotPtr s) { results.push_back(s); });
  std::vector<analysis::ByteEdit> e2{text.replace(0, 0, "# header\n")};
  w.submit(job("a", 3, text, e2), [&](SnapshotPtr s) { results.push_back(s); });
  std::vector<analysis::ByteEdit> e3{text.replace(text.size(), text.size(), "n = torch.compile(n)\n")};
  w.submit(job("a", 4, text, e3), [&](SnapshotPtr s) { results.push_back(s); });
  CHECK_FALSE(w.idle());
  REQUIRE(run_until(io, w, [&] { return w.idle(); }));
  io.restart();
  io.poll();
  REQUIRE(results.size() == 2);
  CHECK(results[1]->version == 4);
  CHECK(codes(results[1]) == std::vector<std::string>{"MSP101", "MSP101"});
  CHECK(results[1]->result.findings[0].range.start == text.text().find("torch.compile(m)"));
}

TEST_CASE("forget drops queued jobs and the tree; a reopened document starts fresh") {
  asio::io_context io;
  AnalysisWorker w(io, 0);
  int delivered = 0;
  analysis::SourceText text("import torch\nm = torch.compile(m)\n");
  w.submit(job("a", 1, text, {}, true), [&](SnapshotPtr) { ++delivered; });
  w.forget("a");
  CHECK(w.idle());
  CHECK(w.run_pending() == 0);
  analysis::SourceText other("x = 1\n");
  SnapshotPtr got;
  w.submit(job("a", 1, other, {}, true), [&](SnapshotPtr s) { got = s; });
  REQUIRE(run_until(io, w, [&] { return got != nullptr; }));
  CHECK(delivered == 0);
  CHECK(got->result.findings.empty());
}

TEST_CASE("a job submitted while one runs cancels it; the cancelled edits carry over") {
  asio::io_context io;
  AnalysisWorker w(io, /*threads=*/2);
  std::vector<SnapshotPtr> results;
  analysis::SourceText text("import torch\n");
  w.submit(job("a", 1, text, {}, true), [&](SnapshotPtr s) { results.push_back(s); });
  REQUIRE(run_until(io, w, [&] { return results.size() == 1; }));

  // Version 2 is slow (test delay) and gets cancelled by version 3, which
  // must still see version 2's edit: the stored tree never saw it.
  std::vector<analysis::ByteEdit> e2{text.replace(text.size(), text.size(), "m = torch.compile(m)\n")};
  w.submit(job("a", 2, text, e2, false, kForeverMs), [&](SnapshotPtr s) { results.push_back(s); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let it start (if not, the two merge: same result)
  std::vector<analysis::ByteEdit> e3{text.replace(text.size(), text.size(), "x = 1\n")};
  w.submit(job("a", 3, text, e3), [&](SnapshotPtr s) { results.push_back(s); });
  // Arriving at all means it did not wait for version 2's endless delay.
  REQUIRE(run_until(io, w, [&] { return results.size() == 2; }));
  CHECK(results[1]->version == 3);
  CHECK(codes(results[1]) == std::vector<std::string>{"MSP101"});
  REQUIRE(run_until(io, w, [&] { return w.idle(); }));
  CHECK(results.size() == 2);  // version 2 was never delivered
}

TEST_CASE("a slow document does not hold up another one") {
  asio::io_context io;
  AnalysisWorker w(io, /*threads=*/2);
  SnapshotPtr slow, fast;
  analysis::SourceText text("import torch\nm = torch.compile(m)\n");
  w.submit(job("slow", 1, text, {}, true, kForeverMs), [&](SnapshotPtr s) { slow = s; });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  w.submit(job("fast", 1, text, {}, true), [&](SnapshotPtr s) { fast = s; });
  // The slow one never finishes on its own: the fast one arriving means it was not held up.
  REQUIRE(run_until(io, w, [&] { return fast != nullptr; }));
  CHECK(slow == nullptr);
  CHECK(codes(fast) == std::vector<std::string>{"MSP101"});
  w.forget("slow");  // cancels it: the destructor need not wait
}

TEST_CASE("a parse over budget reports timed_out and the next job parses from scratch") {
  asio::io_context io;
  AnalysisWorker w(io, 0);
  std::string big = "import torch\n";
  for (int i = 0; i < 200000; ++i) big += "x" + std::to_string(i) + " = [(" + std::to_string(i) + ",)]\n";
  analysis::SourceText text(big);
  SnapshotPtr got;
  AnalysisJob j = job("big", 1, text, {}, true);
  j.parse_timeout_micros = 1000;  // 1 ms: certainly too little
  w.submit(std::move(j), [&](SnapshotPtr s) { got = s; });
  REQUIRE(run_until(io, w, [&] { return got != nullptr; }));
  CHECK(got->result.timed_out);
  CHECK(got->result.tree == nullptr);

  got = nullptr;
  std::vector<analysis::ByteEdit> e{text.replace(0, big.size(), "import torch\nm = torch.compile(m)\n")};
  w.submit(job("big", 2, text, e), [&](SnapshotPtr s) { got = s; });
  REQUIRE(run_until(io, w, [&] { return got != nullptr; }));
  CHECK_FALSE(got->result.timed_out);
  CHECK(codes(got) == std::vector<std::string>{"MSP101"});
}

TEST_CASE("the edits of a job alone in the queue reach the incremental parse") {
  // A regression: the last queued job was moved out of the queue before its
  // edits were gathered, so a single didChange reparsed the new text against
  // the unedited old tree (wrong syntax errors, lost loops, no code actions).
  asio::io_context io;
  AnalysisWorker w(io, /*threads=*/GENERATE(0u, 2u));
  analysis::SourceText text(
      "import torch\n"
      "note = \"模型\"; model = torch.compile(model)\n"
      "for x, y in loader:\n"
      "    loss = model(x).sum()\n"
      "    loss.backward()\n");
  SnapshotPtr got;
  w.submit(job("a", 1, text, {}, true), [&](SnapshotPtr s) { got = s; });
  REQUIRE(run_until(io, w, [&] { return got != nullptr; }));
  CHECK(codes(got) == std::vector<std::string>{"MSP101"});

  // Replace the whole middle line (line start to line start), as Neovim does.
  std::size_t a = text.line_start(1), b = text.line_start(2);
  std::vector<analysis::ByteEdit> e{text.replace(a, b, "note = \"模型\"; model = model\n")};
  got = nullptr;
  w.submit(job("a", 2, text, e), [&](SnapshotPtr s) { got = s; });
  REQUIRE(run_until(io, w, [&] { return got != nullptr; }));
  REQUIRE(got->result.tree);
  analysis::PythonParser fresh;
  analysis::TreePtr full = fresh.parse(text.view());
  CHECK(analysis::tree_sexp(got->result.tree) == analysis::tree_sexp(full));
  CHECK_FALSE(ts_node_has_error(ts_tree_root_node(got->result.tree.get())));
  CHECK(codes(got).empty());
}

TEST_CASE("the worker keeps trees for the documents edited last, and for the one opened last") {
  asio::io_context io;
  AnalysisWorker w(io, 0);
  std::vector<analysis::SourceText> texts;
  int delivered = 0;
  // Ten documents opened at once (an editor restoring its tabs): only the
  // newest keeps its tree.
  for (int i = 0; i < 10; ++i) {
    analysis::SourceText t("import torch\nx" + std::to_string(i) + " = torch.compile(m)\n");
    w.submit(job("doc" + std::to_string(i), 1, t, {}, true), [&](SnapshotPtr) { ++delivered; });
    texts.push_back(t);
  }
  REQUIRE(run_until(io, w, [&] { return delivered == 10; }));
  CHECK(w.trees_kept() == 1);
  CHECK(w.has_tree("doc9"));
  // Edited documents keep theirs, up to the budget. The first edit of a
  // document whose tree was dropped parses from scratch, correctly.
  auto edit = [&](int i, int version) {
    analysis::SourceText& t = texts[static_cast<std::size_t>(i)];
    AnalysisJob j = job("doc" + std::to_string(i), version, t, {t.replace(0, 0, "# edited\n")});
    j.edited = true;
    SnapshotPtr got;
    w.submit(std::move(j), [&](SnapshotPtr s) { got = s; });
    REQUIRE(run_until(io, w, [&] { return got != nullptr; }));
    CHECK(codes(got) == std::vector<std::string>{"MSP101"});
  };
  for (int i = 0; i < 6; ++i) edit(i, 2);
  CHECK(w.trees_kept() == AnalysisWorker::kMaxTrees);
  CHECK(w.has_tree("doc5"));
  CHECK(w.has_tree("doc2"));
  CHECK_FALSE(w.has_tree("doc1"));
  CHECK_FALSE(w.has_tree("doc9"));  // opened only, and no longer the newest
  // A big edited document keeps its tree while it is the newest, but it does
  // not count against the others' byte budget until another one is newer.
  std::string big = "import torch\n";
  while (big.size() < AnalysisWorker::kMaxTreeSourceBytes * 2) big += "y = [1, 2, 3]\n";
  analysis::SourceText bt(big);
  SnapshotPtr got;
  AnalysisJob bj = job("big", 2, bt, {}, true);
  bj.edited = true;
  w.submit(std::move(bj), [&](SnapshotPtr s) { got = s; });
  REQUIRE(run_until(io, w, [&] { return got != nullptr; }));
  CHECK(w.trees_kept() == AnalysisWorker::kMaxTrees);
  CHECK(w.has_tree("big"));
  CHECK(w.has_tree("doc3"));
  CHECK_FALSE(w.has_tree("doc2"));
  edit(4, 3);
  CHECK(w.has_tree("doc4"));
  CHECK_FALSE(w.has_tree("big"));  // over the byte budget once it is not the newest
  CHECK(w.has_tree("doc3"));
  CHECK(w.trees_kept() == AnalysisWorker::kMaxTrees - 1);
}

TEST_CASE("worker: the warm-up script gives every stage of the analysis work") {
  // What warm_up() runs on a fresh analysis thread is only worth its time if
  // it reaches the code a real script does: a training loop with its forward,
  // backward and step, the debugger's calls, a dynamo site and a finding.
  analysis::PythonParser parser;
  analysis::Analysis a = analysis::analyze(parser, warm_up_script(), analysis::AnalysisOptions{});
  REQUIRE(a.facts.loop_info.size() == 1);
  const analysis::LoopInfo& loop = a.facts.loop_info[0];
  CHECK(loop.role == analysis::LoopRole::Train);
  CHECK(loop.model == "model");
  CHECK(loop.forward.size() == 1);
  CHECK(loop.backward.size() == 1);
  CHECK(loop.step.size() == 1);
  std::vector<std::string> found;
  for (const auto& f : a.findings) found.push_back(f.code);
  CHECK(found == std::vector<std::string>{"MSP206", "MSP101"});  // no seed_all; torch.compile
}
