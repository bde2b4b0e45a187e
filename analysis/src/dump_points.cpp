// msProbe dump points for the placement rules (see dump_points.h).
#include "dump_points.h"
#include "effects.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "call_graph.h"
#include "exit_paths.h"

namespace msprobe::analysis {
namespace {

// Functions of the file that make a call of `kinds` (directly or through
// each other), so that calling them counts as making it; one flag per function.
std::vector<char> functions_making(const FileFacts& f, const CallGraph& graph,
                                   std::initializer_list<MsprobeKind> kinds) {
  std::vector<char> fns(f.functions.size(), 0);
  for (const MsprobeUse& u : f.msprobe) {
    if (u.call < 0 || std::find(kinds.begin(), kinds.end(), u.kind) == kinds.end()) continue;
    int fn = f.calls[static_cast<std::size_t>(u.call)].function;
    if (fn >= 0) fns[static_cast<std::size_t>(fn)] = 1;
  }
  // Two rounds over the calls in file order (only those that run a def of
  // the file can add one), so a caller's caller counts too.
  for (int round = 0; round < 2; ++round) {
    for (int i : graph.resolved_calls()) {
      const Call& c = f.calls[static_cast<std::size_t>(i)];
      int callee = graph.target(i);
      if (c.function >= 0 && callee != c.function && fns[static_cast<std::size_t>(callee)])
        fns[static_cast<std::size_t>(c.function)] = 1;
    }
  }
  return fns;
}

bool is_main_guard_import(const FileFacts& f, const Import& imp) {
  return f.main_guard >= 0 && inside(imp.range, stmt(f, f.main_guard).range);
}

// A module-level import (not under the main guard) binds `name`.
bool module_binds(const FileFacts& f, const std::string& name) {
  for (const Import& imp : f.imports) {
    if (imp.bound == name && imp.top_level && !is_main_guard_import(f, imp)) return true;
  }
  return false;
}

// An if/elif/else whose every branch (an else included) makes the call
// counts as making it, so `if a: stop() else: stop()` closes the iteration.
// Only the if statements above a site can qualify, and each qualifies at most
// once, so the work is the sites times their nesting depth (never a scan of
// every statement per if statement: that was quadratic on big files).
void add_branch_sites(const FileFacts& f, std::vector<int>& sites) {
  if (sites.empty()) return;
  // The blocks of each candidate if statement, and whether it has an else.
  struct Branches {
    std::vector<ByteRange> blocks;
    bool has_else = false;
  };
  std::map<int, Branches> candidates;
  for (int x : sites) {
    for (int cur = stmt(f, x).parent_block_owner; cur >= 0; cur = stmt(f, cur).parent_block_owner) {
      if (stmt(f, cur).type == "if_statement") candidates.emplace(cur, Branches{});
    }
  }
  if (candidates.empty()) return;
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    const Statement& st = f.statements[i];
    auto it = candidates.find(st.parent_block_owner);
    if (it == candidates.end()) continue;
    Branches& b = it->second;
    if (st.block_clause == "else_clause") b.has_else = true;
    if (std::find(b.blocks.begin(), b.blocks.end(), st.block) == b.blocks.end()) b.blocks.push_back(st.block);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [s, b] : candidates) {
      if (!b.has_else || b.blocks.empty() || std::find(sites.begin(), sites.end(), s) != sites.end()) continue;
      bool all = std::all_of(b.blocks.begin(), b.blocks.end(), [&](ByteRange block) {
        return std::any_of(sites.begin(), sites.end(),
                           [&](int x) { return inside(stmt(f, x).range, block) && runs_at_block_end(f, x, block); });
      });
      if (all) {
        sites.push_back(s);
        changed = true;
      }
    }
  }
  std::sort(sites.begin(), sites.end());
}

}  // namespace

bool is_pytorch_use(const FileFacts& f, const MsprobeUse& u) {
  if (u.framework == "pytorch") return true;
  if (u.framework == "mindspore") return false;
  bool ms = false, pt = false;
  for (const MsprobeUse& x : f.msprobe) {
    if (x.framework == "mindspore") ms = true;
    if (x.framework == "pytorch") pt = true;
  }
  return pt || !ms;
}

std::vector<ConstructSite> construct_sites(const SourceText& src, const FileFacts& f) {
  std::vector<ConstructSite> out;
  for (std::size_t i = 0; i < f.msprobe.size(); ++i) {
    const MsprobeUse& u = f.msprobe[i];
    if (u.kind != MsprobeKind::Construct || u.call < 0) continue;
    ConstructSite s;
    s.use = static_cast<int>(i);
    s.call = u.call;
    const Call& c = f.calls[static_cast<std::size_t>(u.call)];
    s.stmt = c.statement;
    s.target = u.bound_to;
    if (s.stmt >= 0) {
      const Statement& st = stmt(f, s.stmt);
      bool whole = st.range == c.range;
      for (const Assignment& a : f.assignments) {
        if (a.value_call == u.call && a.range == st.range && a.target.find_first_of(",*[") == std::string::npos)
          whole = true;
      }
      s.movable = st.type == "expression_statement" && whole && owns_its_lines(src, st);
    }
    out.push_back(std::move(s));
  }
  return out;
}

DumpCallSites dump_call_sites(const FileFacts& f, const ProjectView* project) {
  DumpCallSites s;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.call < 0) continue;
    int st = f.calls[static_cast<std::size_t>(u.call)].statement;
    if (st < 0) continue;
    if (u.kind == MsprobeKind::Stop || u.kind == MsprobeKind::ForwardBackwardDumpEnd) s.stop.push_back(st);
    if (u.kind == MsprobeKind::Step) s.step.push_back(st);
  }
  if (project) {
    for (const Call& c : f.calls) {
      uint16_t e = project->effects_of(c.range);
      if (c.statement < 0 || e == 0) continue;
      if (e & kDumpStop) s.stop.push_back(c.statement);
      if (e & kDumpStep) s.step.push_back(c.statement);
    }
  }
  if (s.stop.empty() && s.step.empty()) return s;  // nothing to follow through calls (most files)
  CallGraph graph(f);
  const std::vector<char> stoppers = functions_making(f, graph,
                                                      {MsprobeKind::Stop, MsprobeKind::ForwardBackwardDumpEnd});
  const std::vector<char> steppers = functions_making(f, graph, {MsprobeKind::Step});
  for (int i : graph.resolved_calls()) {
    const Call& c = f.calls[static_cast<std::size_t>(i)];
    int callee = graph.target(i);
    if (c.statement < 0 || callee == c.function) continue;
    if (stoppers[static_cast<std::size_t>(callee)]) s.stop.push_back(c.statement);
    if (steppers[static_cast<std::size_t>(callee)]) s.step.push_back(c.statement);
  }
  for (auto* v : {&s.stop, &s.step}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
    add_branch_sites(f, *v);
  }
  return s;
}

StartScope start_scope(const FileFacts& f, const Call& start) {
  StartScope s;
  if (start.loop >= 0) {
    const Loop& l = f.loops[static_cast<std::size_t>(start.loop)];
    s.loop = start.loop;
    s.function = l.function;
    s.block = l.body;
    // The loop statement owns the blocks of its body statements.
    if (l.body_first_stmt < f.statements.size()) s.loop_stmt = f.statements[l.body_first_stmt].parent_block_owner;
    if (s.loop_stmt < 0 || !(stmt(f, s.loop_stmt).range == l.range)) {
      s.loop_stmt = -1;
      for (std::size_t i = 0; i < f.statements.size() && s.loop_stmt < 0; ++i) {
        if (f.statements[i].range == l.range) s.loop_stmt = static_cast<int>(i);
      }
    }
  } else if (start.function >= 0) {
    s.function = start.function;
    s.block = f.functions[static_cast<std::size_t>(start.function)].body;
  } else if (start.statement >= 0) {
    s.block = stmt(f, top_level_statement(f, start.statement)).block;
  }
  return s;
}

StartBalance balance_of_start(const FileFacts& f, const DumpCallSites& sites, const Call& start) {
  StartBalance b;
  b.scope = start_scope(f, start);
  const int s_stmt = start.statement;
  if (s_stmt < 0) return b;
  const uint32_t after = stmt(f, s_stmt).range.end;
  // The sites after the start and inside its scope. Statements are listed in
  // the order they start (the facts walk the tree in pre-order) and the sites
  // by statement, so they are one run, found by bisection: a file with many
  // start() calls does not scan every site for each.
  auto in_scope = [&](const std::vector<int>& all) {
    std::vector<int> out;
    auto x = std::partition_point(all.begin(), all.end(), [&](int i) { return stmt(f, i).range.start < after; });
    for (; x != all.end() && stmt(f, *x).range.start < b.scope.block.end; ++x) {
      if (inside(stmt(f, *x).range, b.scope.block)) out.push_back(*x);
    }
    return out;
  };
  const std::vector<int> stops = in_scope(sites.stop), steps = in_scope(sites.step);
  b.conditional_start = !unconditional_in(f, s_stmt, b.scope.block);
  b.weak = b.conditional_start || (b.scope.loop < 0 && b.scope.function < 0);
  b.end_reachable = !block_ends_in_exit(f, b.scope.block);
  if (b.weak) {
    // A start() under a condition is usually closed under the same one: ask
    // only that some stop()/step() follows it.
    b.at_end.stop = stops.empty();
    b.at_end.step = steps.empty();
    return b;
  }
  std::vector<int> exits;
  if (b.scope.loop >= 0) exits = iteration_exits(f, b.scope.loop);
  else if (b.scope.function >= 0) exits = function_returns(f, b.scope.function);
  for (int e : exits) {
    if (stmt(f, e).range.start < after) continue;
    bool is_break = stmt(f, e).type == "break_statement";
    auto covered = [&](const std::vector<int>& in_loop, const std::vector<int>& all) {
      for (int x : in_loop) {
        if (runs_before_exit(f, x, e)) return true;
      }
      if (is_break && b.scope.loop_stmt >= 0) {
        for (int x : all) {
          if (runs_after(f, b.scope.loop_stmt, x)) return true;
        }
      }
      return false;
    };
    Missing m;
    m.stop = !covered(stops, sites.stop);
    m.step = !covered(steps, sites.step);
    if (m.any()) b.exits.push_back({e, m});
  }
  if (b.end_reachable) {
    auto covered = [&](const std::vector<int>& xs) {
      for (int x : xs) {
        if (runs_at_block_end(f, x, b.scope.block)) return true;
      }
      return false;
    };
    b.at_end.stop = !covered(stops);
    b.at_end.step = !covered(steps);
  }
  return b;
}

std::vector<std::string> missing_call_texts(const std::string& receiver, Missing m) {
  std::vector<std::string> out;
  if (m.stop) out.push_back(receiver + ".stop()");
  if (m.step) out.push_back(receiver + ".step()");
  return out;
}

std::optional<std::vector<Edit>> insert_missing_calls(const SourceText& src, const FileFacts& f, const StartBalance& b,
                                                      const std::string& receiver) {
  std::vector<Edit> edits;
  const std::string eol = line_break(src);
  for (const ExitGap& gap : b.exits) {
    const Statement& e = stmt(f, gap.exit);
    std::vector<std::string> calls = missing_call_texts(receiver, gap.missing);
    std::string_view before = src.view().substr(src.line_start(e.line), e.range.start - src.line_start(e.line));
    bool own_line = std::all_of(before.begin(), before.end(), [](char c) { return c == ' ' || c == '\t'; });
    std::string text;
    if (own_line) {
      for (const auto& c : calls) text += std::string(before) + c + eol;
      edits.push_back(insert_before_line(src, e.line, text));
    } else {
      // `if done: break` -> `if done: debugger.stop(); debugger.step(); break`
      for (const auto& c : calls) text += c + "; ";
      edits.push_back({{e.range.start, e.range.start}, text});
    }
  }
  if (b.end_reachable && b.at_end.any()) {
    std::vector<int> body = statements_in_block(f, b.scope.block);
    if (body.empty()) return std::nullopt;
    const Statement& first = stmt(f, body.front());
    const Statement& last = stmt(f, body.back());
    std::string_view lead = src.view().substr(src.line_start(first.line),
                                              first.range.start - src.line_start(first.line));
    if (!std::all_of(lead.begin(), lead.end(), [](char c) { return c == ' ' || c == '\t'; })) return std::nullopt;
    std::string text;
    for (const auto& c : missing_call_texts(receiver, b.at_end)) text += std::string(lead) + c + eol;
    edits.push_back(insert_after_line(src, src.line_of(last.range.end), text));
  }
  return edits;
}

std::optional<std::vector<Edit>> move_statements(const SourceText& src, const FileFacts& f,
                                                 const std::vector<int>& stmts, const InsertionPoint& to,
                                                 const std::string& prefix_lines) {
  std::vector<Edit> edits;
  std::string moved = prefix_lines;
  std::set<int> set(stmts.begin(), stmts.end());
  for (int i : stmts) {
    const Statement& st = stmt(f, i);
    if (!owns_its_lines(src, st)) return std::nullopt;
    std::vector<int> block = statements_in_block(f, st.block);
    bool empties = std::all_of(block.begin(), block.end(), [&](int k) { return set.count(k) != 0; });
    if (empties && block.front() == i) edits.push_back({st.range, "pass"});
    else edits.push_back({whole_lines(src, st), ""});
    moved += reindent(lines_text(src, st), indent_of_line(src, st.line), to.indent);
  }
  edits.push_back(insert_lines(src, to, moved));
  return edits;
}

InsertionPoint module_setup_point(const FileFacts& f) {
  InsertionPoint p;
  int anchor = module_setup_anchor(f);
  if (anchor >= 0) {
    p.line = stmt(f, anchor).end_line;
    p.after = true;
  } else if (!f.statements.empty()) {
    p.line = f.statements.front().line;
  }
  return p;
}

bool runs_at_module_setup(const FileFacts& f, int call) {
  static const std::set<std::string> kBuiltins = {"str", "int", "float", "bool", "dict", "list", "tuple",
                                                  "set", "len", "abs",   "min",  "max",  "range"};
  const Call& c = f.calls[static_cast<std::size_t>(call)];
  for (const Argument& a : c.args) {
    if (is_constant_expression(a.text)) continue;
    for (const std::string& name : names_read(a.text)) {
      if (!kBuiltins.count(name) && !module_binds(f, name)) return false;
    }
  }
  return true;
}

std::string missing_module_imports(const SourceText& src, const FileFacts& f, const std::vector<int>& calls) {
  std::string out;
  std::set<std::string> done;
  for (int ci : calls) {
    const Call& c = f.calls[static_cast<std::size_t>(ci)];
    std::string root = c.callee.substr(0, c.callee.find('.'));
    if (module_binds(f, root) || !done.insert(root).second) continue;
    for (const Import& imp : f.imports) {
      if (imp.bound != root) continue;
      std::string line;
      if (imp.name.empty()) line = "import " + imp.module + (imp.bound != imp.module ? " as " + imp.bound : "");
      else line = "from " + imp.module + " import " + imp.name + (imp.bound != imp.name ? " as " + imp.bound : "");
      out += line + line_break(src);
      break;
    }
  }
  return out;
}

std::optional<std::vector<Edit>> move_to_module_setup(const SourceText& src, const FileFacts& f,
                                                      const std::vector<int>& stmts, const std::vector<int>& calls) {
  for (int c : calls) {
    if (!runs_at_module_setup(f, c)) return std::nullopt;
  }
  return move_statements(src, f, stmts, module_setup_point(f), missing_module_imports(src, f, calls));
}

bool is_plain_name(const std::string& s) {
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::optional<Edit> wrap_in_try_finally(const SourceText& src, const FileFacts& f, const std::vector<int>& stmts,
                                        const std::vector<int>& drop, const std::string& receiver,
                                        const std::string& head_lines) {
  if (stmts.empty()) return std::nullopt;
  const Statement& first = stmt(f, stmts.front());
  const Statement& last = stmt(f, stmts.back());
  for (int i : stmts) {
    if (!owns_its_lines(src, stmt(f, i))) return std::nullopt;
  }
  ByteRange region{static_cast<uint32_t>(src.line_start(first.line)), whole_lines(src, last).end};
  std::string_view text = src.view().substr(region.start, region.end - region.start);
  if (text.find("\"\"\"") != std::string_view::npos || text.find("'''") != std::string_view::npos) return std::nullopt;
  const std::string eol = line_break(src);
  const std::string indent = indent_of_line(src, first.line);
  const std::string deeper = indent + indent_unit(src, f);
  // Comment and blank lines between the statements move with them.
  std::string body;
  bool any = false;
  uint32_t pos = region.start;
  for (int i : stmts) {
    ByteRange lines = whole_lines(src, stmt(f, i));
    if (lines.start > pos) body += reindent(src.view().substr(pos, lines.start - pos), indent, deeper);
    if (std::find(drop.begin(), drop.end(), i) == drop.end()) {
      body += reindent(lines_text(src, stmt(f, i)), indent, deeper);
      any = true;
    }
    pos = lines.end;
  }
  if (!any) body += deeper + "pass" + eol;
  std::string out = head_lines + indent + "try:" + eol + body + indent + "finally:" + eol + deeper + receiver +
                    ".stop()" + eol + deeper + receiver + ".step()" + eol;
  return Edit{region, out};
}

bool is_runner_execute_model(const FileFacts& f, int function) {
  if (function < 0) return false;
  const Function& fn = f.functions[static_cast<std::size_t>(function)];
  const std::string& cls = fn.class_name;
  return fn.name == "execute_model" && cls.size() >= 11 && cls.compare(cls.size() - 11, 11, "ModelRunner") == 0;
}

std::string describe(Missing m) {
  if (m.stop && m.step) return "stop() and step()";
  return m.stop ? "stop()" : "step()";
}

}  // namespace msprobe::analysis
