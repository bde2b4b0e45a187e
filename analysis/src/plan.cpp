// Insertion planning over FileFacts: the import anchor, the loop body bounds,
// the exits of an iteration, and what the file already has.
#include "msprobe/analysis/plan.h"

#include <algorithm>
#include <functional>

#include "bindings.h"
#include "msprobe/analysis/text_match.h"
#include "python_edits.h"

namespace msprobe::analysis {
namespace {

bool is_import_stmt(std::string_view type) {
  return type == "import_statement" || type == "import_from_statement" || type == "future_import_statement";
}

// A module-level statement that sets up the environment for the imports
// around it: `sys.path.insert(...)`, `os.environ[...] = ...`,
// `warnings.filterwarnings(...)`, `__all__ = ...`.
bool setup_statement(const FileFacts& f, const Statement& st) {
  if (st.type != "expression_statement") return false;
  auto call = std::lower_bound(f.calls.begin(), f.calls.end(), st.range.start,
                               [](const Call& c, uint32_t pos) { return c.range.start < pos; });
  if (call != f.calls.end() && call->range.start == st.range.start) {
    const std::string& q = call->qualified.empty() ? call->callee : call->qualified;
    for (std::string_view p :
         {"sys.", "os.environ", "os.putenv", "warnings.", "logging.basicConfig", "site.", "matplotlib.use"}) {
      if (starts_with(q, p)) return true;
    }
  }
  auto a = std::lower_bound(f.assignments.begin(), f.assignments.end(), st.range.start,
                            [](const Assignment& x, uint32_t pos) { return x.range.start < pos; });
  if (a != f.assignments.end() && a->range.start == st.range.start) {
    const std::string& t = a->target;
    if (starts_with(t, "os.environ") || starts_with(t, "sys.") ||
        (starts_with(t, "__") && ends_with(t, "__") && t.size() > 4))
      return true;
  }
  return false;
}

// The last statement of the module's import header: the run of top-level
// statements from the top of the file made of the docstring, imports, blocks
// that import (`try: import x / except ImportError:`, `if TYPE_CHECKING:`)
// and the set-up between them (setup_statement). The header ends at the first
// other statement: an import further down (`if wandb_log: import wandb` two
// hundred lines in) is not part of it, and the debugger built after the
// header runs as early as the workflow asks. The anchor is the header's last
// import (set-up after it stays after the construction). Without imports, the docstring.
int import_anchor(const FileFacts& f) {
  // Top-level statements that hold an import.
  std::vector<int> importing;
  for (const Import& imp : f.imports) {
    if (!imp.top_level) continue;
    auto it = std::lower_bound(f.statements.begin(), f.statements.end(), imp.range.start,
                               [](const Statement& s, uint32_t pos) { return s.range.start < pos; });
    if (it == f.statements.end() || !(it->range == imp.range) || !is_import_stmt(it->type)) continue;
    int top = top_level_statement(f, static_cast<int>(it - f.statements.begin()));
    if (top >= 0 && top != f.main_guard && stmt(f, top).function == -1) importing.push_back(top);
  }
  std::sort(importing.begin(), importing.end());
  int anchor = -1, docstring = -1;
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    const Statement& st = f.statements[i];
    if (st.parent_block_owner != -1) continue;
    int index = static_cast<int>(i);
    if (f.has_docstring && st.range == f.module_docstring) {
      docstring = index;
      continue;
    }
    bool imports = std::binary_search(importing.begin(), importing.end(), index);
    bool block = st.type == "try_statement" || st.type == "if_statement" || st.type == "with_statement";
    if (imports && (block || is_import_stmt(st.type))) {
      anchor = index;
      continue;
    }
    if (setup_statement(f, st)) continue;  // bridges imports; the header does not end here
    break;
  }
  return anchor >= 0 ? anchor : docstring;
}

// Start of the line after `line`, or the end of the text.
uint32_t after_line(const SourceText& src, uint32_t line) {
  if (line + 1 < src.line_count()) return static_cast<uint32_t>(src.line_start(line + 1));
  return static_cast<uint32_t>(src.size());
}

// Where code goes at the top of a file: after a shebang and an encoding line.
uint32_t top_offset(const SourceText& src) {
  uint32_t line = first_code_line(src);
  return line == 0 ? static_cast<uint32_t>(bom_length(src, 0)) : after_line(src, line - 1);
}

std::string indent_of(const SourceText& src, const Statement& st) {
  std::string_view t = src.line_text(st.line);
  std::size_t n = std::min<std::size_t>(st.indent, t.size());
  std::string_view lead = t.substr(0, n);
  // The statement shares its line with a header (`if x: continue`): use that line's indentation.
  std::size_t first = t.find_first_not_of(" \t");
  if (first != std::string_view::npos && first < n) lead = t.substr(0, first);
  return std::string(lead);
}

bool first_on_line(const SourceText& src, const Statement& st) {
  std::string_view t = src.line_text(st.line);
  return t.find_first_not_of(" \t") == st.indent;
}

const char* exit_kind(std::string_view type) {
  if (type == "continue_statement") return "continue";
  if (type == "break_statement") return "break";
  if (type == "return_statement") return "return";
  return "";
}

// `st` leaves an iteration of `loop` early: a continue/break whose innermost
// loop is `loop`, or a return anywhere in its body (not in a nested def).
bool exits_iteration(const FileFacts& f, const Statement& st, int loop) {
  if (!st.is_exit || st.type == "raise_statement") return false;  // an exception ends the run, not the step
  if (st.type == "return_statement") {
    for (int l = st.loop; l >= 0; l = f.loops[static_cast<std::size_t>(l)].parent)
      if (l == loop) return true;
    return false;
  }
  return st.loop == loop;
}

// Statements whose range starts inside `r`, as [first, end) indices.
std::pair<std::size_t, std::size_t> statements_in(const FileFacts& f, ByteRange r) {
  auto lo = std::lower_bound(f.statements.begin(), f.statements.end(), r.start,
                             [](const Statement& s, uint32_t pos) { return s.range.start < pos; });
  auto hi = std::lower_bound(lo, f.statements.end(), r.end,
                             [](const Statement& s, uint32_t pos) { return s.range.start < pos; });
  return {static_cast<std::size_t>(lo - f.statements.begin()), static_cast<std::size_t>(hi - f.statements.begin())};
}

bool scenario_supported(const FileFacts& f) {
  for (Scenario s : f.scenarios) {
    if (s == Scenario::MindSpore || s == Scenario::MSAdapter || s == Scenario::Torchair || s == Scenario::Aclgraph ||
        s == Scenario::Verl || s == Scenario::VllmRunner)
      return false;
  }
  return true;
}

// `if i >= max_steps: break`, `if step < resume_step: continue` first in a
// loop's body: an `if` that holds only exits and plain statements (a print,
// a counter) and none of the loop's forward/backward/step. start() goes after
// it: before it, every guarded iteration would be an empty msProbe step and
// the step numbers of a `step: [2]` config would shift.
bool leading_guard(const FileFacts& f, const LoopInfo& info, int i) {
  const Statement& g = stmt(f, i);
  if (g.type != "if_statement") return false;
  for (const std::vector<ByteRange>* sites : {&info.forward, &info.backward, &info.step}) {
    for (ByteRange r : *sites) {
      if (inside(r, g.range)) return false;
    }
  }
  bool exits = false;
  for (std::size_t k = static_cast<std::size_t>(i) + 1; k < f.statements.size(); ++k) {
    const Statement& st = f.statements[k];
    if (st.range.start >= g.range.end) break;
    if (st.is_exit) exits = true;
    else if (st.type != "expression_statement") return false;
  }
  return exits;
}

// The next statement of the same block after statement `i`, -1 past `last`.
int next_sibling(const FileFacts& f, int i, int last) {
  const Statement& st = stmt(f, i);
  for (int k = i + 1; k <= last; ++k) {
    if (stmt(f, k).range.start >= st.range.end && stmt(f, k).parent_block_owner == st.parent_block_owner) return k;
  }
  return -1;
}

}  // namespace

std::optional<uint32_t> import_block_end(const FileFacts& f) {
  int anchor = import_anchor(f);
  if (anchor < 0) return std::nullopt;
  return stmt(f, anchor).end_line;
}

std::optional<uint32_t> function_top_line(const SourceText& source, const FileFacts& f, int fn) {
  if (fn < 0 || static_cast<std::size_t>(fn) >= f.functions.size()) return std::nullopt;
  const Function& d = f.functions[static_cast<std::size_t>(fn)];
  auto [lo, hi] = statements_in(f, d.body);
  for (std::size_t i = lo; i < hi; ++i) {
    const Statement& st = f.statements[i];
    if (st.parent_block_owner != d.statement) continue;
    if (st.line == d.line) return std::nullopt;  // `def f(): body` on one line
    std::string_view t = source.view().substr(st.range.start, st.range.end - st.range.start);
    bool docstring = st.type == "expression_statement" && !t.empty() && (t[0] == '"' || t[0] == '\'');
    return docstring ? st.end_line : st.line - 1;
  }
  return std::nullopt;
}

std::string DumpPlan::start_argument() const {
  if (start_models.size() < 2) return model;
  std::string out = "[";
  for (const std::string& m : start_models) out += (out.size() > 1 ? ", " : "") + m;
  return out + "]";
}

std::optional<DumpPlan> plan_for_loop(const SourceText& source, const FileFacts& f, int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= f.loop_info.size()) return std::nullopt;
  const LoopInfo& info = f.loop_info[static_cast<std::size_t>(index)];
  if (info.loop < 0 || static_cast<std::size_t>(info.loop) >= f.loops.size()) return std::nullopt;
  const Loop& loop = f.loops[static_cast<std::size_t>(info.loop)];
  if (f.statements.empty()) return std::nullopt;
  int first_stmt = static_cast<int>(loop.body_first_stmt), last_stmt = static_cast<int>(loop.body_last_stmt);
  if (first_stmt < 0 || static_cast<std::size_t>(last_stmt) >= f.statements.size() ||
      !inside(stmt(f, first_stmt).range, loop.body) || !inside(stmt(f, last_stmt).range, loop.body))
    return std::nullopt;  // a body with no statement (broken code)

  DumpPlan p;
  p.loop = info.loop;
  p.loop_info = index;
  p.role = info.role;
  p.model = info.model_is_module ? info.model : std::string();  // start(model=llm) would be rejected
  p.models = info.models;
  if (info.model_is_module && info.trained.size() >= 2) p.start_models = info.trained;
  p.scenario_supported = scenario_supported(f);

  p.import_after_stmt = import_anchor(f);
  if (p.import_after_stmt >= 0) {
    p.import_after_line = stmt(f, p.import_after_stmt).end_line;
    p.import_offset = after_line(source, p.import_after_line);
  } else {
    p.import_offset = top_offset(source);
  }

  // Leading guards stay outside the dumped part of the iteration.
  ByteRange guarded{loop.body.start, loop.body.start};
  for (int g = first_stmt; g != last_stmt && leading_guard(f, info, g);) {
    int next = next_sibling(f, g, last_stmt);
    if (next < 0) break;
    guarded.end = stmt(f, g).range.end;
    first_stmt = next;
    g = next;
  }
  p.first_body_stmt = first_stmt;
  p.last_body_stmt = last_stmt;
  const Statement& first = stmt(f, first_stmt);
  p.start_before_line = first.line;
  p.stop_step_after_line = stmt(f, last_stmt).end_line;
  p.body_on_header_line = first.line == loop.line;
  if (p.body_on_header_line) {
    std::string_view header = source.line_text(loop.line);
    p.body_indent = std::string(header.substr(0, header.find_first_not_of(" \t"))) + "    ";
    p.start_offset = first.range.start;
  } else {
    p.body_indent = indent_of(source, first);
    p.start_offset = static_cast<uint32_t>(source.line_start(first.line));
  }
  p.stop_step_offset = after_line(source, p.stop_step_after_line);

  auto [lo, hi] = statements_in(f, loop.body);
  for (std::size_t i = lo; i < hi; ++i) {
    const Statement& st = f.statements[i];
    if (!inside(st.range, loop.body) || !exits_iteration(f, st, info.loop)) continue;
    if (st.range.start < guarded.end) continue;  // before start(): nothing to stop
    // A `return` that ends the body is listed too: stop()/step() appended after it would never run.
    p.early_exits.push_back(static_cast<int>(i));
    EarlyExit e;
    e.stmt = static_cast<int>(i);
    e.line = st.line;
    e.kind = exit_kind(st.type);
    e.indent = indent_of(source, st);
    e.offset = static_cast<uint32_t>(source.line_start(st.line));
    e.shares_line = !first_on_line(source, st);
    p.exits.push_back(std::move(e));
  }

  // Offline vLLM: after the LLM(...) statement.
  for (const Call& c : f.calls) {
    if (c.qualified != "vllm.LLM" || c.statement < 0) continue;
    int s = c.statement;
    p.construct_after_stmt = s;
    p.construct_after_line = stmt(f, s).end_line;
    p.construct_indent = indent_of(source, stmt(f, s));
    p.construct_offset = after_line(source, p.construct_after_line);
    break;
  }

  for (std::size_t i = 0; i < f.msprobe.size(); ++i) {
    const MsprobeUse& u = f.msprobe[i];
    bool in_loop = inside(u.range, loop.body);
    switch (u.kind) {
      case MsprobeKind::Import: p.has_import = true; break;
      case MsprobeKind::SeedAll: p.has_seed_all = true; break;
      case MsprobeKind::Construct:
        p.has_construct = true;
        if (p.debugger_name.empty()) p.debugger_name = u.bound_to;
        break;
      case MsprobeKind::Start: p.has_start = p.has_start || in_loop; break;
      case MsprobeKind::Stop:
      case MsprobeKind::ForwardBackwardDumpEnd: p.has_stop = p.has_stop || in_loop; break;
      case MsprobeKind::Step: p.has_step = p.has_step || in_loop; break;
      case MsprobeKind::Other: break;
    }
    bool relevant = u.kind == MsprobeKind::Import || u.kind == MsprobeKind::SeedAll ||
                    u.kind == MsprobeKind::Construct || (in_loop && u.kind != MsprobeKind::Other);
    if (relevant) p.existing.push_back(static_cast<int>(i));
  }
  if (p.debugger_name.empty()) {
    for (const MsprobeUse& u : f.msprobe) {
      if (!u.receiver.empty()) {
        p.debugger_name = u.receiver;
        break;
      }
    }
  }
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

std::optional<RunnerPlan> plan_runner(const SourceText& source, const FileFacts& f) {
  if (std::find(f.scenarios.begin(), f.scenarios.end(), Scenario::VllmRunner) == f.scenarios.end()) return std::nullopt;
  RunnerPlan r;
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    const Function& fn = f.functions[i];
    if (fn.name == "execute_model" && fn.class_index >= 0) {
      r.execute_function = static_cast<int>(i);
      r.class_index = fn.class_index;
      break;
    }
  }
  if (r.execute_function < 0) return std::nullopt;
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    if (f.functions[i].name == "__init__" && f.functions[i].class_index == r.class_index)
      r.init_function = static_cast<int>(i);
  }
  r.class_line = f.classes[static_cast<std::size_t>(r.class_index)].line;

  // First (after a docstring) and last statement of a def's body.
  auto body = [&](int fn, int& first, int& last) {
    const Function& d = f.functions[static_cast<std::size_t>(fn)];
    auto [lo, hi] = statements_in(f, d.body);
    first = last = -1;
    for (std::size_t i = lo; i < hi; ++i) {
      if (f.statements[i].parent_block_owner != d.statement) continue;
      if (first == -1) {
        const Statement& st = f.statements[i];
        bool docstring = st.type == "expression_statement" && !source.text().empty() &&
                         (source.view()[st.range.start] == '"' || source.view()[st.range.start] == '\'');
        if (docstring) continue;
        first = static_cast<int>(i);
      }
      last = static_cast<int>(i);
    }
  };
  const Function& exec = f.functions[static_cast<std::size_t>(r.execute_function)];
  r.execute_line = exec.line;
  body(r.execute_function, r.execute_body_first_stmt, r.execute_body_last_stmt);
  if (r.execute_body_first_stmt >= 0) {
    r.execute_body_first_line = stmt(f, r.execute_body_first_stmt).line;
    r.execute_body_last_line = stmt(f, r.execute_body_last_stmt).end_line;
    r.execute_indent = indent_of(source, stmt(f, r.execute_body_first_stmt));
  }
  if (r.init_function >= 0) {
    const Function& init = f.functions[static_cast<std::size_t>(r.init_function)];
    r.init_line = init.line;
    int last = -1;
    body(r.init_function, r.init_body_first_stmt, last);
    if (r.init_body_first_stmt >= 0) {
      r.init_body_first_line = stmt(f, r.init_body_first_stmt).line;
      r.init_indent = indent_of(source, stmt(f, r.init_body_first_stmt));
    }
  }
  auto [lo, hi] = statements_in(f, exec.body);
  for (std::size_t i = lo; i < hi; ++i) {
    const Statement& st = f.statements[i];
    if (st.type == "return_statement" && st.function == r.execute_function) {
      r.return_stmts.push_back(static_cast<int>(i));
      r.return_lines.push_back(st.line);
    }
  }
  // The model calls of execute_model, made there or in the runner's own
  // methods it calls (vLLM V1 reaches the model through `_model_forward`);
  // a call through a method is recorded at execute_model's call site.
  Bindings names(f);
  std::vector<std::vector<int>> calls_of(f.functions.size());
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    int fn = f.calls[i].function;
    if (fn >= 0) calls_of[static_cast<std::size_t>(fn)].push_back(static_cast<int>(i));
  }
  // The model call `ci` makes: itself, or a call of it made by the runner's
  // own method it calls, through at most `depth` methods.
  std::function<std::string(int, int)> model_of = [&](int ci, int depth) -> std::string {
    const Call& c = f.calls[static_cast<std::size_t>(ci)];
    int callee = names.resolve_function(c);
    if (callee < 0) return names.is_model(c.callee) ? c.callee : std::string();
    if (depth == 0 || callee == r.execute_function ||
        f.functions[static_cast<std::size_t>(callee)].class_index != r.class_index)
      return {};
    for (int inner : calls_of[static_cast<std::size_t>(callee)]) {
      if (std::string m = model_of(inner, depth - 1); !m.empty()) return m;
    }
    return {};
  };
  for (int ci : calls_of[static_cast<std::size_t>(r.execute_function)]) {
    const Call& c = f.calls[static_cast<std::size_t>(ci)];
    std::string m = model_of(ci, 3);
    if (m.empty()) continue;
    if (r.model.empty()) r.model = m;
    if (m == r.model && (r.forward_lines.empty() || r.forward_lines.back() != c.line))
      r.forward_lines.push_back(c.line);
  }
  return r;
}

}  // namespace msprobe::analysis
