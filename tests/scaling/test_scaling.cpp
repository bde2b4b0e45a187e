// Work scaling, counted instead of timed: the engine's heap allocations
// (number of `operator new` calls and bytes asked for) on generated scripts of
// 2,500 and 10,000 lines. Four times the text must cost about four times the
// allocations, never sixteen: a pass that copies a growing container per
// statement, or rebuilds a per-file table per function, shows up here long
// before a user feels it. The counts depend only on the code and the input,
// so the test gives the same answer on an idle and on a loaded machine.
//
// What it cannot see: a quadratic loop that allocates nothing. Time per size
// (1k, 10k, 50k lines) is printed by the benchmark (scripts/bench.sh,
// docs/benchmarks.md), which is where speed is judged.
//
// This binary replaces the global operator new/delete to count, so it is kept
// apart from unit_tests: the sanitizers' own new/delete checks stay on there.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include "facts_builder.h"
#include "generated_script.h"
#include "msprobe/analysis/analyzer.h"
#include "unbounded_parser.h"

namespace {

std::atomic<std::size_t> g_news{0}, g_bytes{0};
std::atomic<bool> g_counting{false};

void* counted_new(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) {
    g_news.fetch_add(1, std::memory_order_relaxed);
    g_bytes.fetch_add(n, std::memory_order_relaxed);
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}

}  // namespace

// Every unaligned form, so that no block is allocated by one implementation
// and freed by another (AddressSanitizer reports that as a mismatch: Catch2
// allocates with the nothrow form and frees with the plain one). The aligned
// forms are left to the library, which pairs them with its own.
void* operator new(std::size_t n) { return counted_new(n); }
void* operator new[](std::size_t n) { return counted_new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_new(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace msprobe::analysis;

namespace {

struct Work {
  std::size_t news = 0, bytes = 0;
};

template <class F>
Work count(F&& fn) {
  g_news = 0;
  g_bytes = 0;
  g_counting = true;
  fn();
  g_counting = false;
  return {g_news.load(), g_bytes.load()};
}

// A fresh build of the facts, a whole analysis, and an edit of one generated
// script. (Whether an edit reuses the statements it did not touch is tested
// in test_incremental_facts.cpp; an edit still visits the whole file, so it
// scales with it too.)
struct Measured {
  Work facts, analysis, edit;
};

Measured measure(int lines) {
  test_support::UnboundedParser parser;
  SourceText src(test_support::generated_script(lines));
  TreePtr tree = parser.parse(src.view());
  REQUIRE(tree);
  Measured m;
  m.facts = count([&] { (void)build_facts(tree, src.view()); });
  Analysis before = analyze(parser, src, AnalysisOptions{});
  m.analysis = count([&] { (void)analyze(parser, src, AnalysisOptions{}); });
  // One character typed inside the last function, analysed as the server
  // does: the old tree edited, the previous facts lent.
  const std::string old_text = src.text();
  std::size_t at = old_text.rfind("return model");
  REQUIRE(at != std::string::npos);
  ByteEdit e = src.replace(at, at, " ");
  PreviousFacts lend{&before.facts, old_text};
  TreePtr edited = edited_copy(before.tree, e);
  m.edit = count([&] { (void)analyze(parser, src, AnalysisOptions{}, edited, nullptr, &lend); });
  return m;
}

}  // namespace

TEST_CASE("the analysis allocates in proportion to the file") {
  Measured small = measure(2500), large = measure(10000);
  INFO("facts: " << small.facts.news << " -> " << large.facts.news << " allocations, " << small.facts.bytes << " -> "
                 << large.facts.bytes << " bytes");
  INFO("analysis: " << small.analysis.news << " -> " << large.analysis.news << " allocations, " << small.analysis.bytes
                    << " -> " << large.analysis.bytes << " bytes");
  INFO("edit: " << small.edit.news << " -> " << large.edit.news << " allocations, " << small.edit.bytes << " -> "
                << large.edit.bytes << " bytes");
  // The counter sees the engine at all: thousands of allocations per run.
  REQUIRE(small.facts.news > 1000);
  REQUIRE(small.analysis.news >= small.facts.news);
  // 4x the text (the generator repeats one 54-line block): between 3x and 5x
  // the work. Quadratic growth would be ~16x; a count that stopped growing
  // would mean part of the file is no longer analysed.
  for (auto [s, l] : {std::pair{small.facts, large.facts}, std::pair{small.analysis, large.analysis},
                      std::pair{small.edit, large.edit}}) {
    CHECK(l.news > 3 * s.news);
    CHECK(l.news < 5 * s.news);
    CHECK(l.bytes > 3 * s.bytes);
    CHECK(l.bytes < 5 * s.bytes);
  }
}
