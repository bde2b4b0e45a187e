// What a run actually dumped: reads the config's dump_path and inspects the
// step/rank folders msProbe writes (msprobe-facts §4, §9), naming the likely
// cause when something is missing or empty, surfacing the errors msProbe
// logged, and estimating from dump.json what a tensor dump of the same steps
// would write. Shared by the msprobe.checkDump command, the generateConfig
// dialogue, `msprobe-lsp check-dump` and `msprobe-lsp verify`.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "msprobe/analysis/rule.h"

namespace msprobe::server {

// The process folder inside a step folder. msProbe 8.x names a
// single-process run's folder "rank", 26.x "proc<pid>"; with
// torch.distributed both write "rank<N>".
enum class ProcessFolder { Rank, SingleRank8x, Proc };

struct RankDump {
  std::string name;  // "rank0", "rank", "proc1234"
  std::string path;
  ProcessFolder kind = ProcessFolder::Rank;
  long long number = -1;  // the rank (Rank) or the pid (Proc)
  bool dump_json = false;
  long long dump_json_bytes = 0;
  bool dump_json_has_data = false;
  bool stack_json = false, construct_json = false;
  long long tensor_files = 0, tensor_files_bytes = 0;  // dump_tensor_data/
  long long tensors = 0;                               // tensor entries in dump.json
  long long tensor_bytes = 0;                          // what a tensor dump of them writes
  std::vector<std::string> problems;
};

struct StepDump {
  std::string name;  // "step0"
  long long step = 0;
  std::vector<RankDump> ranks;
  long long kernel_files = 0;  // level L2 layout
  std::vector<std::string> problems;
};

// Error lines msProbe wrote to a dump_error_info.log, or a run printed.
struct LoggedErrors {
  std::string source;  // the log file, or "output of the run"
  std::vector<std::string> lines;
  long long total = 0;  // lines in the source (more than `lines` holds when cut)
};

struct DumpReport {
  std::string config_path;
  std::string error;      // the check could not run (unreadable config, no dump_path)
  std::string dump_path;  // resolved
  std::vector<std::string> tried;
  bool exists = false;
  std::string task, level;
  std::string layout;  // which msProbe wrote the folders, in words
  std::vector<StepDump> steps;
  std::vector<LoggedErrors> errors;
  std::vector<std::string> causes;  // likely reasons for what is missing
  std::vector<std::string> notes;   // worth a look, but not proof that something is missing
  // step -> bytes a tensor dump of it would write, summed over its ranks.
  std::map<long long, long long> tensor_bytes_per_step;
  // The steps the config asks for: -1 for every step, else how many.
  long long planned_steps = -1;
  std::string planned_steps_text;  // "[0, 1, 2]"
  bool ok = false;                 // every expected step and rank has a non-empty dump.json
};

// `base_dirs`: where a relative dump_path may be relative to (the config's
// directory, the workspace folders, the current directory), in order.
DumpReport check_dump(const std::string& config_path, const std::string& config_text,
                      const std::vector<std::string>& base_dirs, const analysis::AnalysisOptions& options);

// Adds error lines a run printed (verify's output scan); they count as a cause.
void add_run_errors(DumpReport& r, const std::vector<std::string>& lines, long long total);

// The tensor-volume estimate as readable lines ("a tensor dump of step 0
// would write about 1.3 GB on rank 0"); empty when no dump.json recorded a tensor.
std::vector<std::string> tensor_estimate_lines(const DumpReport& r);
// 1234567 -> "1.2 MB" (decimal units, as disk sizes are sold).
std::string human_bytes(long long bytes);

nlohmann::json to_json(const DumpReport& r);
std::string to_text(const DumpReport& r);

}  // namespace msprobe::server
