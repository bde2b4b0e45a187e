// Calls between the functions of one file: which function a call reaches
// (by name, `self.method`, or `Class(...)` -> `__init__`), what a function
// reaches in turn, and whether a loop calls it. Depth-limited, never across
// files. Built once per check: every call is resolved a single time.
#pragma once

#include <optional>
#include <set>
#include <vector>

#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {

// A loop that runs a function on every iteration, through the call `call` in
// its body (directly or through other functions of the file).
struct LoopCaller {
  int call = -1;  // the call inside the loop
  int loop = -1;
};

class CallGraph {
 public:
  explicit CallGraph(const FileFacts& f);

  // Index of the function of this file that call `call` runs, or -1.
  int target(int call) const { return targets_[static_cast<std::size_t>(call)]; }

  // Functions run when `fn` runs: itself and those its body calls, transitively.
  std::set<int> reachable(int fn, int depth = 4) const;

  std::optional<LoopCaller> loop_calling(int fn, int depth = 4) const;

 private:
  const FileFacts& f_;
  std::vector<int> targets_;                // per call
  std::vector<std::vector<int>> calls_in_;  // per function: its calls
  std::vector<std::vector<int>> callers_;   // per function: calls that target it
};

// One-off lookups (each builds a graph; use CallGraph when asking many times).
std::set<int> reachable_functions(const FileFacts& f, int fn, int depth = 4);
std::optional<LoopCaller> loop_calling(const FileFacts& f, int fn, int depth = 4);

// True when function `inner` is `outer` or nested in it.
bool function_within(const FileFacts& f, int inner, int outer);

}  // namespace msprobe::analysis
