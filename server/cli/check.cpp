// `msprobe-lsp check PATH...`: findings as `file:line:col: CODE message`
// (or JSON), directories walked, exit 1 when an error-severity finding exists.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "cli.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/project.h"
#include "msprobe/analysis/tree_allocator.h"

namespace msprobe::cli {
namespace fs = std::filesystem;
namespace {

bool skipped_dir(const fs::path& p) {
  std::string name = p.filename().string();
  return (name.size() > 1 && name[0] == '.') || name == "__pycache__" || name == "node_modules" || name == "venv" ||
         name == "site-packages" || name == "build";
}

void collect(const std::string& arg, std::vector<std::string>& files, std::vector<std::string>& errors) {
  std::error_code ec;
  fs::path p(arg);
  if (fs::is_directory(p, ec)) {
    fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      if (it->is_directory(ec) && skipped_dir(it->path())) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file(ec) && it->path().extension() == ".py") files.push_back(it->path().string());
    }
    if (ec) errors.push_back(arg + ": " + ec.message());
  } else if (fs::exists(p, ec)) {
    files.push_back(arg);
  } else {
    errors.push_back(arg + ": no such file or directory");
  }
}

struct FileResult {
  std::string path;
  std::string error;
  analysis::SourceText source;
  std::vector<analysis::Finding> findings;
  bool timed_out = false;
  std::shared_ptr<const analysis::ModuleSummary> summary;  // files of a checked folder
  std::string project_rel;                                 // its path in that folder's project
  // A file checked with its project: the first half of its analysis, kept
  // for the second (within a memory budget; beyond it the file is analysed again).
  std::unique_ptr<analysis::Analysis> begun;
};

// Source bytes whose facts wait for their project's second pass. Facts and
// summary take about 14 bytes per source byte once shrunk (16.6 as built):
// 32 MB of waiting source keeps a run over a large tree near half a GB
// (1,000 generated scripts, 29 MB, all using msProbe: 4.2 s and 0.5 GB with 2
// threads, against 9.4 s and 0.15 GB when each was analysed twice; shrinking
// the kept facts took the run's peak from 594 to 474 MB).
constexpr std::size_t kKeepFactsSourceBytes = 32u << 20;

// The project a checked folder belongs to: its nearest ancestor (itself
// included) holding .git, pyproject.toml, setup.py or setup.cfg, else itself.
std::string folder_project_root(const std::string& dir) {
  std::error_code ec;
  fs::path d = fs::absolute(dir, ec).lexically_normal();
  if (!d.has_filename()) d = d.parent_path();
  return analysis::find_project_root((d / "__probe__.py").string());
}

}  // namespace

int run_check(const Args& args) {
  if (!args.errors.empty() || args.positional.empty()) {
    for (const auto& e : args.errors) std::cerr << "msprobe-lsp check: " << e << "\n";
    std::cerr
        << "usage: msprobe-lsp check [--format text|json] [--torch-version V] [--msprobe-version V]\n"
           "                         [--disable CODE,...] [--jobs N] [--no-syntax-errors] [--no-project] PATH...\n";
    return 2;
  }
  std::string format = args.get("--format", "text");
  if (format != "text" && format != "json") {
    std::cerr << "msprobe-lsp check: --format must be text or json\n";
    return 2;
  }
  analysis::AnalysisOptions options = analysis_options(args);
  bool syntax = !args.has("--no-syntax-errors");
  std::vector<std::string> files, errors;
  for (const auto& p : args.positional) collect(p, files, errors);
  std::sort(files.begin(), files.end());
  // Files found in a folder are checked as part of that folder's project.
  std::map<std::string, std::string> project_of;  // file -> project root
  std::set<std::string> roots;
  for (const auto& p : args.positional) {
    std::error_code ec;
    if (!fs::is_directory(p, ec) || args.has("--no-project")) continue;
    std::string root = folder_project_root(p);
    roots.insert(root);
    for (const std::string& f : files) {
      std::string rel = analysis::project_relative(root, fs::absolute(f, ec).lexically_normal().string());
      if (!rel.empty() && !project_of.count(f)) project_of[f] = root;
    }
  }

  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  if (args.has("--jobs")) jobs = static_cast<unsigned>(std::max(1, std::atoi(args.get("--jobs").c_str())));
  jobs = std::min<unsigned>(jobs, static_cast<unsigned>(std::max<std::size_t>(1, files.size())));

  // Each thread parses file after file: tree-sitter's blocks are recycled per
  // thread (before any tree-sitter object exists in this process).
  analysis::tree_allocator::install();
  std::vector<FileResult> results(files.size());
  // Largest files first: no thread is left alone with a big file at the end.
  std::vector<std::size_t> order(files.size());
  {
    std::vector<std::uintmax_t> size(files.size(), 0);
    for (std::size_t i = 0; i < files.size(); ++i) {
      std::error_code ec;
      std::uintmax_t n = fs::file_size(files[i], ec);
      size[i] = ec ? 0 : n;
      order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return size[a] > size[b]; });
  }
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> kept_bytes{0};
  auto drop_syntax = [&](std::vector<analysis::Finding>& findings) {
    if (syntax) return;
    findings.erase(std::remove_if(findings.begin(), findings.end(), [](const auto& f) { return f.code.empty(); }),
                   findings.end());
  };
  auto work = [&] {
    analysis::PythonParser parser;
    for (std::size_t k = next++; k < files.size(); k = next++) {
      const std::size_t i = order[k];
      FileResult& r = results[i];
      r.path = files[i];
      std::string text;
      if (!read_file(files[i], text, r.error)) continue;
      r.source = analysis::SourceText(std::move(text));
      if (is_config_path(files[i])) {  // a config.json named on the command line
        r.findings = config_file_findings(r.source.text(), options);
        continue;
      }
      auto root = project_of.find(files[i]);
      if (root == project_of.end()) {
        analysis::Analysis a = analysis::analyze(parser, r.source, with_config_resolver(options, files[i]));
        r.timed_out = a.timed_out;
        r.findings = std::move(a.findings);
        drop_syntax(r.findings);
        continue;
      }
      // In a checked folder: the summary for the project; a file whose
      // findings depend on the project waits for it with its facts.
      analysis::Analysis a = analysis::begin_analysis(parser, r.source);
      r.timed_out = a.timed_out;
      if (a.timed_out) continue;
      r.summary = a.summary;
      if (analysis::depends_on_project(a.facts)) {
        std::error_code ec;
        r.project_rel = analysis::project_relative(root->second,
                                                   fs::absolute(files[i], ec).lexically_normal().string());
      }
      if (!r.project_rel.empty()) {
        if (kept_bytes.fetch_add(r.source.size()) + r.source.size() <= kKeepFactsSourceBytes) {
          a.tree = nullptr;  // ~45 bytes per source byte; the second half needs only the facts
          a.facts.shrink_to_fit();
          r.begun = std::make_unique<analysis::Analysis>(std::move(a));
        }
        continue;
      }
      analysis::finish_analysis(a, r.source, with_config_resolver(options, files[i]));
      r.findings = std::move(a.findings);
      drop_syntax(r.findings);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < jobs; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();

  // The files whose findings depend on the rest of their project are finished
  // with it: the summaries of the checked files, plus the project's other
  // files (indexed here).
  for (const std::string& root : roots) {
    std::vector<std::size_t> again;
    std::set<std::string> have;
    std::map<std::string, std::shared_ptr<const analysis::ModuleSummary>> summaries;
    for (std::size_t i = 0; i < results.size(); ++i) {
      auto it = project_of.find(results[i].path);
      if (it == project_of.end() || it->second != root || !results[i].summary) continue;
      std::error_code ec;
      std::string rel = analysis::project_relative(root, fs::absolute(results[i].path, ec).lexically_normal().string());
      summaries[rel] = results[i].summary;
      if (!results[i].project_rel.empty()) again.push_back(i);
    }
    if (again.empty()) continue;
    analysis::ScanResult scan = analysis::scan_project(root);
    analysis::ScanResult rest = scan;
    rest.files.clear();
    for (const std::string& f : scan.files) {
      if (!summaries.count(f)) rest.files.push_back(f);
    }
    auto read = [root](const std::string& rel) -> std::optional<std::string> {
      std::string text, error;
      if (!read_file((fs::path(root) / rel).string(), text, error)) return std::nullopt;
      return text;
    };
    auto indexed = analysis::index_project(root, rest, read, jobs);
    for (const auto& [rel, s] : indexed->files()) summaries[rel] = s;
    auto snapshot = std::make_shared<const analysis::ProjectSnapshot>(root, std::move(summaries), scan.package_roots);
    next = 0;
    auto recheck = [&] {
      analysis::PythonParser parser;
      for (std::size_t k = next++; k < again.size(); k = next++) {
        FileResult& r = results[again[k]];
        analysis::ProjectInput project{snapshot, r.project_rel};
        if (r.begun) {
          analysis::finish_analysis(*r.begun, r.source, with_config_resolver(options, r.path), &project);
          r.findings = std::move(r.begun->findings);
          r.begun.reset();
        } else {
          analysis::Analysis a = analysis::analyze(parser, r.source, with_config_resolver(options, r.path), nullptr,
                                                   &project);
          r.findings = std::move(a.findings);
        }
        drop_syntax(r.findings);
      }
    };
    std::vector<std::thread> rechecks;
    for (unsigned t = 1; t < jobs && t < again.size(); ++t) rechecks.emplace_back(recheck);
    recheck();
    for (auto& t : rechecks) t.join();
  }

  bool any_error = false;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : errors) std::cerr << "msprobe-lsp check: " << e << "\n";
  for (const FileResult& r : results) {
    if (!r.error.empty()) {
      std::cerr << "msprobe-lsp check: " << r.error << "\n";
      any_error = true;
      continue;
    }
    if (r.timed_out) std::cerr << r.path << ": skipped: too large or complex to analyse in time\n";
    for (const auto& f : r.findings) {
      if (f.severity == analysis::Severity::Error) any_error = true;
      analysis::LineCol lc = r.source.position(f.range.start, analysis::Encoding::Utf32);
      analysis::LineCol end = r.source.position(f.range.end, analysis::Encoding::Utf32);
      std::string code = f.code.empty() ? "syntax-error" : f.code;
      if (format == "text") {
        std::cout << r.path << ":" << lc.line + 1 << ":" << lc.column + 1 << ": " << code << " "
                  << analysis::to_string(f.severity) << ": " << f.message << "\n";
      } else {
        nlohmann::json fixes = nlohmann::json::array();
        for (const auto& fix : f.fixes)
          fixes.push_back({{"title", fix.title}, {"safe", fix.safety == analysis::FixSafety::Safe}});
        out.push_back({{"file", r.path},
                       {"code", code},
                       {"severity", analysis::to_string(f.severity)},
                       {"message", f.message},
                       {"line", lc.line + 1},
                       {"column", lc.column + 1},
                       {"end_line", end.line + 1},
                       {"end_column", end.column + 1},
                       {"fixes", fixes}});
      }
    }
  }
  if (format == "json") std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (!errors.empty()) return 2;
  return any_error ? 1 : 0;
}

}  // namespace msprobe::cli
