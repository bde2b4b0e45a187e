// Enabling the dump in a loop: the canonical insertion of msprobe-facts §2.5,
// adding only what a partly instrumented file lacks.
#include <algorithm>
#include <regex>

#include "block_edits.h"
#include "call_graph.h"
#include "context.h"
#include "msprobe/analysis/instrument.h"
#include "msprobe/analysis/plan.h"
#include "msprobe/analysis/text_match.h"
#include "python_edits.h"

namespace msprobe::analysis {
using namespace instrument;

namespace {

bool is_exit_type(TSNode n) {
  return node_is(n, "continue_statement") || node_is(n, "break_statement") || node_is(n, "return_statement") ||
         node_is(n, "raise_statement");
}

// The local name bound to msprobe's `name` (PrecisionDebugger, seed_all), or "".
std::string bound_name(const FileFacts& f, const std::string& name) {
  for (const auto& [bound, target] : f.aliases) {
    if (starts_with(target, "msprobe.") && target.size() > name.size() &&
        target.compare(target.size() - name.size() - 1, name.size() + 1, "." + name) == 0)
      return bound;
  }
  return "";
}

// A literal argument can move to module level without a NameError.
bool is_literal(const std::string& text) {
  static const std::regex kLiteral(
      R"(^([rRuU]?("[^"\\\n]*"|'[^'\\\n]*')|-?[0-9][0-9_.eE+-]*|True|False|None|\[\]|\(\))$)");
  return std::regex_match(text, kLiteral);
}

}  // namespace

std::string instrument::python_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

std::string scenario_refusal(const FileFacts& f) {
  auto has = [&](Scenario s) { return std::find(f.scenarios.begin(), f.scenarios.end(), s) != f.scenarios.end(); };
  for (Scenario s :
       {Scenario::MSAdapter, Scenario::MindSpore, Scenario::Torchair, Scenario::Aclgraph, Scenario::Verl}) {
    if (!has(s)) continue;
    switch (s) {
      case Scenario::MindSpore:
        return "this is a MindSpore script: the PyTorch dump does not apply; use msprobe.mindspore's "
               "PrecisionDebugger (same config.json format)";
      case Scenario::MSAdapter:
        return "this is an MSAdapter script (PyTorch code on MindSpore): use `from msprobe.mindspore import "
               "PrecisionDebugger`, imported after torch";
      case Scenario::Torchair:
        return "torchair graph mode is not dumped by the eager PrecisionDebugger: use set_ge_dump_config / "
               "set_fx_dump_config from msprobe.pytorch";
      case Scenario::Aclgraph:
        return "ACLGraph capture is not dumped by the eager PrecisionDebugger: use AclGraphDumper(config_path), "
               "start(model) before the capture and step() after each replay";
      case Scenario::Verl:
        return "verl has the dump built in: set global_profiler.tool=precision_debugger and "
               "global_profiler.global_tool_config.precision_debugger.config_path; no code change is needed";
      default: break;
    }
  }
  return "";
}

std::string instrument::parse_refusal(const Analysis& a) {
  if (!a.tree) return "the file could not be parsed in time";
  if (!a.facts.syntax_errors.empty())
    return "the file has a syntax error at byte " + std::to_string(a.facts.syntax_errors.front().range.start) +
           "; fix it first";
  return "";
}

namespace {

int statement_index(const FileFacts& f, ByteRange r) {
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    if (f.statements[i].range == r) return static_cast<int>(i);
  }
  return -1;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

// Where the module-level block (import, seed_all, construction) goes: after
// the import anchor, but before the top-level statement holding the loop.
Edit module_block_edit(const EnableContext& c, const DumpPlan& plan, int loop_stmt,
                       const std::vector<std::string>& lines, std::optional<uint32_t> before_line = std::nullopt) {
  const FileFacts& f = c.f;
  if (before_line) return c.layout.lines_before(*before_line, "", lines);
  int top = top_level_statement(f, loop_stmt);
  const Statement* anchor = plan.import_after_stmt >= 0
                                ? &f.statements[static_cast<std::size_t>(plan.import_after_stmt)]
                                : nullptr;
  if (top >= 0) {
    const Statement& t = f.statements[static_cast<std::size_t>(top)];
    bool loop_runs_at_import = t.type != "function_definition" && t.type != "decorated_definition" &&
                               t.type != "class_definition";
    if (loop_runs_at_import && anchor && anchor->range.start >= t.range.start)
      return c.layout.lines_before(t.line, "", lines);
  }
  if (anchor) return c.layout.lines_after(anchor->end_line, "", lines);
  return c.layout.lines_at_top(lines);
}

// An existing single-line `from msprobe.pytorch import A, B` to extend.
// A one-line `from msprobe.pytorch import a, b` that more names can be appended to.
bool appendable_import(const EnableContext& c, const DumpStatement& d) {
  if (d.kind != MsprobeKind::Import || !d.owns_lines || d.first_line != d.last_line || d.imports.empty()) return false;
  const Import& imp = c.f.imports[static_cast<std::size_t>(d.imports.front())];
  if (imp.module != "msprobe.pytorch" || imp.name.empty()) return false;
  std::string_view text = c.src.view().substr(d.range.start, d.range.end - d.range.start);
  return text.find_first_of("(\\*") == std::string_view::npos;
}

const DumpStatement* extendable_import(const EnableContext& c) {
  for (const DumpStatement& d : c.dumps) {
    if (!appendable_import(c, d)) continue;
    const Import& imp = c.f.imports[static_cast<std::size_t>(d.imports.front())];
    if (imp.top_level && !imp.conditional) return &d;
  }
  return nullptr;
}

// The last appendable msprobe import in a def or behind a flag that runs
// before `target` in a block holding it (`if DO_MSPROBE: from msprobe.pytorch
// import PrecisionDebugger` above the construction): a name the construction's
// neighbours need goes there, not into the module header.
const DumpStatement* local_import_before(const EnableContext& c, ByteRange target) {
  const DumpStatement* found = nullptr;
  for (const DumpStatement& d : c.dumps) {
    if (d.range.end > target.start || d.statement < 0 || !appendable_import(c, d)) continue;
    const Import& imp = c.f.imports[static_cast<std::size_t>(d.imports.front())];
    const Statement& st = c.f.statements[static_cast<std::size_t>(d.statement)];
    if ((!imp.top_level || imp.conditional) && inside(target, st.block)) found = &d;
  }
  return found;
}

// The statement of an offline-vLLM `llm = LLM(...)`, after which the debugger
// must be built (MSP503).
const Statement* llm_assignment(const FileFacts& f) {
  for (const Assignment& a : f.assignments) {
    if (a.value_call < 0) continue;
    const Call& call = f.calls[static_cast<std::size_t>(a.value_call)];
    if (call.qualified != "vllm.LLM" || call.statement < 0) continue;
    return &f.statements[static_cast<std::size_t>(call.statement)];
  }
  return nullptr;
}

bool assigned_from_llm(const FileFacts& f, const std::string& name) {
  for (const Assignment& a : f.assignments) {
    if (a.target != name || a.value_call < 0) continue;
    if (f.calls[static_cast<std::size_t>(a.value_call)].qualified == "vllm.LLM") return true;
  }
  return false;
}

std::optional<DumpPlan> choose_plan(const SourceText& src, const FileFacts& f, std::optional<uint32_t> loop_line) {
  std::optional<DumpPlan> plan = plan_dump(src, f, loop_line);
  if (!plan && !loop_line) {
    // No train or inference loop: an evaluation or warm-up loop is the one that runs the model.
    for (LoopRole want : {LoopRole::Eval, LoopRole::Warmup}) {
      for (std::size_t i = 0; i < f.loop_info.size() && !plan; ++i) {
        if (f.loop_info[i].role == want) plan = plan_for_loop(src, f, static_cast<int>(i));
      }
    }
  }
  return plan;
}

// A name for a new debugger that the file does not use yet.
std::string fresh_debugger_name(const EnableContext& c) {
  std::string dbg;
  for (int i = 0;; ++i) {
    dbg = i == 0 ? "debugger" : i == 1 ? "msprobe_debugger" : "msprobe_debugger_" + std::to_string(i);
    if (!identifier_used(c.root, c.src.view(), dbg)) return dbg;
  }
}

// `lines` as the first statements of function `fn` (after its docstring).
std::optional<Edit> function_top_edit(const EnableContext& c, int fn, const std::vector<std::string>& lines) {
  std::optional<uint32_t> after = function_top_line(c.src, c.f, fn);
  if (!after) return std::nullopt;
  const Function& d = c.f.functions[static_cast<std::size_t>(fn)];
  for (const Statement& st : c.f.statements) {
    if (st.parent_block_owner != d.statement) continue;
    return c.layout.lines_after(*after, c.layout.indent_of(st.line), lines);
  }
  return std::nullopt;
}

struct Insertion {
  TSNode stmt;
  bool after = false;  // after the statement's last line, else before its first
  std::vector<std::string> calls;
};

// The condition of the `if` that builds the debugger behind a flag (`if
// DO_MSPROBE:` holding the import and the construction), when that `if` is in
// the construction's own def and does not hold the loop: "" otherwise.
std::string construction_guard(const EnableContext& c, const MsprobeUse* u, const Loop& loop) {
  const FileFacts& f = c.f;
  if (!u || u->call < 0) return {};
  for (int cur = f.calls[static_cast<std::size_t>(u->call)].statement; cur >= 0;) {
    const Statement& st = f.statements[static_cast<std::size_t>(cur)];
    int owner = st.parent_block_owner;
    if (owner < 0) break;
    const Statement& o = f.statements[static_cast<std::size_t>(owner)];
    if (o.type == "function_definition" || o.type == "class_definition" || inside(loop.range, o.range)) break;
    if (o.type == "if_statement" && st.block_clause == "if_statement") {
      TSNode n = find_node(c.root, o.range, "if_statement");
      TSNode cond = ts_node_is_null(n) ? TSNode{} : ts_node_child_by_field_name(n, "condition", 9);
      if (ts_node_is_null(cond) || ts_node_start_point(cond).row != ts_node_end_point(cond).row) return {};
      return std::string(node_text(c.src, cond));
    }
    cur = owner;
  }
  return {};
}

// The dump statements a body statement stands for: itself, or the statements
// of an `if FLAG:` (no elif/else) that holds nothing but start/stop/step.
std::vector<TSNode> dump_units(const EnableContext& c, TSNode s) {
  TSNode body = flag_if_body(s);
  if (ts_node_is_null(body)) return {s};
  std::vector<TSNode> inner = block_statements(body);
  bool only_dumps = !inner.empty() && std::all_of(inner.begin(), inner.end(), [&](TSNode t) {
    MsprobeKind k = c.kind_of(t);
    return k == MsprobeKind::Start || k == MsprobeKind::Stop || k == MsprobeKind::Step ||
           k == MsprobeKind::ForwardBackwardDumpEnd;
  });
  return only_dumps ? inner : std::vector<TSNode>{s};
}

// The statement itself, or an `if FLAG:` of dump calls, makes a call of kind `k`.
bool unit_has(const EnableContext& c, TSNode s, MsprobeKind k) {
  for (TSNode t : dump_units(c, s)) {
    if (c.is_kind(t, k)) return true;
  }
  return false;
}

}  // namespace

InstrumentResult enable_dump(const SourceText& src, const Analysis& a, const InstrumentOptions& opts) {
  InstrumentResult r;
  if (std::string why = parse_refusal(a); !why.empty()) return r.error = why, r;
  const FileFacts& f = a.facts;
  if (std::string why = scenario_refusal(f); !why.empty()) return r.error = why, r;
  std::optional<DumpPlan> plan = choose_plan(src, f, opts.loop_line);
  if (!plan) {
    r.error = opts.loop_line ? "no training or inference loop starts at line " + std::to_string(*opts.loop_line + 1)
                             : "no training or inference loop found";
    return r;
  }
  EnableContext c(src, a);
  const Loop& loop = f.loops[static_cast<std::size_t>(plan->loop)];
  const std::string loop_label = "line " + std::to_string(loop.line + 1);
  TSNode loop_node = find_node(c.root, loop.range, loop.kind == LoopKind::For ? "for_statement" : "while_statement");
  std::vector<TSNode> stmts = body_statements(loop_node);
  if (ts_node_is_null(loop_node) || stmts.empty()) return r.error = "the loop at " + loop_label + " has no body", r;
  if (!c.layout.starts_line(ts_node_start_byte(stmts.front())))
    return r.error = "the body of the loop at " + loop_label +
                     " is on its header line; put it on lines of its own first",
           r;
  int loop_stmt = statement_index(f, loop.range);

  // ----- what exists already -----
  const MsprobeUse* construct_outside = nullptr;
  const MsprobeUse* construct_inside = nullptr;
  bool has_seed = false, start_in_loop = false;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Construct) {
      if (inside(u.range, loop.body)) {
        if (!construct_inside) construct_inside = &u;
      } else if (!construct_outside) {
        construct_outside = &u;
      }
    }
    if (u.kind == MsprobeKind::SeedAll) has_seed = true;
    if (u.kind == MsprobeKind::Start && inside(u.range, loop.body)) start_in_loop = true;
  }
  if (construct_outside) construct_inside = nullptr;  // a second construction is MSP201's business, not ours

  std::string ctor = bound_name(f, "PrecisionDebugger");
  bool import_ctor = ctor.empty();
  if (ctor.empty()) ctor = "PrecisionDebugger";
  std::string seed = bound_name(f, "seed_all");
  bool seed_taken = seed.empty() && f.aliases.count("seed_all");  // the user's own seed_all
  bool import_seed = seed.empty() && !seed_taken && !has_seed;
  if (seed.empty()) seed = "seed_all";
  bool add_seed = !has_seed && !seed_taken;

  std::string dbg;
  bool new_construct = false;
  const DumpStatement* moved = nullptr;
  if (construct_outside) {
    const Call& call = f.calls[static_cast<std::size_t>(construct_outside->call)];
    int fn = call.statement >= 0 ? f.statements[static_cast<std::size_t>(call.statement)].function : call.function;
    bool visible = fn == -1 || fn == loop.function;
    const std::string& b = construct_outside->bound_to;
    bool simple = !b.empty() && (b.find('.') == std::string::npos || (starts_with(b, "self.") && fn == loop.function));
    dbg = visible && simple ? b : ctor;  // start/stop/step are classmethods
    if (dbg != ctor) import_ctor = false;
  } else if (construct_inside) {
    for (const DumpStatement& d : c.dumps) {
      if (d.kind == MsprobeKind::Construct && inside(construct_inside->range, d.range)) moved = &d;
    }
    if (!moved || !moved->owns_lines)
      return r.error = "the PrecisionDebugger construction inside the loop at " + loop_label +
                       " shares its line with other code; move it out of the loop first",
             r;
    dbg = construct_inside->bound_to.empty() ? ctor : construct_inside->bound_to;
    import_ctor = import_ctor && dbg == ctor;
  } else if (opts.construct == InstrumentOptions::Construct::Elsewhere) {
    dbg = ctor;                      // the entry builds the singleton: start/stop/step are its classmethods
    add_seed = import_seed = false;  // and seed_all() runs there
  } else {
    new_construct = true;
    dbg = fresh_debugger_name(c);
  }
  // A construction at the top of a worker function whose loop is in another
  // function: the loop reaches the singleton through the classmethods.
  const bool in_function = opts.construct == InstrumentOptions::Construct::InFunction && new_construct;
  if (in_function &&
      (opts.construct_function < 0 || static_cast<std::size_t>(opts.construct_function) >= f.functions.size()))
    return r.error = "no function to build the debugger in", r;
  const std::string recv = in_function && !function_within(f, loop.function, opts.construct_function) ? ctor : dbg;

  // ----- the module block: import, seed_all(), construction -----
  EditGroup setup{"msProbe: import and debugger", false, {}};
  EditGroup move{"msProbe: move the debugger construction out of the loop at " + loop_label, true, {}};
  std::vector<std::string> names;
  if (import_seed && add_seed) names.push_back("seed_all");
  if (import_ctor && (new_construct || moved || dbg == ctor)) names.push_back("PrecisionDebugger");
  // seed_all() goes right before an existing construction, else with the import.
  const DumpStatement* existing_construct = nullptr;
  if (construct_outside) {
    for (const DumpStatement& d : c.dumps) {
      if (d.kind == MsprobeKind::Construct && inside(construct_outside->range, d.range)) existing_construct = &d;
    }
  }
  std::vector<std::string> top_lines;
  if (!names.empty()) {
    const DumpStatement* ext = nullptr;
    if (names == std::vector<std::string>{"seed_all"} && existing_construct && existing_construct->owns_lines)
      ext = local_import_before(c, existing_construct->range);
    if (!ext) ext = extendable_import(c);
    if (ext) {
      auto at = ext->range.end;
      setup.edits.push_back({{at, at}, ", " + join(names, ", ")});
    } else {
      top_lines.push_back("from msprobe.pytorch import " + join(names, ", "));
    }
  }
  std::string config = python_string(opts.config_path);
  std::string construct_line = dbg + " = " + ctor + "(config_path=" + config + ")";
  if (add_seed) {
    if (existing_construct && existing_construct->owns_lines) {
      uint32_t line = existing_construct->first_line;
      setup.edits.push_back(c.layout.lines_before(line, c.layout.indent_of(line), {seed + "()"}));
    } else {
      top_lines.push_back(seed + "()");
    }
  }
  std::vector<std::string> construct_lines;
  if (new_construct) construct_lines.push_back(construct_line);
  if (moved) {
    std::string_view indent = c.layout.indent_of(moved->first_line);
    for (uint32_t l = moved->first_line; l <= moved->last_line; ++l) {
      std::string_view t = src.line_text(l);
      if (t.substr(0, indent.size()) == indent) t.remove_prefix(indent.size());
      construct_lines.emplace_back(t);
    }
  }
  const Statement* llm = llm_assignment(f);
  bool construct_local = false;  // the moved construction uses local names: keep it by the loop
  if (moved) {
    const Call& call = f.calls[static_cast<std::size_t>(construct_inside->call)];
    for (const Argument& arg : call.args) construct_local = construct_local || !is_literal(arg.text);
    construct_local = construct_local && loop.function != -1;
  }
  std::vector<Edit>& construct_group = moved ? move.edits : setup.edits;
  if (!construct_lines.empty() && (llm || construct_local)) {
    if (!top_lines.empty()) setup.edits.push_back(module_block_edit(c, *plan, loop_stmt, top_lines));
    if (llm && c.layout.owns_lines(llm->range)) {
      construct_group.push_back(c.layout.lines_after(llm->end_line, c.layout.indent_of(llm->line), construct_lines));
    } else {
      // Before the outermost loop of the same function, so it runs once.
      const Loop* outer = &loop;
      while (outer->parent >= 0 && f.loops[static_cast<std::size_t>(outer->parent)].function == loop.function)
        outer = &f.loops[static_cast<std::size_t>(outer->parent)];
      construct_group.push_back(c.layout.lines_before(outer->line, c.layout.indent_of(outer->line), construct_lines));
    }
  } else if (moved) {
    if (!top_lines.empty()) setup.edits.push_back(module_block_edit(c, *plan, loop_stmt, top_lines));
    construct_group.push_back(module_block_edit(c, *plan, loop_stmt, construct_lines));
  } else if (in_function) {
    // The import at module level; seed_all() and the construction first in the worker.
    std::vector<std::string> fn_lines;
    if (add_seed) {
      fn_lines.push_back(top_lines.back());
      top_lines.pop_back();
    }
    for (const std::string& l : construct_lines) fn_lines.push_back(l);
    if (!top_lines.empty()) setup.edits.push_back(module_block_edit(c, *plan, loop_stmt, top_lines));
    std::optional<Edit> e = function_top_edit(c, opts.construct_function, fn_lines);
    if (!e)
      return r.error = "the body of " + f.functions[static_cast<std::size_t>(opts.construct_function)].name +
                       "() shares its line with the def; put it on lines of its own first",
             r;
    setup.edits.push_back(std::move(*e));
  } else {
    for (const std::string& l : construct_lines) top_lines.push_back(l);
    if (!top_lines.empty())
      setup.edits.push_back(module_block_edit(c, *plan, loop_stmt, top_lines, opts.construct_before_line));
  }
  std::set<uint32_t> moved_lines;
  if (moved) {
    move.edits.push_back(c.layout.delete_lines(moved->first_line, moved->last_line));
    for (uint32_t l = moved->first_line; l <= moved->last_line; ++l) moved_lines.insert(l);
  }

  // ----- start / stop / step in the loop -----
  EditGroup points{"msProbe: start/stop/step in loop at " + loop_label, false, {}};
  std::string model = plan->start_argument();
  if (!model.empty() && assigned_from_llm(f, model)) model.clear();  // an LLM is not an nn.Module
  const std::string start_call = recv + ".start(" + model + ")";
  const std::string stop_call = recv + ".stop()", step_call = recv + ".step()";
  // A debugger built behind a flag: the calls added to the loop go behind the
  // same flag, or a run without it fails on a debugger that was never built.
  const std::string guard = construction_guard(c, construct_outside, loop);
  // `inside_flag`: the lines go next to calls already behind a flag.
  auto guarded = [&](std::vector<std::string> calls, bool inside_flag = false) {
    if (guard.empty() || inside_flag) return calls;
    std::vector<std::string> out{"if " + guard + ":"};
    for (const std::string& l : calls) out.push_back(c.layout.unit() + l);
    return out;
  };
  std::vector<TSNode> kept;
  for (TSNode s : stmts) {
    if (!(moved && node_range(s) == moved->range)) kept.push_back(s);
  }
  if (kept.empty()) return r.error = "the loop at " + loop_label + " holds nothing but the debugger construction", r;
  // Leading guards (`if i >= max_steps: break`) stay before start(): see plan_for_loop.
  if (plan->first_body_stmt >= 0) {
    uint32_t from = f.statements[static_cast<std::size_t>(plan->first_body_stmt)].range.start;
    while (kept.size() > 1 && ts_node_start_byte(kept.front()) < from) kept.erase(kept.begin());
  }
  TSNode first = kept.front();
  uint32_t first_line = ts_node_start_point(first).row;
  std::string body_indent(c.layout.indent_of(first_line));

  bool stop_step_anywhere = false;
  for (const DumpStatement& d : c.dumps) {
    bool stop_or_step = d.kind == MsprobeKind::Stop || d.kind == MsprobeKind::Step ||
                        d.kind == MsprobeKind::ForwardBackwardDumpEnd;
    if (stop_or_step && inside(d.range, loop.body)) stop_step_anywhere = true;
  }
  const bool need_start = !start_in_loop;
  std::vector<Edit> point_edits;
  if (need_start) point_edits.push_back(c.layout.lines_before(first_line, body_indent, guarded({start_call})));

  if (!c.finally_covers(kept)) {
    // Before each exit (and at the end of the body) ...
    std::vector<Insertion> ins;
    TSNode last = kept.back();
    if (!is_exit_type(last)) {
      // A call found inside an `if FLAG:` block takes the missing one next to
      // it, behind the same flag; calls added at the body's level get the guard.
      TSNode stop_node{}, step_node{};
      bool stop_flagged = false, step_flagged = false;
      for (TSNode s : kept) {
        for (TSNode t : dump_units(c, s)) {
          bool flagged = !ts_node_eq(t, s);
          if (c.is_kind(t, MsprobeKind::Stop)) stop_node = t, stop_flagged = flagged;
          if (c.is_kind(t, MsprobeKind::Step)) step_node = t, step_flagged = flagged;
        }
      }
      bool has_stop = !ts_node_is_null(stop_node), has_step = !ts_node_is_null(step_node);
      if (has_stop && !has_step) ins.push_back({stop_node, true, guarded({step_call}, stop_flagged)});
      else if (!has_stop && has_step) ins.push_back({step_node, false, guarded({stop_call}, step_flagged)});
      else if (!has_stop && !has_step) ins.push_back({last, true, guarded({stop_call, step_call})});
    }
    for (int e : plan->early_exits) {
      const Statement& st = f.statements[static_cast<std::size_t>(e)];
      TSNode exit = find_node(c.root, st.range, st.type.data());  // a whole static C string
      if (ts_node_is_null(exit)) continue;
      TSNode p1 = prev_statement(exit);
      if (!ts_node_is_null(p1) && unit_has(c, p1, MsprobeKind::Step)) {
        if (unit_has(c, p1, MsprobeKind::Stop)) continue;  // `if FLAG: stop(); step()` right before the exit
        TSNode p2 = prev_statement(p1);
        if (ts_node_is_null(p2) || !unit_has(c, p2, MsprobeKind::Stop))
          ins.push_back({p1, false, guarded({stop_call})});
      } else if (!ts_node_is_null(p1) && unit_has(c, p1, MsprobeKind::Stop)) {
        ins.push_back({exit, false, guarded({step_call})});
      } else {
        ins.push_back({exit, false, guarded({stop_call, step_call})});
      }
    }
    std::vector<Edit> before_each = point_edits;
    std::string blocked;  // an exit that shares its line: only try/finally covers it
    for (const Insertion& in : ins) {
      TSNode s = in.stmt;
      if (!in.after && !c.layout.starts_line(ts_node_start_byte(s))) {
        blocked = "line " + std::to_string(ts_node_start_point(s).row + 1);
        continue;
      }
      std::string indent(c.layout.indent_of(ts_node_start_point(s).row));
      before_each.push_back(in.after ? c.layout.lines_after(ts_node_end_point(s).row, indent, in.calls)
                                     : c.layout.lines_before(ts_node_start_point(s).row, indent, in.calls));
    }
    // ... or the body in try/finally, whichever is the smaller correct edit.
    std::vector<Edit> wrapped;
    if (!stop_step_anywhere && guard.empty()) {
      TSNode from = first;
      if (!need_start && c.is_kind(first, MsprobeKind::Start) && kept.size() > 1) from = kept[1];
      std::vector<std::string> head;
      if (need_start) head.push_back(start_call);
      wrapped = wrap_try_finally(c.layout, from, kept.back(), head, {stop_call, step_call}, moved_lines);
    }
    if (!blocked.empty() && wrapped.empty())
      return r.error = "the exit at " + blocked +
                       " shares its line with other code, and the loop already calls "
                       "stop()/step(); put the exit on a line of its own first",
             r;
    bool use_wrap = !wrapped.empty() && (!blocked.empty() || edit_size(src, wrapped) < edit_size(src, before_each));
    point_edits = use_wrap ? std::move(wrapped) : std::move(before_each);
  }
  points.edits = std::move(point_edits);

  for (EditGroup* g : {&setup, &move, &points}) {
    if (!g->edits.empty()) r.groups.push_back(std::move(*g));
  }
  const char* role = to_string(plan->role);
  r.summary = r.groups.empty() ? "the dump is already complete in the " + std::string(role) + " loop at " + loop_label
                               : "enable the msProbe dump in the " + std::string(role) + " loop at " + loop_label;
  if (model.empty() && !start_in_loop)
    r.notes.push_back("start() has no model: fine for level L1; L0/mix need start(model=<the nn.Module>)");
  return r;
}

InstrumentResult enable_construction(const SourceText& src, const Analysis& a, const InstrumentOptions& opts) {
  InstrumentResult r;
  if (std::string why = parse_refusal(a); !why.empty()) return r.error = why, r;
  const FileFacts& f = a.facts;
  const bool in_function = opts.construct == InstrumentOptions::Construct::InFunction;
  if (in_function &&
      (opts.construct_function < 0 || static_cast<std::size_t>(opts.construct_function) >= f.functions.size()))
    return r.error = "no function to build the debugger in", r;
  EnableContext c(src, a);

  // A construction that runs in the target process already: anywhere in a
  // script; inside the worker when the worker is the entry.
  bool constructed = false, has_seed = false;
  const DumpStatement* existing = nullptr;  // its statement, when it is one of its own
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::SeedAll) has_seed = true;
    if (u.kind != MsprobeKind::Construct || constructed) continue;
    int fn = u.call >= 0 ? f.calls[static_cast<std::size_t>(u.call)].function : -1;
    if (in_function && !(fn >= 0 && function_within(f, fn, opts.construct_function))) continue;
    constructed = true;
    for (const DumpStatement& d : c.dumps) {
      if (d.kind == MsprobeKind::Construct && inside(u.range, d.range)) existing = &d;
    }
  }
  std::string ctor = bound_name(f, "PrecisionDebugger");
  bool import_ctor = ctor.empty() && !constructed;
  if (ctor.empty()) ctor = "PrecisionDebugger";
  std::string seed = bound_name(f, "seed_all");
  bool seed_taken = seed.empty() && f.aliases.count("seed_all");
  bool add_seed = !has_seed && !seed_taken;
  bool import_seed = add_seed && seed.empty();
  if (seed.empty()) seed = "seed_all";

  EditGroup setup{"msProbe: import and debugger", false, {}};
  std::vector<std::string> names, module_lines, first_lines;
  if (import_seed) names.push_back("seed_all");
  if (import_ctor) names.push_back("PrecisionDebugger");
  if (!names.empty()) {
    if (const DumpStatement* ext = extendable_import(c))
      setup.edits.push_back({{ext->range.end, ext->range.end}, ", " + join(names, ", ")});
    else module_lines.push_back("from msprobe.pytorch import " + join(names, ", "));
  }
  if (add_seed && existing && existing->owns_lines) {
    setup.edits.push_back(
        c.layout.lines_before(existing->first_line, c.layout.indent_of(existing->first_line), {seed + "()"}));
  } else if (add_seed) {
    first_lines.push_back(seed + "()");
  }
  if (!constructed)
    first_lines.push_back(fresh_debugger_name(c) + " = " + ctor + "(config_path=" + python_string(opts.config_path) +
                          ")");
  auto module_block = [&](const std::vector<std::string>& lines) {
    if (!in_function && opts.construct_before_line)
      return c.layout.lines_before(*opts.construct_before_line, "", lines);
    std::optional<uint32_t> end = import_block_end(f);
    return end ? c.layout.lines_after(*end, "", lines) : c.layout.lines_at_top(lines);
  };
  if (in_function) {
    if (!module_lines.empty()) setup.edits.push_back(module_block(module_lines));
    if (!first_lines.empty()) {
      std::optional<Edit> e = function_top_edit(c, opts.construct_function, first_lines);
      if (!e)
        return r.error = "the body of " + f.functions[static_cast<std::size_t>(opts.construct_function)].name +
                         "() shares its line with the def; put it on lines of its own first",
               r;
      setup.edits.push_back(std::move(*e));
    }
  } else {
    for (const std::string& l : first_lines) module_lines.push_back(l);
    if (!module_lines.empty()) setup.edits.push_back(module_block(module_lines));
  }
  if (!setup.edits.empty()) r.groups.push_back(std::move(setup));
  std::string where = in_function ? "at the top of " +
                                        f.functions[static_cast<std::size_t>(opts.construct_function)].name + "()"
                                  : "after the imports";
  r.summary = r.groups.empty() ? "the debugger is already built " + where : "build the msProbe debugger " + where;
  return r;
}

std::optional<uint32_t> default_dump_loop(const SourceText& src, const Analysis& a) {
  if (!parse_refusal(a).empty() || !scenario_refusal(a.facts).empty()) return std::nullopt;
  std::optional<DumpPlan> plan = choose_plan(src, a.facts, std::nullopt);
  if (!plan) return std::nullopt;
  return a.facts.loops[static_cast<std::size_t>(plan->loop)].line;
}

std::vector<std::pair<uint32_t, uint32_t>> dump_statement_lines(const SourceText& src, const Analysis& a) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  if (!a.tree) return out;
  Layout layout(src, a.facts);
  for (const DumpStatement& d : dump_statements(layout, a.facts)) out.push_back({d.first_line, d.last_line});
  return out;
}

std::vector<DumpTarget> dump_targets(const SourceText& src, const Analysis& a,
                                     const std::function<bool(const Loop&)>& want) {
  std::vector<DumpTarget> out;
  if (!parse_refusal(a).empty() || !scenario_refusal(a.facts).empty()) return out;
  for (std::size_t i = 0; i < a.facts.loop_info.size(); ++i) {
    const LoopInfo& info = a.facts.loop_info[i];
    if (info.role == LoopRole::None) continue;
    const Loop& loop = a.facts.loops[static_cast<std::size_t>(info.loop)];
    if (want && !want(loop)) continue;
    DumpTarget t;
    t.loop_info = static_cast<int>(i);
    t.line = loop.line;
    t.role = info.role;
    t.header = loop.header;
    t.range = loop.range;
    InstrumentOptions o;
    o.loop_line = loop.line;
    InstrumentResult res = enable_dump(src, a, o);
    if (!res.ok()) continue;
    t.complete = res.empty();
    out.push_back(t);
  }
  return out;
}

InstrumentResult enable(const SourceText& src, const Analysis& a, const InstrumentOptions& opts) {
  if (has_disabled_dump(src, a)) return reenable_dump(src, a);
  if (vllm_runner_target(src, a)) return instrument_vllm_runner(src, a, opts);
  return enable_dump(src, a, opts);
}

}  // namespace msprobe::analysis
