// Cost of the engine on a large generated script: the tree-sitter parse alone
// versus the whole analysis (parse + facts + derived facts + plan + rules).
// The budget is "a few ms for 10k lines, facts at most ~1.5x the parse".
// The measurement is a hidden test ("[.bench]"), never run by ctest: run it with
//   build/tests/unit_tests "[bench]" -s
// The guard against a quadratic blow-up counts work instead of timing it
// (tests/scaling/test_scaling.cpp); timed figures belong to the benchmark.
#include <catch2/catch.hpp>

#include <algorithm>
#include <ctime>
#include <iostream>
#include <sstream>

#include "facts_builder.h"
#include "generated_script.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/plan.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;
using test_support::generated_script;

namespace {

// CPU time of this thread: the machine running the tests is often busy, and
// wall-clock time would measure the other jobs too.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

template <class F>
double median_ms(int reps, F&& fn) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    double a = thread_cpu_ms();
    fn();
    t.push_back(thread_cpu_ms() - a);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

TEST_CASE("engine timing on a 10k-line script", "[.bench]") {
  std::string text = generated_script(10000);
  SourceText src(text);
  test_support::UnboundedParser parser;
  TreePtr tree = parser.parse(src.view());
  REQUIRE(tree);
  double parse = median_ms(15, [&] { (void)parser.parse(src.view()); });
  double facts = median_ms(15, [&] { (void)build_facts(tree, src.view()); });
  FileFacts f = build_facts(tree, src.view());
  double plan = median_ms(15, [&] { (void)plan_dump(src, f); });
  AnalysisOptions options;
  double rules = median_ms(15, [&] { (void)check_facts(src, f, options); });
  double all = median_ms(15, [&] { (void)analyze(parser, src, options); });
  // The same file being edited: an unclosed bracket near the top (the repair reparses).
  std::string broken_text = text;
  broken_text.insert(broken_text.find("logger = "), "config = dict(lr=1e-3,\n");
  SourceText broken(broken_text);
  double repaired = median_ms(15, [&] { (void)analyze(parser, broken, options); });
  double broken_parse = median_ms(15, [&] { (void)parser.parse(broken.view()); });
  TreePtr broken_tree = parser.parse(broken.view());
  double broken_facts = median_ms(15, [&] { (void)build_facts(broken_tree, broken.view()); });
  std::cout << "lines " << src.line_count() << ", bytes " << src.size() << ", calls " << f.calls.size() << ", loops "
            << f.loops.size() << ", loop roles " << f.loop_info.size() << "\n"
            << "parse            " << parse << " ms\n"
            << "facts (derived)  " << facts << " ms (" << facts / parse << "x parse)\n"
            << "plan             " << plan << " ms\n"
            << "rules            " << rules << " ms\n"
            << "analyze (all)    " << all << " ms (" << all / parse << "x parse)\n"
            << "analyze, broken  " << repaired << " ms (unclosed bracket near the top, repaired; its parse alone "
            << broken_parse << " ms, facts of the unrepaired tree " << broken_facts << " ms)\n";
  SUCCEED();
}
