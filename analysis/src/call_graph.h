// Calls between the functions of one file: which function a call reaches
// (by name, `self.method`, or `Class(...)` -> `__init__`), what a function
// reaches in turn, and whether a loop calls it. Depth-limited, never across
// files. Built once per check: every call is resolved a single time.
#pragma once

#include <cstdint>
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
  // The calls that run a function of this file (target() >= 0), in file order.
  const std::vector<int>& resolved_calls() const { return resolved_; }

  // Functions run when `fn` runs: itself and those its body calls, transitively.
  std::set<int> reachable(int fn, int depth = 4) const;

  std::optional<LoopCaller> loop_calling(int fn, int depth = 4) const;

 private:
  // Calls grouped per function, in file order: function g's are
  // calls[at[g]] .. calls[at[g + 1]] (two arrays, not a vector per function).
  struct Groups {
    std::vector<uint32_t> at;  // functions + 1 offsets
    std::vector<int> calls;
    struct Span {
      const int* first;
      const int* last;
      const int* begin() const { return first; }
      const int* end() const { return last; }
    };
    Span of(int g) const {
      return {calls.data() + at[static_cast<std::size_t>(g)], calls.data() + at[static_cast<std::size_t>(g) + 1]};
    }
  };

  // Fills calls_in_ and callers_ on the first walk.
  void group() const;

  const FileFacts& f_;
  std::vector<int> targets_;  // per call
  std::vector<int> resolved_;
  mutable bool grouped_ = false;
  mutable Groups calls_in_;  // per function: its calls
  mutable Groups callers_;   // per function: calls that target it
};

// One-off lookups (each builds a graph; use CallGraph when asking many times).
std::set<int> reachable_functions(const FileFacts& f, int fn, int depth = 4);
std::optional<LoopCaller> loop_calling(const FileFacts& f, int fn, int depth = 4);

// True when function `inner` is `outer` or nested in it.
bool function_within(const FileFacts& f, int inner, int outer);

}  // namespace msprobe::analysis
