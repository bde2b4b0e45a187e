// The dump-point edits: insert msProbe's PrecisionDebugger dump into a script
// (msprobe-facts §2.5, §5.2), comment it out and back in, and remove it again.
// Results are byte edits in labelled groups, so the server can show them as
// annotated changes and the CLI can write or diff them; nothing here knows LSP.
#pragma once

#include <functional>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis {

// Edits that belong together in a preview ("msProbe: import and debugger").
struct EditGroup {
  std::string label;
  // True when the group deletes or replaces the user's own code; a pure
  // insertion never needs confirmation.
  bool needs_confirmation = false;
  std::vector<Edit> edits;
};

struct InstrumentResult {
  std::vector<EditGroup> groups;   // empty with no error: nothing to change
  std::vector<std::string> notes;  // things the user must know (e.g. --enforce-eager)
  std::string error;               // non-empty: refused, and why
  std::string summary;             // one line on what the edits do

  bool ok() const { return error.empty(); }
  bool empty() const;
  // Every edit of every group, sorted by position (stable for equal starts).
  std::vector<Edit> all_edits() const;
};

struct InstrumentOptions {
  std::string config_path = "./config.json";  // written into PrecisionDebugger(config_path=...)
  std::optional<uint32_t> loop_line;          // 0-based header line of the loop to instrument

  // Where a new PrecisionDebugger(...) goes (msprobe-facts §2.1: in the
  // process that runs the loop, as early as possible).
  enum class Construct {
    AfterImports,  // at module level, after the import block (a script run as is)
    InFunction,    // at the top of `construct_function` (a worker started in new processes)
    Elsewhere,     // in another file (the entry of the process): the loop's file calls the
                   // singleton's classmethods, PrecisionDebugger.start()/stop()/step()
  };
  Construct construct = Construct::AfterImports;
  int construct_function = -1;  // InFunction: index into FileFacts::functions
  // AfterImports: before this 0-based line instead (the first project import,
  // when a module it loads binds torch functions by name).
  std::optional<uint32_t> construct_before_line;
};

// The file's own lines that comment the dump out (`disable_dump`) start with
// this after their indentation; `reenable_dump` strips exactly these.
inline constexpr std::string_view kDisabledPrefix = "# msprobe-disabled: ";
// Stands in for a block that disabling left without statements.
inline constexpr std::string_view kDisabledPlaceholder = "pass  # msprobe-disabled";

// A loop the dump can be enabled in.
struct DumpTarget {
  int loop_info = -1;  // index into FileFacts::loop_info
  uint32_t line = 0;   // 0-based header line
  LoopRole role = LoopRole::None;
  ByteRange header;       // `for x in y:`
  ByteRange range;        // the whole loop
  bool complete = false;  // start, stop and step already on every path
};

// Loops with a role, in source order; empty when the file's scenario is not
// the PyTorch dump (MindSpore, graph mode, verl, a vLLM runner). `want`
// limits them to the loops it accepts (each target plans the whole dump, so a
// request about one place should not pay for every loop of a big file).
std::vector<DumpTarget> dump_targets(const SourceText& source, const Analysis& analysis,
                                     const std::function<bool(const Loop&)>& want = nullptr);

// The header line of the loop enable_dump picks without a loop_line: the
// first train loop, else the first inference loop, else an eval or warm-up one.
std::optional<uint32_t> default_dump_loop(const SourceText& source, const Analysis& analysis);

// First and last line of each active dump statement (import, seed_all,
// construction, calls on the debugger), in source order.
std::vector<std::pair<uint32_t, uint32_t>> dump_statement_lines(const SourceText& source, const Analysis& analysis);

// Why the PyTorch loop dump does not apply to this file, or "" when it does.
std::string scenario_refusal(const FileFacts& facts);

// A community-vLLM `GPUModelRunner` with `__init__` and `execute_model`.
struct RunnerTarget {
  int class_index = -1;
  int init_function = -1;
  int execute_function = -1;
  uint32_t line = 0;  // the class line
  bool complete = false;
};
std::optional<RunnerTarget> vllm_runner_target(const SourceText& source, const Analysis& analysis);

// Inserts the dump points for one loop: the import, seed_all() and the
// construction after the imports (after `LLM(...)` for offline vLLM),
// start(model) first in the body, stop()/step() last and on every other exit
// of the iteration (or a try/finally, whichever is the smaller correct edit).
// Idempotent: only what is missing is added.
InstrumentResult enable_dump(const SourceText& source, const Analysis& analysis, const InstrumentOptions& options);

// The entry side of a multi-file dump: the import, seed_all() and the
// construction, after the import block (Construct::AfterImports) or at the top
// of `construct_function` (Construct::InFunction), without any loop edit.
// Nothing is added that the file already has.
InstrumentResult enable_construction(const SourceText& source, const Analysis& analysis,
                                     const InstrumentOptions& options);

// Community vLLM: construct in __init__, start(model=self.model) at the entry
// of execute_model, stop()/step() in a finally.
InstrumentResult instrument_vllm_runner(const SourceText& source, const Analysis& analysis,
                                        const InstrumentOptions& options);

// What "enable" means for this file: uncomment a disabled dump, instrument a
// vLLM runner, or instrument a loop.
InstrumentResult enable(const SourceText& source, const Analysis& analysis, const InstrumentOptions& options);

// Comments out every msProbe dump line (kDisabledPrefix).
InstrumentResult disable_dump(const SourceText& source, const Analysis& analysis);
// Uncomments exactly the lines disable_dump commented out.
InstrumentResult reenable_dump(const SourceText& source, const Analysis& analysis);
bool has_disabled_dump(const SourceText& source, const Analysis& analysis);
// Deletes the dump code (active and disabled), unwrapping the try/finally the
// enable added. enable followed by remove gives the original bytes back.
InstrumentResult remove_dump(const SourceText& source, const Analysis& analysis);

// Applies non-overlapping edits (sorted stably by start). Throws
// std::invalid_argument on overlapping or out-of-range edits.
std::string apply_edits(std::string_view text, std::vector<Edit> edits);

// `--additional-config` for vllm-ascend, pointing at `abs_config_path`, quoted
// for a POSIX shell.
std::string vllm_ascend_flags(const std::string& abs_config_path);

}  // namespace msprobe::analysis
