// Path questions over the statement tree (see exit_paths.h).
#include "exit_paths.h"

#include "python_edits.h"

namespace msprobe::analysis {
namespace {

bool within(uint32_t offset, ByteRange r) { return offset >= r.start && offset < r.end; }

enum class Climb { Through, Finally, Stop };

// How control gets from the owner of statement `i`'s block into that block.
Climb climb_kind(const FileFacts& f, int i) {
  const Statement& st = stmt(f, i);
  if (st.parent_block_owner < 0) return Climb::Stop;
  std::string_view owner = stmt(f, st.parent_block_owner).type;
  std::string_view clause = st.block_clause;
  if (owner == "with_statement") return Climb::Through;
  if (owner == "try_statement") {
    if (clause == "finally_clause") return Climb::Finally;
    if (clause == "try_statement" || clause == "else_clause") return Climb::Through;
  }
  return Climb::Stop;
}

}  // namespace

bool runs_before_exit(const FileFacts& f, int x, int exit) {
  const Statement& e = stmt(f, exit);
  for (int cur = x;;) {
    const Statement& st = stmt(f, cur);
    if (within(e.range.start, st.block) && e.range.start >= st.range.end) return true;
    Climb k = climb_kind(f, cur);
    if (k == Climb::Stop) return false;
    // A finally block runs on every exit from inside its try statement.
    if (k == Climb::Finally && within(e.range.start, stmt(f, st.parent_block_owner).range)) return true;
    cur = st.parent_block_owner;
  }
}

bool runs_at_block_end(const FileFacts& f, int x, ByteRange block) {
  for (int cur = x;;) {
    const Statement& st = stmt(f, cur);
    if (st.block == block) return true;
    if (climb_kind(f, cur) == Climb::Stop) return false;
    cur = st.parent_block_owner;
  }
}

bool unconditional_in(const FileFacts& f, int x, ByteRange block) { return runs_at_block_end(f, x, block); }

bool runs_after(const FileFacts& f, int a, int x) {
  // Climb from `a` through the blocks that end when it completes.
  for (int cur_a = a;;) {
    const Statement& sa = stmt(f, cur_a);
    for (int cur = x;;) {
      const Statement& st = stmt(f, cur);
      if (st.block == sa.block && st.range.start >= sa.range.end) return true;
      if (climb_kind(f, cur) == Climb::Stop) break;
      cur = st.parent_block_owner;
    }
    if (climb_kind(f, cur_a) == Climb::Stop) return false;
    cur_a = sa.parent_block_owner;
  }
}

std::vector<int> iteration_exits(const FileFacts& f, int loop) {
  std::vector<int> out;
  const Loop& l = f.loops[static_cast<std::size_t>(loop)];
  auto [first, last] = statements_within(f, l.body);
  for (std::size_t i = first; i < last; ++i) {
    const Statement& st = f.statements[i];
    if (!st.is_exit || st.range.start < l.body.start || st.range.end > l.body.end) continue;
    if (st.type == "return_statement") {
      if (st.function == l.function) out.push_back(static_cast<int>(i));
    } else if ((st.type == "continue_statement" || st.type == "break_statement") && st.loop == loop) {
      out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

std::vector<int> function_returns(const FileFacts& f, int fn) {
  std::vector<int> out;
  auto [first, last] = statements_within(f, f.functions[static_cast<std::size_t>(fn)].body);
  for (std::size_t i = first; i < last; ++i) {
    const Statement& st = f.statements[i];
    if (st.type == "return_statement" && st.function == fn) out.push_back(static_cast<int>(i));
  }
  return out;
}

bool block_ends_in_exit(const FileFacts& f, ByteRange block) {
  std::vector<int> stmts = statements_in_block(f, block);
  if (stmts.empty()) return false;
  return stmt(f, stmts.back()).is_exit;
}

}  // namespace msprobe::analysis
