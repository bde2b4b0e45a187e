// Community vLLM (msprobe-facts §5.2): the dump lives in GPUModelRunner, not
// in a loop. The debugger is built in __init__, started at the entry of
// execute_model, and stopped/stepped in a finally so every return is covered.
#include "block_edits.h"
#include "context.h"
#include "msprobe/analysis/instrument.h"

namespace msprobe::analysis {
using namespace instrument;

namespace {

int method(const FileFacts& f, const std::string& cls, const std::string& name) {
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    if (f.functions[i].class_name == cls && f.functions[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

bool is_docstring(TSNode stmt) {
  if (!node_is(stmt, "expression_statement")) return false;
  TSNode e = ts_node_named_child(stmt, 0);
  return node_is(e, "string") || node_is(e, "concatenated_string");
}

// The body statements of a def, without its docstring.
std::vector<TSNode> body_without_docstring(const EnableContext& c, const Function& fn) {
  std::vector<TSNode> stmts = body_statements(find_node(c.root, fn.range, "function_definition"));
  if (!stmts.empty() && is_docstring(stmts.front())) stmts.erase(stmts.begin());
  return stmts;
}

InstrumentResult runner_edits(const SourceText& src, const Analysis& a, const RunnerTarget& t,
                              const InstrumentOptions& opts) {
  InstrumentResult r;
  const FileFacts& f = a.facts;
  EnableContext c(src, a);
  const Function& init = f.functions[static_cast<std::size_t>(t.init_function)];
  const Function& exec = f.functions[static_cast<std::size_t>(t.execute_function)];

  std::string dbg = "self.debugger";
  bool constructed = false, seeded = false, imported = false, started = false;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Construct && inside(u.range, init.body)) {
      constructed = true;
      if (!u.bound_to.empty()) dbg = u.bound_to;
    }
    if (u.kind == MsprobeKind::SeedAll) seeded = true;
    if (u.kind == MsprobeKind::Start && inside(u.range, exec.body)) started = true;
  }
  for (const Import& imp : f.imports) {
    bool visible = imp.top_level || inside(imp.range, init.body);
    if (visible && imp.module == "msprobe.pytorch" && imp.name == "PrecisionDebugger") imported = true;
  }

  EditGroup setup{"msProbe: debugger in GPUModelRunner.__init__", false, {}};
  std::vector<TSNode> init_body = body_without_docstring(c, init);
  if (!constructed) {
    if (init_body.empty() || !c.layout.starts_line(ts_node_start_byte(init_body.front())))
      return r.error = "GPUModelRunner.__init__ has no body on lines of its own", r;
    std::vector<std::string> lines;
    if (!imported)
      lines.push_back(seeded ? "from msprobe.pytorch import PrecisionDebugger"
                             : "from msprobe.pytorch import seed_all, PrecisionDebugger");
    if (!seeded) lines.push_back("seed_all(mode=True)");
    lines.push_back(dbg + " = PrecisionDebugger(config_path=" + python_string(opts.config_path) + ")");
    uint32_t line = ts_node_start_point(init_body.front()).row;
    setup.edits.push_back(c.layout.lines_before(line, c.layout.indent_of(line), lines));
  }

  EditGroup points{"msProbe: start/stop/step in GPUModelRunner.execute_model", false, {}};
  std::vector<TSNode> exec_body = body_without_docstring(c, exec);
  if (exec_body.empty() || !c.layout.starts_line(ts_node_start_byte(exec_body.front())))
    return r.error = "GPUModelRunner.execute_model has no body on lines of its own", r;
  std::string start_call = dbg + ".start(model=self.model)";
  if (!c.finally_covers(exec_body)) {
    TSNode from = exec_body.front();
    if (started && c.is_kind(from, MsprobeKind::Start) && exec_body.size() > 1) from = exec_body[1];
    std::vector<std::string> head;
    if (!started) head.push_back(start_call);
    points.edits = wrap_try_finally(c.layout, from, exec_body.back(), head, {dbg + ".stop()", dbg + ".step()"});
  } else if (!started) {
    uint32_t line = ts_node_start_point(exec_body.front()).row;
    points.edits.push_back(c.layout.lines_before(line, c.layout.indent_of(line), {start_call}));
  }
  for (EditGroup* g : {&setup, &points}) {
    if (!g->edits.empty()) r.groups.push_back(std::move(*g));
  }
  r.summary = r.groups.empty() ? "GPUModelRunner already builds, starts, stops and steps the debugger"
                               : "instrument the vLLM GPUModelRunner for the msProbe dump";
  r.notes.push_back(
      "Start the vLLM server with --enforce-eager: msProbe dumps eager mode only "
      "(export TORCHDYNAMO_DISABLE=1 if Dynamo errors appear).");
  return r;
}

}  // namespace

std::optional<RunnerTarget> vllm_runner_target(const SourceText& src, const Analysis& a) {
  if (!parse_refusal(a).empty()) return std::nullopt;
  const FileFacts& f = a.facts;
  for (std::size_t i = 0; i < f.classes.size(); ++i) {
    if (f.classes[i].name != "GPUModelRunner") continue;
    RunnerTarget t;
    t.class_index = static_cast<int>(i);
    t.line = f.classes[i].line;
    t.init_function = method(f, "GPUModelRunner", "__init__");
    t.execute_function = method(f, "GPUModelRunner", "execute_model");
    if (t.init_function < 0 || t.execute_function < 0) continue;
    InstrumentResult res = runner_edits(src, a, t, {});
    if (!res.ok()) continue;
    t.complete = res.empty();
    return t;
  }
  return std::nullopt;
}

InstrumentResult instrument_vllm_runner(const SourceText& src, const Analysis& a, const InstrumentOptions& opts) {
  InstrumentResult r;
  if (std::string why = parse_refusal(a); !why.empty()) return r.error = why, r;
  std::optional<RunnerTarget> t = vllm_runner_target(src, a);
  if (!t) return r.error = "no class GPUModelRunner with __init__ and execute_model", r;
  return runner_edits(src, a, *t, opts);
}

}  // namespace msprobe::analysis
