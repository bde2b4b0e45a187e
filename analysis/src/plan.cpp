// Insertion planning over FileFacts.
#include "msprobe/analysis/plan.h"

#include <algorithm>

namespace msprobe::analysis {
namespace {

bool is_import_stmt(const std::string& type) {
  return type == "import_statement" || type == "import_from_statement" || type == "future_import_statement";
}

// Top-level statement index that holds statement `i` (itself when top level).
int top_level_of(const FileFacts& f, int i) {
  while (i >= 0 && f.statements[static_cast<std::size_t>(i)].parent_block_owner != -1)
    i = f.statements[static_cast<std::size_t>(i)].parent_block_owner;
  return i;
}

// The last statement of the module's import block: the last top-level import,
// or the try/if block holding one; before the first top-level statement that
// is neither (so a late `import` inside main code does not drag the block down).
int import_anchor(const FileFacts& f) {
  int anchor = -1;
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    const Statement& st = f.statements[i];
    if (!is_import_stmt(st.type) || st.function != -1) continue;
    int top = top_level_of(f, static_cast<int>(i));
    const Statement& t = f.statements[static_cast<std::size_t>(top)];
    if (t.type == "try_statement" || t.type == "if_statement" || is_import_stmt(t.type)) {
      if (top == f.main_guard) continue;
      anchor = std::max(anchor, top);
    }
  }
  if (anchor == -1 && f.has_docstring) {
    for (std::size_t i = 0; i < f.statements.size(); ++i) {
      if (f.statements[i].range == f.module_docstring) return static_cast<int>(i);
    }
  }
  return anchor;
}

// Innermost loop of statement `i` is `loop`, or `i` is a return inside it.
bool exits_iteration(const FileFacts& f, const Statement& st, int loop) {
  if (!st.is_exit) return false;
  if (st.type == "raise_statement") return false;  // an exception ends the run, not the step
  if (st.type == "return_statement") {
    for (int l = st.loop; l >= 0; l = f.loops[static_cast<std::size_t>(l)].parent)
      if (l == loop) return true;
    return false;
  }
  return st.loop == loop;
}

}  // namespace

std::optional<DumpPlan> plan_for_loop(const SourceText& source, const FileFacts& f, int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= f.loop_info.size()) return std::nullopt;
  const LoopInfo& info = f.loop_info[static_cast<std::size_t>(index)];
  const Loop& loop = f.loops[static_cast<std::size_t>(info.loop)];
  DumpPlan p;
  p.loop = info.loop;
  p.loop_info = index;
  p.role = info.role;
  p.model = info.model;
  p.import_after_stmt = import_anchor(f);
  if (p.import_after_stmt >= 0) p.import_after_line = f.statements[static_cast<std::size_t>(p.import_after_stmt)].end_line;
  p.first_body_stmt = static_cast<int>(loop.body_first_stmt);
  p.last_body_stmt = static_cast<int>(loop.body_last_stmt);
  if (f.statements.empty() || p.first_body_stmt < 0) return std::nullopt;
  p.start_before_line = f.statements[static_cast<std::size_t>(p.first_body_stmt)].line;
  p.stop_step_after_line = f.statements[static_cast<std::size_t>(p.last_body_stmt)].end_line;
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    const Statement& st = f.statements[i];
    if (st.range.start < loop.body.start || st.range.end > loop.body.end) continue;
    if (exits_iteration(f, st, info.loop)) p.early_exits.push_back(static_cast<int>(i));
  }
  (void)source;
  return p;
}

std::optional<DumpPlan> plan_dump(const SourceText& source, const FileFacts& f, std::optional<uint32_t> loop_line) {
  if (loop_line) {
    for (std::size_t i = 0; i < f.loop_info.size(); ++i) {
      if (f.loops[static_cast<std::size_t>(f.loop_info[i].loop)].line == *loop_line)
        return plan_for_loop(source, f, static_cast<int>(i));
    }
    return std::nullopt;
  }
  for (LoopRole want : {LoopRole::Train, LoopRole::Inference}) {
    for (std::size_t i = 0; i < f.loop_info.size(); ++i) {
      if (f.loop_info[i].role == want) return plan_for_loop(source, f, static_cast<int>(i));
    }
  }
  return std::nullopt;
}

}  // namespace msprobe::analysis
