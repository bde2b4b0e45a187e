// The msProbe dump points of a file as the placement rules see them: the
// statements that build a PrecisionDebugger, the statements that act as
// stop()/step() (directly or through a helper of the file), whether every exit
// of an iteration passes them, and the fixes that move or insert them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/source.h"
#include "python_edits.h"

namespace msprobe::analysis {

// A `PrecisionDebugger(...)` construction.
struct ConstructSite {
  int use = -1;        // index into FileFacts::msprobe
  int call = -1;       // index into FileFacts::calls
  int stmt = -1;       // the enclosing simple statement
  std::string target;  // "debugger", "self.debugger"; empty when not assigned
  // The statement is exactly `target = PrecisionDebugger(...)` or the bare
  // call, alone on its lines: it can be moved as a whole.
  bool movable = false;
};
std::vector<ConstructSite> construct_sites(const SourceText& src, const FileFacts& f);

// True for msProbe's PyTorch API; a use whose framework the call does not
// show (debugger.start()) follows the file's msprobe imports.
bool is_pytorch_use(const FileFacts& f, const MsprobeUse& u);

// Statements that run a stop() (forward_backward_dump_end() counts) or a
// step(): the calls themselves and the calls of this file's functions that make one.
struct DumpCallSites {
  std::vector<int> stop, step;
};
// With a project, calls into other modules that make a stop()/step() count too.
DumpCallSites dump_call_sites(const FileFacts& f, const ProjectView* project = nullptr);

// Where a start() needs its stop()/step(): one iteration of its innermost
// loop, else the rest of its function, else the rest of the module.
struct StartScope {
  int loop = -1;
  int function = -1;
  ByteRange block;     // the loop body, function body or module
  int loop_stmt = -1;  // statement index of the loop
};
StartScope start_scope(const FileFacts& f, const Call& start);

// Which of stop()/step() each way out of a start()'s scope misses.
struct Missing {
  bool stop = false, step = false;
  bool any() const { return stop || step; }
};
struct ExitGap {
  int exit = -1;  // statement index of the continue/break/return
  Missing missing;
};
struct StartBalance {
  StartScope scope;
  bool conditional_start = false;  // start() itself sits under an if/loop in its scope
  // Only "does any stop()/step() follow" was asked: the start is conditional,
  // or at module level, where the calls often sit in a later loop.
  bool weak = false;
  std::vector<ExitGap> exits;  // only the exits that miss something
  Missing at_end;              // falling off the end of the scope
  bool end_reachable = true;
  bool any() const { return !exits.empty() || at_end.any(); }
};
StartBalance balance_of_start(const FileFacts& f, const DumpCallSites& sites, const Call& start);

// "debugger.stop()" / "debugger.step()" lines for the missing calls.
std::vector<std::string> missing_call_texts(const std::string& receiver, Missing m);

// Edits that insert the missing calls of a balance (before each gap exit,
// after the last statement of the scope). nullopt when a place has no line
// of its own to take them.
std::optional<std::vector<Edit>> insert_missing_calls(const SourceText& src, const FileFacts& f, const StartBalance& b,
                                                      const std::string& receiver);

// Moves whole statements (in order) to new lines at `to`, re-indented with
// its indent, after `prefix_lines`. Statements that leave their block empty
// leave `pass`. nullopt when a statement shares its lines with other code.
std::optional<std::vector<Edit>> move_statements(const SourceText& src, const FileFacts& f,
                                                 const std::vector<int>& stmts, const InsertionPoint& to,
                                                 const std::string& prefix_lines = {});

// Where module-level setup goes: after the imports (and a seed_all() right
// after them), else before the first statement.
InsertionPoint module_setup_point(const FileFacts& f);

// True when every name the arguments of call `call` read is bound by a module-level
// import placed before the setup anchor, so the statement can run there.
bool runs_at_module_setup(const FileFacts& f, int call);

// Import lines the moved calls need at module level: their callee is only
// imported inside a function.
std::string missing_module_imports(const SourceText& src, const FileFacts& f, const std::vector<int>& calls);

// Edits that move `stmts` (a construction, with the seed_all() before it) to
// module level after the imports, adding the imports they need there.
// nullopt when a call's arguments cannot be evaluated there, or a statement
// shares its lines.
std::optional<std::vector<Edit>> move_to_module_setup(const SourceText& src, const FileFacts& f,
                                                      const std::vector<int>& stmts, const std::vector<int>& calls);

// True for a simple name ("debugger"), not an attribute or a tuple.
bool is_plain_name(const std::string& s);

// One edit that rewrites the lines of `stmts` (consecutive statements of one
// block) as `head_lines`, then `try:` with the statements one level deeper
// (leaving out `drop`), then `finally:` with `receiver`.stop() and .step().
// nullopt when the lines hold a multi-line string (re-indenting would change
// it) or a statement shares its lines.
std::optional<Edit> wrap_in_try_finally(const SourceText& src, const FileFacts& f, const std::vector<int>& stmts,
                                        const std::vector<int>& drop, const std::string& receiver,
                                        const std::string& head_lines);

// True for `execute_model` of a vLLM-style `...ModelRunner` class (MSP501/MSP502's).
bool is_runner_execute_model(const FileFacts& f, int function);

// "stop()", "step()" or "stop() and step()".
std::string describe(Missing m);

}  // namespace msprobe::analysis
