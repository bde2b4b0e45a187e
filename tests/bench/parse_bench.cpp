// parse_bench: the floor under the analysis. For each file it times, over many
// iterations (median, min, max):
//   parse       PythonParser::parse of the whole text (tree-sitter alone)
//   analyze     analysis::analyze (parse + facts + rules + suppressions)
//   facts       build_facts on an existing tree
//   rules       check_facts on existing facts
//   reparse     a one-character edit (a digit typed after a number literal near
//               the middle of the file, then deleted again, alternately):
//               ts_tree_edit on a copy + incremental parse of the tree the
//               previous edit produced, as in an editor
//   reanalyze   the same edits through analyze(..., old_tree, previous facts),
//               each lending the analysis before it, with the second core
//               (it copies the previous facts of a text >= 64 KB during the
//               reparse), as the server does for a file outside any workspace
//               folder
//   reanalyze_project  the same with the file as a one-file project and the
//               previous summary lent too (the server in a workspace folder)
// The three edit measures start after kChainWarmup untimed edits: tree-sitter
// reparses a tree fresh from a full parse several times slower than one that
// came from incremental parses (10k lines: ~7 vs ~1.6 ms, the same tree
// printed), and an editor's session is the latter after its first keystrokes.
//   text_edit   SourceText::replace for that edit plus the snapshot copy the
//               server hands to its worker
// and prints a table, or one JSON line per file with --json.
//
// Usage: parse_bench [--iterations N] [--min-ms T] [--cpu] [--only MEASURE] [--json] [--dump-facts] FILE...
//   --cpu times with the thread's CPU clock instead of the wall clock.
//   --only runs one measure (parse, analyze, facts, ...), e.g. under callgrind.
//   --dump-facts prints every fact and finding instead (to check that a
//   performance change leaves the engine's output unchanged).
//   Each measure runs at least 5 times and until N iterations (default 200) or
//   T milliseconds (default 1500) of measured time, whichever comes first.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "facts_builder.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/project.h"
#include "msprobe/analysis/second_core.h"
#include "split_analysis.h"

namespace ana = msprobe::analysis;

namespace {

struct Stats {
  double median = 0, min = 0, max = 0;
  std::size_t n = 0;
};

struct Settings {
  int iterations = 200;
  double min_ms = 1500;
  std::string only;  // run just this measure (for profiling under callgrind)
};

// Wall time, or this thread's CPU time (--cpu: robust on a loaded machine,
// where the wall clock also counts the time other processes held the core).
bool g_cpu_clock = false;

double now_ms() {
  if (g_cpu_clock) {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
  }
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// Untimed edits before an edit measure (see the header).
constexpr int kChainWarmup = 12;

// The text of an editing session that types a digit at `at` and deletes it
// again, alternately.
struct EditChain {
  ana::SourceText text;
  std::size_t at;
  bool inserted = false;
  // The next edit, applied to `text`.
  ana::ByteEdit step() {
    ana::ByteEdit e = inserted ? text.replace(at, at + 1, "") : text.replace(at, at, "0");
    inserted = !inserted;
    return e;
  }
};

// The timed part of each edit, a function of its own: instr_bench.py has
// callgrind collect these by name, and nothing untimed with them (the full
// parses and analyses the chains start from, freeing the replaced results).
[[gnu::noinline]] ana::TreePtr timed_reparse(ana::PythonParser& parser, const ana::TreePtr& tree,
                                             const ana::ByteEdit& edit, std::string_view text) {
  ana::TreePtr old = ana::edited_copy(tree, edit);
  return parser.parse(text, old);
}
[[gnu::noinline]] ana::Analysis timed_reanalyze(ana::PythonParser& parser, const ana::SourceText& text,
                                                const ana::AnalysisOptions& options, const ana::TreePtr& tree,
                                                const ana::ByteEdit& edit, const ana::ProjectInput* project,
                                                const ana::PreviousFacts& lend, ana::SecondCore& second_core) {
  ana::TreePtr old = ana::edited_copy(tree, edit);
  return ana::analyze(parser, text, options, old, project, &lend, &second_core);
}

// Times `fn` (which returns the milliseconds it measured) repeatedly.
Stats measure(const Settings& s, const std::string& name, const std::function<double()>& fn) {
  if (!s.only.empty() && s.only != name) return {};
  fn();  // warm-up
  std::vector<double> t;
  double total = 0;
  while (t.size() < 5 || (static_cast<int>(t.size()) < s.iterations && total < s.min_ms)) {
    double ms = fn();
    t.push_back(ms);
    total += ms;
  }
  std::sort(t.begin(), t.end());
  Stats st;
  st.n = t.size();
  st.min = t.front();
  st.max = t.back();
  st.median = t.size() % 2 ? t[t.size() / 2] : (t[t.size() / 2 - 1] + t[t.size() / 2]) / 2;
  return st;
}

// Byte offset just after a number literal on a code line near the middle of
// the file (the same site tests/bench/lsp_bench.py edits).
std::size_t change_site(const ana::SourceText& src) {
  static const std::regex kLine(R"(^\s+\S.*\b(\d+)\b)");
  uint32_t lines = src.line_count();
  uint32_t mid = lines / 2;
  for (uint32_t d = 0; d < lines; ++d) {
    for (long k : {static_cast<long>(mid) + d, static_cast<long>(mid) - d}) {
      if (k < 0 || k >= static_cast<long>(lines)) continue;
      std::string line(src.line_text(static_cast<uint32_t>(k)));
      std::size_t first = line.find_first_not_of(" \t");
      if (first != std::string::npos && line[first] == '#') continue;
      std::smatch m;
      if (std::regex_search(line, m, kLine))
        return src.line_start(static_cast<uint32_t>(k)) + static_cast<std::size_t>(m.position(1) + m.length(1));
    }
  }
  return 0;
}

std::string json_stats(const char* name, const Stats& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "\"%s\": {\"median\": %.5f, \"min\": %.5f, \"max\": %.5f, \"n\": %zu}", name, s.median,
                s.min, s.max, s.n);
  return buf;
}

// A canonical text of every fact, to check that a performance change to the
// engine leaves its output unchanged (--dump-facts before and after, diff).
std::string facts_digest(const ana::FileFacts& f, const std::vector<ana::Finding>& findings) {
  std::ostringstream o;
  auto r = [](ana::ByteRange x) { return std::to_string(x.start) + "-" + std::to_string(x.end); };
  o << ana::dump_facts(f);
  for (const auto& x : findings) {
    o << "finding " << x.code << " " << static_cast<int>(x.severity) << " " << r(x.range) << " " << x.message;
    for (const auto& fix : x.fixes) {
      o << " {" << fix.title;
      for (const auto& e : fix.edits) o << " " << r(e.range) << ":" << e.text;
      o << "}";
    }
    o << "\n";
  }
  return o.str();
}

double load_average() {
  std::ifstream f("/proc/loadavg");
  double l = 0;
  f >> l;
  return l;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  bool json = false, dump = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--json") json = true;
    else if (a == "--cpu") g_cpu_clock = true;
    else if (a == "--dump-facts") dump = true;
    else if (a == "--only" && i + 1 < argc) settings.only = argv[++i];
    else if (a == "--iterations" && i + 1 < argc) settings.iterations = std::max(1, std::atoi(argv[++i]));
    else if (a == "--min-ms" && i + 1 < argc) settings.min_ms = std::atof(argv[++i]);
    else if (a == "--help" || a == "-h" || (!a.empty() && a[0] == '-')) {
      std::cerr
          << "usage: parse_bench [--iterations N] [--min-ms T] [--cpu] [--only MEASURE] [--json] [--dump-facts] FILE...\n";
      return a == "--help" || a == "-h" ? 0 : 2;
    } else files.push_back(a);
  }
  if (files.empty()) {
    std::cerr
        << "usage: parse_bench [--iterations N] [--min-ms T] [--cpu] [--only MEASURE] [--json] [--dump-facts] FILE...\n";
    return 2;
  }
  if (dump) {
    // Not a measure: prints every file's facts and findings (see facts_digest).
    ana::PythonParser parser;
    for (const std::string& path : files) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      const ana::SourceText source(ss.str());
      ana::Analysis a = ana::analyze(parser, source, ana::AnalysisOptions{});
      std::cout << "== " << path << "\n" << facts_digest(a.facts, a.findings);
    }
    return 0;
  }
  if (!json)
    std::printf("%-22s %9s %7s | %9s %9s %9s %9s %9s %6s | %9s %9s %9s %9s  (ms, medians)\n", "file", "bytes", "lines",
                "parse", "analyze", "in parts", "facts", "rules", "ratio", "reparse", "reanalyze", "reproject",
                "text_edit");

  ana::PythonParser parser;
  parser.set_timeout_micros(60'000'000);
  ana::AnalysisOptions options;
  ana::SecondCore second_core;
  second_core.wait_ready();
  for (const std::string& path : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "parse_bench: cannot read " << path << "\n";
      return 2;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const ana::SourceText source(ss.str());
    double load0 = load_average();

    Stats parse = measure(settings, "parse", [&] {
      double t0 = now_ms();
      ana::TreePtr tree = parser.parse(source.view());
      double t1 = now_ms();
      if (!tree) std::abort();
      return t1 - t0;
    });
    std::size_t findings = 0;
    Stats analyze = measure(settings, "analyze", [&] {
      double t0 = now_ms();
      ana::Analysis a = ana::analyze(parser, source, options);
      double t1 = now_ms();
      findings = a.findings.size();
      return t1 - t0;
    });
    // The same with a second core: the server's fresh analysis of a large
    // document when nothing else runs (split_analysis.h).
    Stats analyze_parts = measure(settings, "analyze_parts", [&] {
      double t0 = now_ms();
      ana::Analysis a = ana::analyze(parser, source, options, nullptr, nullptr, nullptr, &second_core);
      double t1 = now_ms();
      if (!a.in_parts && source.size() >= ana::kSplitMinBytes) std::abort();  // not the measure it claims
      return t1 - t0;
    });
    // Under callgrind (--only parse/analyze) nothing else may run: the
    // instruction counts are then exactly 1 + iterations calls of it.
    if (settings.only == "parse" || settings.only == "analyze") continue;
    ana::TreePtr tree = parser.parse(source.view());
    Stats facts = measure(settings, "facts", [&] {
      double t0 = now_ms();
      ana::FileFacts f = ana::build_facts(tree, source.view());
      double t1 = now_ms();
      return t1 - t0;
    });
    const ana::FileFacts base_facts = ana::build_facts(tree, source.view());
    Stats rules = measure(settings, "rules", [&] {
      double t0 = now_ms();
      std::vector<ana::Finding> f = ana::check_facts(source, base_facts, options);
      double t1 = now_ms();
      return t1 - t0;
    });

    // The one-character edit, typed and deleted alternately; each parse starts
    // from the tree of the one before.
    const std::size_t at = change_site(source);
    EditChain typing{source, at};
    ana::TreePtr typed = tree;
    auto reparse_step = [&] {
      const ana::ByteEdit edit = typing.step();
      double t0 = now_ms();
      ana::TreePtr t = timed_reparse(parser, typed, edit, typing.text.view());
      double t1 = now_ms();
      if (!t) std::abort();
      typed = std::move(t);  // the old tree is freed untimed, as the server frees it after publishing
      return t1 - t0;
    };
    // The server lends the previous analysis: unchanged statements keep their facts.
    struct AnalysisChain {
      EditChain typing;
      ana::Analysis last;
    };
    auto reanalyze_step = [&](AnalysisChain& c, const ana::ProjectInput* project) {
      ana::SourceText before = c.typing.text;  // untimed: the text the lent facts belong to
      const ana::ByteEdit edit = c.typing.step();
      const ana::PreviousFacts lend{&c.last.facts, before.view(), c.last.summary.get()};
      double t0 = now_ms();
      ana::Analysis a = timed_reanalyze(parser, c.typing.text, options, c.last.tree, edit, project, lend, second_core);
      double t1 = now_ms();
      c.last = std::move(a);
      return t1 - t0;
    };
    auto chained = [&](const std::string& name, const std::function<double()>& step) {
      if (!settings.only.empty() && settings.only != name) return Stats{};
      for (int i = 0; i < kChainWarmup; ++i) step();
      return measure(settings, name, step);
    };
    Stats reparse = chained("reparse", reparse_step);
    AnalysisChain plain{{source, at}, ana::analyze(parser, source, options)};
    Stats reanalyze = chained("reanalyze", [&] { return reanalyze_step(plain, nullptr); });
    // The same in a project (the server's case when the file is in a workspace
    // folder): the summary is lent too, and its call effects partly kept.
    ana::PythonParser summary_parser;
    const ana::ProjectInput project{std::make_shared<const ana::ProjectSnapshot>(
                                        "/bench",
                                        std::map<std::string, std::shared_ptr<const ana::ModuleSummary>>{
                                            {"bench.py", ana::begin_analysis(summary_parser, source).summary}},
                                        std::vector<std::string>{""}),
                                    "bench.py"};
    AnalysisChain in_project{{source, at}, ana::analyze(parser, source, options, nullptr, &project)};
    Stats reanalyze_project = chained("reanalyze_project", [&] { return reanalyze_step(in_project, &project); });
    Stats text_edit = measure(settings, "text_edit", [&] {
      ana::SourceText copy = source;  // not timed: restores the text each iteration
      double t0 = now_ms();
      copy.replace(at, at, "0");
      auto snapshot = std::make_shared<const ana::SourceText>(copy);
      double t1 = now_ms();
      return t1 - t0;
    });

    std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    double ratio = analyze.median / parse.median;
    if (json) {
      std::printf(
          "{\"measure\": \"parse\", \"clock\": \"%s\", \"file\": \"%s\", \"bytes\": %zu, \"lines\": %u, \"findings\": %zu, "
          "\"loadavg_start\": %.2f, \"loadavg\": %.2f, %s, %s, %s, %s, %s, %s, %s, %s, %s, \"ratio\": %.4f}\n",
          g_cpu_clock ? "cpu" : "wall", name.c_str(), source.size(), source.line_count(), findings, load0,
          load_average(), json_stats("parse_ms", parse).c_str(), json_stats("analyze_ms", analyze).c_str(),
          json_stats("analyze_parts_ms", analyze_parts).c_str(), json_stats("facts_ms", facts).c_str(),
          json_stats("rules_ms", rules).c_str(), json_stats("reparse_ms", reparse).c_str(),
          json_stats("reanalyze_ms", reanalyze).c_str(), json_stats("reanalyze_project_ms", reanalyze_project).c_str(),
          json_stats("text_edit_ms", text_edit).c_str(), ratio);
    } else {
      std::printf("%-22s %9zu %7u | %9.3f %9.3f %9.3f %9.3f %9.3f %5.2fx | %9.3f %9.3f %9.3f %9.3f  (load %.2f)\n",
                  name.c_str(), source.size(), source.line_count(), parse.median, analyze.median, analyze_parts.median,
                  facts.median, rules.median, ratio, reparse.median, reanalyze.median, reanalyze_project.median,
                  text_edit.median, load_average());
    }
    std::fflush(stdout);
  }
  return 0;
}
