// Dump folder inspection.
#include "dump_check.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "config_paths.h"
#include "dump_json_scan.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/config_schema.h"

namespace msprobe::server {
namespace fs = std::filesystem;
namespace cfg = analysis::config;

namespace {

constexpr std::size_t kErrorLinesKept = 10;
constexpr std::size_t kErrorLineChars = 300;

bool numbered(const std::string& name, const std::string& prefix, long long& n) {
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return false;
  std::string digits = name.substr(prefix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) || digits.size() > 12)
    return false;
  n = std::stoll(digits);
  return true;
}

// Non-empty files under `dir`, and their bytes.
std::pair<long long, long long> count_files(const fs::path& dir) {
  long long n = 0, bytes = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    auto size = it->file_size(ec);
    if (ec || size == 0) continue;
    ++n;
    bytes += static_cast<long long>(size);
  }
  return {n, bytes};
}

std::string join_numbers(const std::vector<long long>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 20; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() > 20) s += ", ...";
  return s;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == '\n' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t a = s.find_first_not_of(" \t");
  return a == std::string::npos ? std::string() : s.substr(a);
}

std::string clipped(const std::string& line) {
  return line.size() <= kErrorLineChars ? line : line.substr(0, kErrorLineChars) + "...";
}

// dump_error_info.log files msProbe leaves in the dump_path, a step folder or a process folder.
std::vector<LoggedErrors> logged_errors(const fs::path& dump_path) {
  std::vector<fs::path> logs;
  std::error_code ec;
  auto look = [&](const fs::path& dir) {
    fs::path p = dir / "dump_error_info.log";
    if (fs::is_regular_file(p, ec)) logs.push_back(p);
  };
  look(dump_path);
  for (auto it = fs::directory_iterator(dump_path, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (!it->is_directory(ec)) continue;
    look(it->path());
    std::error_code ec2;
    for (auto sub = fs::directory_iterator(it->path(), ec2); !ec2 && sub != fs::directory_iterator();
         sub.increment(ec2)) {
      if (sub->is_directory(ec2)) look(sub->path());
    }
  }
  std::sort(logs.begin(), logs.end());
  std::vector<LoggedErrors> out;
  for (const fs::path& p : logs) {
    std::ifstream in(p, std::ios::binary);
    LoggedErrors e;
    e.source = p.string();
    std::string line;
    while (std::getline(in, line)) {
      line = trimmed(line);
      if (line.empty()) continue;
      ++e.total;
      if (e.lines.size() < kErrorLinesKept) e.lines.push_back(clipped(line));
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string rank_label(const RankDump& rd) {
  switch (rd.kind) {
    case ProcessFolder::Rank: return "rank " + std::to_string(rd.number);
    case ProcessFolder::Proc: return "process " + std::to_string(rd.number);
    case ProcessFolder::SingleRank8x: return "the single process";
  }
  return rd.name;
}

const char* folder_kind(ProcessFolder k) {
  switch (k) {
    case ProcessFolder::Rank: return "rank";
    case ProcessFolder::SingleRank8x: return "rank-8x";
    case ProcessFolder::Proc: return "proc";
  }
  return "rank";
}

}  // namespace

std::string human_bytes(long long bytes) {
  static const char* kUnits[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1000 && u < 5) {
    v /= 1000;
    ++u;
  }
  char buf[32];
  if (u == 0) std::snprintf(buf, sizeof buf, "%lld B", bytes);
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
  return buf;
}

DumpReport check_dump(const std::string& config_path, const std::string& config_text,
                      const std::vector<std::string>& base_dirs, const analysis::AnalysisOptions& options) {
  DumpReport r;
  r.config_path = config_path;
  cfg::ConfigSummary s = cfg::summarize_config(config_text);
  if (!s.readable) {
    r.error = "the config is not a readable JSON object";
    return r;
  }
  if (!s.dump_path_set || s.dump_path.empty()) {
    r.error = "the config has no dump_path (it may come from PrecisionDebugger(dump_path=...)): nothing to inspect";
    return r;
  }
  r.task = s.task;
  r.level = s.level;
  if (fs::path(s.dump_path).is_absolute()) {
    r.tried.push_back(absolute_path(s.dump_path, "/"));
  } else {
    for (const auto& b : base_dirs) {
      std::string p = absolute_path(s.dump_path, b);
      if (std::find(r.tried.begin(), r.tried.end(), p) == r.tried.end()) r.tried.push_back(p);
    }
  }
  std::vector<long long> wanted_steps, wanted_ranks;
  bool steps_ok = s.step_valid && cfg::expand_ranges(s.step, wanted_steps, 10000);
  bool ranks_ok = s.rank_valid && cfg::expand_ranges(s.rank, wanted_ranks, 10000);
  if (steps_ok && !wanted_steps.empty()) {
    r.planned_steps = static_cast<long long>(wanted_steps.size());
    r.planned_steps_text = "[" + join_numbers(wanted_steps) + "]";
  }

  std::error_code ec;
  for (const auto& p : r.tried) {
    if (fs::is_directory(p, ec)) {
      r.dump_path = p;
      r.exists = true;
      break;
    }
  }
  if (!r.exists) {
    r.dump_path = r.tried.empty() ? s.dump_path : r.tried.front();
    if (ranks_ok && !wanted_ranks.empty()) {
      // Seen with 8.3.3 and 26.0: a rank filter that matches no process leaves
      // no trace at all, not even the dump_path (MSP307 predicts it from the script).
      r.causes.push_back("\"rank\": [" + join_numbers(wanted_ranks) +
                         "] matched no process of the run, and then msProbe does not even create the dump_path: a "
                         "run without torch.distributed has no rank at all. Use \"rank\": [] for a single-process run "
                         "(or start(rank_id=...)); with torch.distributed, check that these ranks exist");
      r.notes.push_back(
          "if the ranks are right, the script has not run with the debugger yet, or PrecisionDebugger was "
          "not created in the process that runs the model");
    } else {
      r.causes.push_back(
          "nothing was written to the dump_path: the script has not run with the debugger yet, "
          "PrecisionDebugger was not created in the process that runs the model, or start() was never "
          "reached" +
          std::string(fs::path(s.dump_path).is_absolute() ? ""
                                                          : "; the path is relative, so it "
                                                            "lands in the directory the run started in"));
    }
    return r;
  }
  r.errors = logged_errors(r.dump_path);
  bool l2 = s.level == "L2";

  std::vector<fs::path> step_dirs;
  for (auto it = fs::directory_iterator(r.dump_path, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    long long n;
    if (it->is_directory(ec) && numbered(it->path().filename().string(), "step", n)) step_dirs.push_back(it->path());
  }
  std::sort(step_dirs.begin(), step_dirs.end(), [](const fs::path& a, const fs::path& b) {
    long long x = 0, y = 0;
    numbered(a.filename().string(), "step", x);
    numbered(b.filename().string(), "step", y);
    return x < y;
  });

  bool any_dump_json_missing = false, any_tensor_without_json = false, only_single = true, any_rank_dir = false;
  std::set<ProcessFolder> kinds;
  std::set<long long> found_steps, found_ranks;
  std::vector<long long> empty_steps, data_steps, partly_empty_steps;
  for (const fs::path& sd : step_dirs) {
    StepDump st;
    st.name = sd.filename().string();
    numbered(st.name, "step", st.step);
    found_steps.insert(st.step);
    if (l2) {
      st.kernel_files = count_files(sd).first;
      if (st.kernel_files == 0)
        st.problems.push_back(
            "no kernel data: the API in tensor.list did not run on the NPU, or its name "
            "({api_type}.{api_name}.{n}.{forward|backward}) does not match");
      r.steps.push_back(std::move(st));
      continue;
    }
    for (auto it = fs::directory_iterator(sd, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (!it->is_directory(ec)) continue;
      RankDump rd;
      rd.name = it->path().filename().string();
      rd.path = it->path().string();
      if (rd.name == "rank") rd.kind = ProcessFolder::SingleRank8x;
      else if (numbered(rd.name, "rank", rd.number)) rd.kind = ProcessFolder::Rank;
      else if (numbered(rd.name, "proc", rd.number)) rd.kind = ProcessFolder::Proc;
      else continue;
      kinds.insert(rd.kind);
      if (rd.kind == ProcessFolder::Rank) {
        found_ranks.insert(rd.number);
        only_single = false;
      }
      any_rank_dir = true;
      // 8.x writes stack.json and construct.json always; 26.x unless extra_info is false.
      // Without a target version, the folder names tell which line wrote the dump.
      bool v26 = options.msprobe_version ? cfg::version_of(options) == cfg::ConfigVersion::V26
                                         : rd.kind != ProcessFolder::SingleRank8x;
      bool extra = !v26 || s.extra_info;
      fs::path dj = it->path() / "dump.json";
      rd.dump_json = fs::is_regular_file(dj, ec);
      rd.dump_json_bytes = rd.dump_json ? static_cast<long long>(fs::file_size(dj, ec)) : 0;
      if (rd.dump_json && rd.dump_json_bytes > 0) {
        DumpJsonScan scan = scan_dump_json(dj.string());
        rd.dump_json_has_data = scan.readable && scan.has_data;
        rd.tensors = scan.tensors;
        rd.tensor_bytes = scan.tensor_bytes;
        if (!scan.readable) rd.problems.push_back("dump.json is not valid JSON (cut short while it was written?)");
      }
      rd.stack_json = fs::is_regular_file(it->path() / "stack.json", ec);
      rd.construct_json = fs::is_regular_file(it->path() / "construct.json", ec);
      if (fs::is_directory(it->path() / "dump_tensor_data", ec)) {
        auto [files, bytes] = count_files(it->path() / "dump_tensor_data");
        rd.tensor_files = files;
        rd.tensor_files_bytes = bytes;
      }
      if (!rd.dump_json) {
        rd.problems.push_back("dump.json is missing");
        any_dump_json_missing = true;
        if (rd.tensor_files > 0) any_tensor_without_json = true;
      } else if (!rd.dump_json_has_data) {
        rd.problems.push_back("dump.json is empty (no API or module was recorded)");
      }
      if (extra && rd.dump_json && !rd.stack_json) rd.problems.push_back("stack.json is missing");
      if (extra && rd.dump_json && !rd.construct_json) rd.problems.push_back("construct.json is missing");
      if (s.task == "tensor" && rd.tensor_files == 0) rd.problems.push_back("dump_tensor_data/ has no tensor files");
      st.ranks.push_back(std::move(rd));
    }
    std::sort(st.ranks.begin(), st.ranks.end(), [](const RankDump& a, const RankDump& b) {
      if (a.kind != b.kind) return a.kind < b.kind;
      if (a.number != b.number) return a.number < b.number;
      return a.name < b.name;
    });
    if (st.ranks.empty()) {
      st.problems.push_back("no rank folder: nothing was recorded in this step");
    } else {
      bool all_empty = std::all_of(st.ranks.begin(), st.ranks.end(),
                                   [](const RankDump& rd) { return rd.dump_json && !rd.dump_json_has_data; });
      bool any_data = std::any_of(st.ranks.begin(), st.ranks.end(),
                                  [](const RankDump& rd) { return rd.dump_json_has_data; });
      if (all_empty) empty_steps.push_back(st.step);
      if (any_data) data_steps.push_back(st.step);
      if (any_data && std::any_of(st.ranks.begin(), st.ranks.end(),
                                  [](const RankDump& rd) { return rd.dump_json && !rd.dump_json_has_data; }))
        partly_empty_steps.push_back(st.step);
      long long bytes = 0, tensors = 0;
      for (const RankDump& rd : st.ranks) {
        bytes += rd.tensor_bytes;
        tensors += rd.tensors;
      }
      if (tensors > 0) r.tensor_bytes_per_step[st.step] = bytes;
    }
    r.steps.push_back(std::move(st));
  }

  // Which msProbe line wrote the folders.
  std::vector<std::string> layouts;
  if (kinds.count(ProcessFolder::SingleRank8x))
    layouts.push_back("a single-process run by msProbe 8.x (folder \"rank\")");
  if (kinds.count(ProcessFolder::Proc))
    layouts.push_back("a single-process run by msProbe 26.x (folders \"proc<pid>\")");
  if (kinds.count(ProcessFolder::Rank)) layouts.push_back("a torch.distributed run (folders \"rank<N>\")");
  for (std::size_t i = 0; i < layouts.size(); ++i) r.layout += (i ? "; " : "") + layouts[i];
  if (options.msprobe_version) {
    bool v8 = cfg::version_of(options) == cfg::ConfigVersion::V8;
    if (v8 && kinds.count(ProcessFolder::Proc))
      r.notes.push_back("\"proc<pid>\" folders are what msProbe 26.x writes, but the target version is " +
                        options.msprobe_version->text + ": check which msProbe the run used");
    if (!v8 && kinds.count(ProcessFolder::SingleRank8x))
      r.notes.push_back("a folder named \"rank\" is what msProbe 8.x writes, but the target version is " +
                        options.msprobe_version->text + ": check which msProbe the run used");
  }

  // Likely causes.
  if (step_dirs.empty()) {
    std::string c = "no step folder in the dump_path: start() was never reached";
    if (ranks_ok && !wanted_ranks.empty())
      c += ", or \"rank\": [" + join_numbers(wanted_ranks) +
           "] matches no rank of the run (without torch.distributed "
           "there is no rank at all: use [])";
    if (steps_ok && !wanted_steps.empty())
      c += ", or the steps [" + join_numbers(wanted_steps) + "] were never reached";
    r.causes.push_back(c);
  }
  if (!wanted_ranks.empty() && any_rank_dir && only_single)
    r.causes.push_back(
        "only single-process folders (\"proc<pid>\" or \"rank\"): torch.distributed was not initialised, "
        "so \"rank\" filters cannot match");
  if (steps_ok && !wanted_steps.empty() && !step_dirs.empty()) {
    std::vector<long long> missing;
    for (long long w : wanted_steps) {
      if (!found_steps.count(w)) missing.push_back(w);
    }
    if (!missing.empty()) {
      std::string c = "steps [" + join_numbers(missing) + "] were never dumped: the run ended earlier";
      if (found_steps.size() == 1 && *found_steps.begin() == 0)
        c += ", or debugger.step() is not called at the end of each iteration (everything stays in step0)";
      r.causes.push_back(c);
    }
  } else if (!step_dirs.empty() && wanted_steps.empty() && found_steps.size() == 1 && *found_steps.begin() == 0) {
    r.notes.push_back(
        "only step0: if the run had several iterations, debugger.step() is probably not called in the loop");
  }
  if (!empty_steps.empty() && !data_steps.empty()) {
    // Seen for real: start() before a guard such as `if i >= max_steps: break`
    // still opens a step, and that step records nothing.
    r.causes.push_back(
        "steps [" + join_numbers(empty_steps) + "] are empty (dump.json has \"data\": {}) while steps [" +
        join_numbers(data_steps) +
        "] have data: an iteration left through break/continue (or a guard "
        "such as `if i >= max_steps: break`) after start() and before the model ran, so it still counted "
        "as a step, or step() is called twice in an iteration. Put start() after such guards and call "
        "stop()/step() once per iteration; the step numbers then match the iterations again");
  } else if (!empty_steps.empty()) {
    std::string c =
        "every dump.json is empty (\"data\": {}): the model ran outside start()/stop(), start() got a "
        "model whose modules did not run, or list/scope filtered every API out";
    if (s.task == "tensor")
      c += "; with task tensor on PyTorch < 2.0, msProbe 8.x also writes empty dumps (Tensor.untyped_storage() is "
           "missing; see dump_error_info.log)";
    r.causes.push_back(c);
  }
  if (!partly_empty_steps.empty())
    r.causes.push_back("in steps [" + join_numbers(partly_empty_steps) +
                       "] some processes recorded nothing while others "
                       "did: those processes did not run the model between start() and stop(), or list/scope "
                       "filtered their APIs out");
  if (any_tensor_without_json)
    r.causes.push_back("tensor files but no dump.json: stop()/step() was not reached (dump.json is written then)");
  else if (any_dump_json_missing)
    r.causes.push_back(
        "a missing dump.json: stop() or step() was not reached, or the dumped code ran outside "
        "start()/stop()");
  if (!wanted_ranks.empty() && !found_ranks.empty()) {
    std::vector<long long> missing;
    for (long long w : wanted_ranks) {
      if (!found_ranks.count(w)) missing.push_back(w);
    }
    if (!missing.empty() && missing.size() < wanted_ranks.size()) {
      r.causes.push_back("ranks [" + join_numbers(missing) + "] have no folder: they are not part of the run");
    } else if (!missing.empty()) {
      std::vector<long long> found(found_ranks.begin(), found_ranks.end());
      r.causes.push_back("none of the ranks [" + join_numbers(missing) + "] has a folder, only ranks [" +
                         join_numbers(found) +
                         "] do: these folders come from a run with another \"rank\" (or an "
                         "older run into the same dump_path), or the ranks asked for are not part of the run");
    }
  }
  for (const LoggedErrors& e : r.errors) {
    r.causes.push_back("msProbe logged " + std::to_string(e.total) + " error line(s) in " + e.source +
                       ", first: " + (e.lines.empty() ? std::string("(empty)") : e.lines.front()));
  }
  bool all_good = !r.steps.empty();
  for (const StepDump& st : r.steps) {
    if (!st.problems.empty()) all_good = false;
    for (const RankDump& rd : st.ranks) {
      if (!rd.problems.empty()) all_good = false;
    }
  }
  r.ok = all_good && r.causes.empty();
  return r;
}

void add_run_errors(DumpReport& r, const std::vector<std::string>& lines, long long total) {
  if (lines.empty()) return;
  LoggedErrors e;
  e.source = "output of the run";
  for (const auto& l : lines) e.lines.push_back(clipped(trimmed(l)));
  e.total = total;
  r.causes.push_back("the run printed " + std::to_string(total) + " [ERROR] line(s), first: " + e.lines.front());
  r.errors.push_back(std::move(e));
  r.ok = false;
}

std::vector<std::string> tensor_estimate_lines(const DumpReport& r) {
  std::vector<std::string> out;
  if (r.tensor_bytes_per_step.empty()) return out;
  bool tensor_task = r.task == "tensor";
  long long total = 0;
  for (const StepDump& st : r.steps) {
    auto it = r.tensor_bytes_per_step.find(st.step);
    if (it == r.tensor_bytes_per_step.end()) continue;
    total += it->second;
    std::vector<const RankDump*> ranks;
    for (const RankDump& rd : st.ranks) {
      if (rd.tensors > 0) ranks.push_back(&rd);
    }
    std::string line = tensor_task ? "the tensors of step " + std::to_string(st.step) + " take about "
                                   : "a tensor dump of step " + std::to_string(st.step) + " would write about ";
    auto where = [](const RankDump& rd) {
      return std::string(rd.kind == ProcessFolder::Rank ? "on " : "in ") + rank_label(rd);
    };
    if (ranks.size() == 1) {
      line += human_bytes(ranks.front()->tensor_bytes) + " " + where(*ranks.front());
    } else {
      line += human_bytes(it->second) + ":";
      for (std::size_t i = 0; i < ranks.size(); ++i)
        line += std::string(i ? "," : "") + " " + human_bytes(ranks[i]->tensor_bytes) + " " + where(*ranks[i]);
    }
    if (tensor_task) {
      long long on_disk = 0;
      for (const RankDump& rd : st.ranks) on_disk += rd.tensor_files_bytes;
      line += " (dump_tensor_data holds " + human_bytes(on_disk) + ")";
    }
    out.push_back(line);
  }
  auto steps = static_cast<long long>(r.tensor_bytes_per_step.size());
  long long per_step = total / steps;
  std::string basis = steps == 1 ? "" : " (the average of the " + std::to_string(steps) + " steps dumped)";
  if (r.planned_steps < 0)
    out.push_back("the config dumps every step: about " + human_bytes(per_step) + " per step" + basis);
  else if (r.planned_steps != steps)
    out.push_back("for the " + std::to_string(r.planned_steps) + " configured step(s) " + r.planned_steps_text +
                  ": about " + human_bytes(per_step * r.planned_steps) + basis);
  else if (steps > 1)
    out.push_back("for the configured steps " + r.planned_steps_text + ": about " + human_bytes(total) + " in all");
  return out;
}

nlohmann::json to_json(const DumpReport& r) {
  nlohmann::json steps = nlohmann::json::array();
  for (const StepDump& st : r.steps) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const RankDump& rd : st.ranks) {
      ranks.push_back({{"name", rd.name},
                       {"path", rd.path},
                       {"folder", folder_kind(rd.kind)},
                       {"dumpJson", rd.dump_json},
                       {"dumpJsonBytes", rd.dump_json_bytes},
                       {"dumpJsonHasData", rd.dump_json_has_data},
                       {"stackJson", rd.stack_json},
                       {"constructJson", rd.construct_json},
                       {"tensorFiles", rd.tensor_files},
                       {"tensorFilesBytes", rd.tensor_files_bytes},
                       {"tensors", rd.tensors},
                       {"tensorBytes", rd.tensor_bytes},
                       {"problems", rd.problems}});
    }
    nlohmann::json s{{"name", st.name}, {"step", st.step}, {"ranks", ranks}, {"problems", st.problems}};
    if (r.level == "L2") s["kernelFiles"] = st.kernel_files;
    steps.push_back(s);
  }
  nlohmann::json errors = nlohmann::json::array();
  for (const LoggedErrors& e : r.errors)
    errors.push_back({{"source", e.source}, {"lines", e.lines}, {"total", e.total}});
  nlohmann::json per_step = nlohmann::json::object();
  long long total = 0;
  for (const auto& [step, bytes] : r.tensor_bytes_per_step) {
    per_step[std::to_string(step)] = bytes;
    total += bytes;
  }
  nlohmann::json j{{"config", r.config_path},
                   {"dumpPath", r.dump_path},
                   {"exists", r.exists},
                   {"tried", r.tried},
                   {"task", r.task},
                   {"level", r.level},
                   {"layout", r.layout},
                   {"steps", steps},
                   {"errors", errors},
                   {"causes", r.causes},
                   {"notes", r.notes},
                   {"tensor_bytes_per_step", per_step},
                   {"tensor_bytes_total", total},
                   {"planned_steps", r.planned_steps},
                   {"tensor_estimate", tensor_estimate_lines(r)},
                   {"ok", r.ok}};
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

std::string to_text(const DumpReport& r) {
  std::string out = "config: " + r.config_path + "\n";
  if (!r.error.empty()) return out + "cannot check the dump: " + r.error + "\n";
  out += "dump_path: " + r.dump_path + (r.exists ? "" : " (does not exist)") + "\n";
  if (!r.exists && r.tried.size() > 1) {
    out += "  looked in:";
    for (const auto& t : r.tried) out += " " + t;
    out += "\n";
  }
  if (!r.layout.empty()) out += "layout: " + r.layout + "\n";
  for (const StepDump& st : r.steps) {
    if (r.level == "L2") {
      out += "  " + st.name + ": " + std::to_string(st.kernel_files) + " kernel file(s)\n";
    } else if (st.ranks.empty()) {
      out += "  " + st.name + ": (no rank folder)\n";
    }
    for (const RankDump& rd : st.ranks) {
      out += "  " + st.name + "/" + rd.name + ": ";
      if (!rd.dump_json) out += "dump.json MISSING";
      else
        out += "dump.json " + std::to_string(rd.dump_json_bytes) + " bytes" + (rd.dump_json_has_data ? "" : " (EMPTY)");
      if (rd.stack_json) out += ", stack.json";
      if (rd.construct_json) out += ", construct.json";
      if (rd.tensor_files) out += ", " + std::to_string(rd.tensor_files) + " tensor file(s)";
      out += "\n";
      for (const auto& p : rd.problems) out += "    - " + p + "\n";
    }
    for (const auto& p : st.problems) out += "    - " + p + "\n";
  }
  for (const LoggedErrors& e : r.errors) {
    out += "errors from " + e.source + ":\n";
    for (const auto& l : e.lines) out += "  | " + l + "\n";
    if (e.total > static_cast<long long>(e.lines.size()))
      out += "  | ... (" + std::to_string(e.total - static_cast<long long>(e.lines.size())) + " more)\n";
  }
  for (const auto& line : tensor_estimate_lines(r)) out += "estimate: " + line + "\n";
  if (!r.causes.empty()) {
    out += "likely causes:\n";
    for (const auto& c : r.causes) out += "  - " + c + "\n";
  }
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  out += r.ok ? "result: the dump looks complete\n" : "result: the dump is missing or incomplete\n";
  return out;
}

}  // namespace msprobe::server
