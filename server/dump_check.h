// What a run actually dumped: reads the config's dump_path and inspects the
// step/rank folders msProbe writes (msprobe-facts §4), naming the likely
// cause when something is missing or empty. Shared by the msprobe.checkDump
// command and `msprobe-lsp check-dump`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "msprobe/analysis/rule.h"

namespace msprobe::server {

struct RankDump {
  std::string name;  // "rank0", "proc1234"
  std::string path;
  bool dump_json = false;
  long long dump_json_bytes = 0;
  bool dump_json_has_data = false;
  bool stack_json = false, construct_json = false;
  long long tensor_files = 0;
  std::vector<std::string> problems;
};

struct StepDump {
  std::string name;  // "step0"
  long long step = 0;
  std::vector<RankDump> ranks;
  long long kernel_files = 0;  // level L2 layout
  std::vector<std::string> problems;
};

struct DumpReport {
  std::string config_path;
  std::string error;             // the check could not run (unreadable config, no dump_path)
  std::string dump_path;         // resolved
  std::vector<std::string> tried;
  bool exists = false;
  std::string task, level;
  std::vector<StepDump> steps;
  std::vector<std::string> causes;  // likely reasons for what is missing
  std::vector<std::string> notes;   // worth a look, but not proof that something is missing
  bool ok = false;                  // every expected step and rank has a non-empty dump.json
};

// `base_dirs`: where a relative dump_path may be relative to (the config's
// directory, the workspace folders, the current directory), in order.
DumpReport check_dump(const std::string& config_path, const std::string& config_text,
                      const std::vector<std::string>& base_dirs, const analysis::AnalysisOptions& options);

nlohmann::json to_json(const DumpReport& r);
std::string to_text(const DumpReport& r);

}  // namespace msprobe::server
