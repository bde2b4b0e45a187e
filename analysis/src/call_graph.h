// Calls between the functions of one file: which function a call reaches
// (by name, `self.method`, or `Class(...)` -> `__init__`), what a function
// reaches in turn, and whether a loop calls it. Depth-limited, never across files.
#pragma once

#include <optional>
#include <set>

#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {

// Index of the function of this file that call `c` runs, or -1.
int called_function(const FileFacts& f, const Call& c);

// Functions run when `fn` runs: itself and those its body calls, transitively.
std::set<int> reachable_functions(const FileFacts& f, int fn, int depth = 4);

// A loop that runs `fn` on every iteration, through the call `call` in its
// body (directly or through other functions of the file).
struct LoopCaller {
  int call = -1;  // the call inside the loop
  int loop = -1;
};
std::optional<LoopCaller> loop_calling(const FileFacts& f, int fn, int depth = 4);

// True when function `inner` is `outer` or nested in it.
bool function_within(const FileFacts& f, int inner, int outer);

}  // namespace msprobe::analysis
