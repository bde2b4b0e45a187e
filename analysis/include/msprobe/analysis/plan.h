// The insertion plan: where the msProbe dump points go in a script
// (msprobe-facts §2.5): the import, seed_all() and the PrecisionDebugger
// construction after the imports; start(model) first in the loop body;
// stop() and step() last in it, and on every other exit of the iteration.
// Lines are 0-based; offsets are byte offsets into the text where inserted
// lines go (always the start of a line, or the end of the text).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis {

// A continue/break/return that leaves the iteration before its last statement.
struct EarlyExit {
  int stmt = -1;  // index into FileFacts::statements
  uint32_t line = 0;
  std::string kind;          // "continue", "break" or "return"
  std::string indent;        // the exact indentation of the exit statement
  uint32_t offset = 0;       // start of the exit's line: stop()/step() go there, at `indent`
  bool shares_line = false;  // `if x: continue`: the exit is not first on its line and needs a block first
};

struct DumpPlan {
  int loop = -1;       // index into FileFacts::loops
  int loop_info = -1;  // index into FileFacts::loop_info
  LoopRole role = LoopRole::None;
  std::string model;  // argument for start(); empty when unknown or not an nn.Module (a vLLM LLM)
  // Every module the loop trains when there are several (a GAN's netG and
  // netD): start() then gets them as a list. Empty when `model` alone is it.
  std::vector<std::string> start_models;
  // The source text start() is given: "[netG, netD]", "model", or "".
  std::string start_argument() const;

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

  // ----- details for the code that inserts the points -----
  std::vector<EarlyExit> exits;      // early_exits with what an edit needs
  std::vector<std::string> models;   // every model the loop calls (a GAN: netG, netD), `model` first
  std::string body_indent;           // exact indentation of the body statements
  bool body_on_header_line = false;  // `for x in y: f(x)`: the body must become a block first
  uint32_t import_offset = 0;        // where the import block goes (after a shebang/coding line at the top)
  uint32_t start_offset = 0;         // where start() goes (the first body line)
  uint32_t stop_step_offset = 0;     // where stop()/step() go (the line after the last body statement)

  // Offline vLLM: the debugger must be built after `llm = LLM(...)` (the
  // device-mismatch error otherwise), not right after the imports.
  int construct_after_stmt = -1;
  uint32_t construct_after_line = 0;
  std::string construct_indent;
  uint32_t construct_offset = 0;

  // What the file already has, so nothing is inserted twice.
  std::string debugger_name;  // the variable holding an existing PrecisionDebugger; empty when none
  std::vector<int> existing;  // indices into FileFacts::msprobe: imports, seed_all, constructions, and
                              // start/stop/step inside this loop's body
  bool has_import = false, has_seed_all = false, has_construct = false;
  bool has_start = false, has_stop = false, has_step = false;  // in this loop's body (8.x
                                                               // forward_backward_dump_end counts as stop)
  // The PyTorch eager dump applies to this file (not MindSpore, MSAdapter,
  // torchair, aclgraph, verl or a vLLM model runner).
  bool scenario_supported = true;

  // Something should be inserted: the scenario is covered and the loop lacks
  // start, stop or step.
  bool needed() const { return scenario_supported && !(has_start && has_stop && has_step); }
};

// Chooses the loop to instrument (the given line, else the first train loop,
// else the first inference loop) and plans the insertion. nullopt when there
// is no loop to instrument.
std::optional<DumpPlan> plan_dump(const SourceText& source, const FileFacts& facts,
                                  std::optional<uint32_t> loop_line = std::nullopt);

// The 0-based last line of the module's import block (where enable_dump
// puts the import and the construction), nullopt when they go at the top.
std::optional<uint32_t> import_block_end(const FileFacts& facts);

// The 0-based line after which code goes to run first in function `fn`
// (after its docstring); nullopt when the body shares the def's line.
std::optional<uint32_t> function_top_line(const SourceText& source, const FileFacts& facts, int fn);

// Plans for `loop_info` entry `index` (any role).
std::optional<DumpPlan> plan_for_loop(const SourceText& source, const FileFacts& facts, int index);

// The community vLLM model runner (msprobe-facts §5.2): construct in
// `__init__`, start at the entry of `execute_model`, stop/step on every exit.
struct RunnerPlan {
  int class_index = -1;
  int init_function = -1;     // -1 when the class has no __init__
  int execute_function = -1;  // execute_model
  uint32_t class_line = 0;
  uint32_t init_line = 0;
  int init_body_first_stmt = -1;  // the first statement after the docstring
  uint32_t init_body_first_line = 0;
  std::string init_indent;
  uint32_t execute_line = 0;
  int execute_body_first_stmt = -1;
  int execute_body_last_stmt = -1;
  uint32_t execute_body_first_line = 0;
  uint32_t execute_body_last_line = 0;
  std::string execute_indent;
  std::vector<int> return_stmts;  // every return of execute_model (nested defs excluded)
  std::vector<uint32_t> return_lines;
  std::string model;                    // "self.model"
  std::vector<uint32_t> forward_lines;  // model calls in execute_model
};

std::optional<RunnerPlan> plan_runner(const SourceText& source, const FileFacts& facts);

}  // namespace msprobe::analysis
