// Validation of an msProbe config.json: the config rules (MSP300-MSP305,
// MSP308; each in analysis/rules/, over the walk in config/config_walk.h),
// following the checks msProbe runs when PrecisionDebugger reads the file
// (msprobe-facts §1.1-§1.4). Findings carry byte ranges into the JSON text,
// on the exact key or value, so the server maps them like any other.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/config/config_schema.h"
#include "msprobe/analysis/config/json_doc.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis::config {

// One `rank` / `step` entry: an integer or a "N" / "A-B" string.
struct RangeEntry {
  bool is_int = true;
  long long number = 0;
  std::string text;
};

// What is wrong with one rank/step entry, or "" when msProbe accepts it.
std::string range_entry_problem(const RangeEntry& e, std::string_view field);
// Expands entries into sorted unique numbers (at most `cap` of them); false if an entry is invalid.
bool expand_ranges(const std::vector<RangeEntry>& entries, std::vector<long long>& out, std::size_t cap = 100000);
// Parses "0,1,4-6" or a JSON list such as [0, "4-6"]; nullopt with `error` set when it cannot.
std::optional<std::vector<RangeEntry>> parse_range_list(std::string_view text, std::string& error);
std::string range_list_json(const std::vector<RangeEntry>& entries);

// What is wrong with a dump_path value, or "" when msProbe accepts it.
std::string dump_path_problem(std::string_view path);

// Runs every registered rule that has a config check (disabled rules
// skipped, severity overrides applied), findings sorted by position.
std::vector<Finding> check_config(std::string_view text, const AnalysisOptions& options);

// A config.json that has msProbe's top-level keys (dump_path, or task with
// level/rank/step) and is not one of msProbe's own output files.
bool looks_like_msprobe_config(std::string_view text);

// The values another file needs from a config (defaults where absent).
struct ConfigSummary {
  bool readable = false;  // the root is an object (a syntax error later may have cut it short)
  std::string task = "statistics";
  bool task_set = false;
  std::string level = "L1";
  bool level_set = false;
  std::vector<RangeEntry> rank, step;
  bool rank_valid = true, step_valid = true;
  std::string rank_text;  // source text of the rank value
  std::string dump_path;
  bool dump_path_set = false;
  bool extra_info = true;
  bool async_dump = false;
};
ConfigSummary summarize_config(std::string_view text);

}  // namespace msprobe::analysis::config
