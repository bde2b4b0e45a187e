// Dump folder inspection.
#include "dump_check.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "config_paths.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/config_schema.h"
#include "msprobe/analysis/config/json_doc.h"

namespace msprobe::server {
namespace fs = std::filesystem;
namespace cfg = analysis::config;

namespace {

bool numbered(const std::string& name, const std::string& prefix, long long& n) {
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return false;
  std::string digits = name.substr(prefix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) || digits.size() > 12)
    return false;
  n = std::stoll(digits);
  return true;
}

long long count_files(const fs::path& dir) {
  long long n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file(ec) && it->file_size(ec) > 0) ++n;
  }
  return n;
}

// dump.json has a "data" object; small files are read to see whether it is empty.
bool has_data(const fs::path& file, long long bytes) {
  if (bytes > 64 * 1024) return true;
  std::string text;
  if (!read_small_file(file.string(), text, 64 * 1024)) return false;
  cfg::JsonDoc d = cfg::parse_json(text);
  if (!d.ok() || !d.root.is(cfg::JsonKind::Object)) return false;
  const cfg::JsonValue* data = d.root.get("data");
  return data && data->is(cfg::JsonKind::Object) && !data->members.empty();
}

std::string join_numbers(const std::vector<long long>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 20; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() > 20) s += ", ...";
  return s;
}

}  // namespace

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
    r.causes.push_back("nothing was written to the dump_path: the script has not run with the debugger yet, "
                       "PrecisionDebugger was not created in the process that runs the model, or start() was never "
                       "reached" + std::string(fs::path(s.dump_path).is_absolute() ? "" : "; the path is relative, so it "
                       "lands in the directory the run started in"));
    return r;
  }
  std::vector<long long> wanted_steps, wanted_ranks;
  bool steps_ok = s.step_valid && cfg::expand_ranges(s.step, wanted_steps, 10000);
  bool ranks_ok = s.rank_valid && cfg::expand_ranges(s.rank, wanted_ranks, 10000);
  bool v26 = cfg::version_of(options) == cfg::ConfigVersion::V26;
  bool extra = !v26 || s.extra_info;
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

  bool any_dump_json_missing = false, any_tensor_without_json = false, only_proc = true, any_rank_dir = false;
  std::set<long long> found_steps, found_ranks;
  for (const fs::path& sd : step_dirs) {
    StepDump st;
    st.name = sd.filename().string();
    numbered(st.name, "step", st.step);
    found_steps.insert(st.step);
    if (l2) {
      st.kernel_files = count_files(sd);
      if (st.kernel_files == 0)
        st.problems.push_back("no kernel data: the API in tensor.list did not run on the NPU, or its name "
                              "({api_type}.{api_name}.{n}.{forward|backward}) does not match");
      r.steps.push_back(std::move(st));
      continue;
    }
    for (auto it = fs::directory_iterator(sd, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (!it->is_directory(ec)) continue;
      RankDump rd;
      rd.name = it->path().filename().string();
      rd.path = it->path().string();
      long long n = 0;
      bool is_rank = numbered(rd.name, "rank", n);
      if (!is_rank && rd.name.rfind("proc", 0) != 0) continue;
      if (is_rank) {
        found_ranks.insert(n);
        only_proc = false;
      }
      any_rank_dir = true;
      fs::path dj = it->path() / "dump.json";
      rd.dump_json = fs::is_regular_file(dj, ec);
      rd.dump_json_bytes = rd.dump_json ? static_cast<long long>(fs::file_size(dj, ec)) : 0;
      rd.dump_json_has_data = rd.dump_json && rd.dump_json_bytes > 0 && has_data(dj, rd.dump_json_bytes);
      rd.stack_json = fs::is_regular_file(it->path() / "stack.json", ec);
      rd.construct_json = fs::is_regular_file(it->path() / "construct.json", ec);
      if (fs::is_directory(it->path() / "dump_tensor_data", ec)) rd.tensor_files = count_files(it->path() / "dump_tensor_data");
      if (!rd.dump_json) {
        rd.problems.push_back("dump.json is missing");
        any_dump_json_missing = true;
        if (rd.tensor_files > 0) any_tensor_without_json = true;
      } else if (!rd.dump_json_has_data) {
        rd.problems.push_back("dump.json is empty (no API or module was recorded)");
        any_dump_json_missing = true;
      }
      if (extra && rd.dump_json && !rd.stack_json) rd.problems.push_back("stack.json is missing");
      if (extra && rd.dump_json && !rd.construct_json) rd.problems.push_back("construct.json is missing");
      if (s.task == "tensor" && rd.tensor_files == 0) rd.problems.push_back("dump_tensor_data/ has no tensor files");
      st.ranks.push_back(std::move(rd));
    }
    std::sort(st.ranks.begin(), st.ranks.end(), [](const RankDump& a, const RankDump& b) { return a.name < b.name; });
    if (st.ranks.empty()) st.problems.push_back("no rank folder: nothing was recorded in this step");
    r.steps.push_back(std::move(st));
  }

  // Likely causes.
  if (step_dirs.empty()) {
    std::string c = "no step folder in the dump_path: start() was never reached";
    if (ranks_ok && !wanted_ranks.empty())
      c += ", or \"rank\": [" + join_numbers(wanted_ranks) + "] matches no rank of the run (without torch.distributed "
           "there is no rank at all: use [])";
    if (steps_ok && !wanted_steps.empty())
      c += ", or the steps [" + join_numbers(wanted_steps) + "] were never reached";
    r.causes.push_back(c);
  }
  if (!wanted_ranks.empty() && any_rank_dir && only_proc)
    r.causes.push_back("only proc{pid} folders: torch.distributed was not initialised, so \"rank\" filters cannot match");
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
    r.notes.push_back("only step0: if the run had several iterations, debugger.step() is probably not called in the loop");
  }
  if (any_tensor_without_json)
    r.causes.push_back("tensor files but no dump.json: stop()/step() was not reached (dump.json is written then)");
  else if (any_dump_json_missing)
    r.causes.push_back("a missing or empty dump.json: stop() or step() was not reached, the dumped code ran outside "
                       "start()/stop(), or list/scope filtered everything out");
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
                         join_numbers(found) + "] do: these folders come from a run with another \"rank\" (or an "
                         "older run into the same dump_path), or the ranks asked for are not part of the run");
    }
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

nlohmann::json to_json(const DumpReport& r) {
  nlohmann::json steps = nlohmann::json::array();
  for (const StepDump& st : r.steps) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const RankDump& rd : st.ranks) {
      ranks.push_back({{"name", rd.name},
                       {"path", rd.path},
                       {"dumpJson", rd.dump_json},
                       {"dumpJsonBytes", rd.dump_json_bytes},
                       {"dumpJsonHasData", rd.dump_json_has_data},
                       {"stackJson", rd.stack_json},
                       {"constructJson", rd.construct_json},
                       {"tensorFiles", rd.tensor_files},
                       {"problems", rd.problems}});
    }
    nlohmann::json s{{"name", st.name}, {"step", st.step}, {"ranks", ranks}, {"problems", st.problems}};
    if (r.level == "L2") s["kernelFiles"] = st.kernel_files;
    steps.push_back(s);
  }
  nlohmann::json j{{"config", r.config_path}, {"dumpPath", r.dump_path}, {"exists", r.exists}, {"tried", r.tried},
                   {"task", r.task}, {"level", r.level}, {"steps", steps}, {"causes", r.causes}, {"notes", r.notes},
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
  for (const StepDump& st : r.steps) {
    if (r.level == "L2") {
      out += "  " + st.name + ": " + std::to_string(st.kernel_files) + " kernel file(s)\n";
    } else if (st.ranks.empty()) {
      out += "  " + st.name + ": (no rank folder)\n";
    }
    for (const RankDump& rd : st.ranks) {
      out += "  " + st.name + "/" + rd.name + ": ";
      if (!rd.dump_json) out += "dump.json MISSING";
      else out += "dump.json " + std::to_string(rd.dump_json_bytes) + " bytes" + (rd.dump_json_has_data ? "" : " (EMPTY)");
      if (rd.stack_json) out += ", stack.json";
      if (rd.construct_json) out += ", construct.json";
      if (rd.tensor_files) out += ", " + std::to_string(rd.tensor_files) + " tensor file(s)";
      out += "\n";
      for (const auto& p : rd.problems) out += "    - " + p + "\n";
    }
    for (const auto& p : st.problems) out += "    - " + p + "\n";
  }
  if (!r.causes.empty()) {
    out += "likely causes:\n";
    for (const auto& c : r.causes) out += "  - " + c + "\n";
  }
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  out += r.ok ? "result: the dump looks complete\n" : "result: the dump is missing or incomplete\n";
  return out;
}

}  // namespace msprobe::server
