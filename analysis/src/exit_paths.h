// Structured control flow over FileFacts statements, enough to ask "does this
// statement run on every path that leaves the iteration here?". Blocks are
// entered unconditionally through `with`, a `try` body or its `else`, and a
// `finally` runs on every exit from its `try`; `if`, loops, `except` and
// `match` make what they hold conditional. Exceptions are not paths.
#pragma once

#include <vector>

#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {

// True when statement `x` runs before control leaves through exit statement
// `exit` (return/break/continue) on every path that reaches both.
bool runs_before_exit(const FileFacts& f, int x, int exit);

// True when `x` runs on every path that reaches the end of `block` after it.
bool runs_at_block_end(const FileFacts& f, int x, ByteRange block);

// True when `x` runs whenever statement `a` completes normally (x follows a
// in a's block or an enclosing one, unconditionally).
bool runs_after(const FileFacts& f, int a, int x);

// True when `x` sits in `block` with nothing conditional between them.
bool unconditional_in(const FileFacts& f, int x, ByteRange block);

// Exit statements that leave one iteration of `loop`: its own continue and
// break, and every return inside it (same function).
std::vector<int> iteration_exits(const FileFacts& f, int loop);

// Return statements of function `fn` (not of nested functions).
std::vector<int> function_returns(const FileFacts& f, int fn);

// True when the last statement of `block` is an exit, so its end is never
// reached by falling through.
bool block_ends_in_exit(const FileFacts& f, ByteRange block);

}  // namespace msprobe::analysis
