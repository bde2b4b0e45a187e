// The project index, measured: scan + summaries of a generated project on N
// threads (wall time and the process's peak RSS), and what a one-file edit
// costs the index (the file's summary and the new snapshot) against that
// file's own analysis, and how long the server takes to find the files
// the edit may affect (files_affected_by). Prints one JSON line (scripts/bench.sh collects it).
//
// Usage: project_bench ROOT [--threads N] [--edit REL] [--runs N]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/project.h"

namespace ana = msprobe::analysis;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::optional<std::string> read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: project_bench ROOT [--threads N] [--edit REL] [--runs N]\n";
    return 2;
  }
  std::string root = argv[1], edit;
  unsigned threads = 2;
  int runs = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--threads") threads = static_cast<unsigned>(std::stoi(argv[i + 1]));
    else if (a == "--edit") edit = argv[i + 1];
    else if (a == "--runs") runs = std::stoi(argv[i + 1]);
  }
  auto reader = [&](const std::string& rel) { return read(root + "/" + rel); };

  auto t0 = Clock::now();
  ana::ScanResult scan = ana::scan_project(root);
  double scan_ms = ms_since(t0);
  auto t1 = Clock::now();
  auto snapshot = ana::index_project(root, scan, reader, threads);
  double index_ms = ms_since(t1);
  double total_ms = ms_since(t0);
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  std::size_t source = 0, summaries = 0;
  for (const auto& [rel, s] : snapshot->files()) {
    source += ana::summary_source_bytes(*s);
    summaries += ana::summary_bytes(*s);
  }

  nlohmann::json out{{"measure", "project_index"}, {"files", snapshot->files().size()},
                     {"threads", threads},         {"source_bytes", source},
                     {"summary_bytes", summaries}, {"scan_ms", scan_ms},
                     {"index_ms", index_ms},       {"total_ms", total_ms},
                     {"peak_rss_kb", ru.ru_maxrss}};

  if (!edit.empty()) {
    std::optional<std::string> text = reader(edit);
    if (!text) {
      std::cerr << "project_bench: cannot read " << edit << "\n";
      return 2;
    }
    ana::PythonParser parser;
    std::vector<double> analysis, update, affected;
    std::size_t affected_files = 0;
    for (int r = 0; r < runs; ++r) {
      // A one-character edit, as a user types it.
      std::string changed = *text + "\n# edit " + std::to_string(r) + "\n";
      ana::SourceText src(changed);
      auto a0 = Clock::now();
      ana::Analysis a = ana::analyze(parser, src, ana::AnalysisOptions{});
      analysis.push_back(ms_since(a0));
      auto u0 = Clock::now();
      auto summary = ana::summarize(src, a.facts);
      auto next = snapshot->with(edit, summary);
      update.push_back(ms_since(u0));
      if (!next) return 1;
      auto f0 = Clock::now();
      ana::AffectedFiles hit = ana::files_affected_by(*snapshot, *next, {edit});
      affected.push_back(ms_since(f0));
      affected_files = hit.all ? snapshot->files().size() : hit.files.size();
    }
    out["edit"] = {{"file", edit},
                   {"bytes", text->size()},
                   {"analysis_ms", median(analysis)},
                   {"index_update_ms", median(update)},
                   {"ratio", median(analysis) > 0 ? median(update) / median(analysis) : 0},
                   {"affected_ms", median(affected)},
                   {"affected_files", affected_files}};
  }
  std::cout << out.dump() << "\n";
  return 0;
}
