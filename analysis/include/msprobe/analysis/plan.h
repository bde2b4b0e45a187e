// The insertion plan: where the msProbe dump points go in a script
// (msprobe-facts §2.5): the import, seed_all() and the PrecisionDebugger
// construction after the imports; start(model) first in the loop body;
// stop() and step() last in it, and on every other exit of the iteration.
#pragma once

#include <optional>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis {

struct DumpPlan {
  int loop = -1;        // index into FileFacts::loops
  int loop_info = -1;   // index into FileFacts::loop_info
  LoopRole role = LoopRole::None;
  std::string model;    // argument for start(); empty when unknown

  // The import block goes after this statement (a top-level import, an
  // import block in try/if, the module docstring or `from __future__`), or
  // at the top of the file when import_after_stmt == -1.
  int import_after_stmt = -1;
  uint32_t import_after_line = 0;  // 0-based last line of that statement

  int first_body_stmt = -1;  // start() goes before it
  int last_body_stmt = -1;   // stop()/step() go after it
  uint32_t start_before_line = 0;
  uint32_t stop_step_after_line = 0;
  // continue/break/return statements that leave the iteration early.
  std::vector<int> early_exits;
};

// Chooses the loop to instrument (the given line, else the first train loop,
// else the first inference loop) and plans the insertion. nullopt when there
// is no loop to instrument.
std::optional<DumpPlan> plan_dump(const SourceText& source, const FileFacts& facts,
                                  std::optional<uint32_t> loop_line = std::nullopt);

// Plans for `loop_info` entry `index` (any role).
std::optional<DumpPlan> plan_for_loop(const SourceText& source, const FileFacts& facts, int index);

}  // namespace msprobe::analysis
