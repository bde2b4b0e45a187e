// `msprobe-lsp explain FILE...`: what the engine found in a script: loops
// with their role, model and sites, Dynamo sites, scenarios, existing msProbe
// calls and the insertion plan. Text (one fact per line) or JSON. Lines are
// 1-based here; the fact -> JSON mapping lives here, not in analysis/.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli.h"
#include "cli/project_cli.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/dynamo.h"
#include "msprobe/analysis/plan.h"
#include "msprobe/analysis/project.h"

namespace msprobe::cli {
namespace {

using json = nlohmann::ordered_json;
namespace an = msprobe::analysis;

uint32_t line1(const an::SourceText& src, uint32_t offset) { return src.line_of(offset) + 1; }

json lines_of(const an::SourceText& src, const std::vector<an::ByteRange>& ranges) {
  std::vector<uint32_t> lines;
  for (const an::ByteRange& r : ranges) lines.push_back(line1(src, r.start));
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

// msProbe call kinds as explain reports them: the 8.x forward_backward_dump_end() is a stop.
const char* kind_name(an::MsprobeKind k) {
  return k == an::MsprobeKind::ForwardBackwardDumpEnd ? "stop" : an::to_string(k);
}

struct Explained {
  json j;
  std::vector<std::string> text;
};

std::string join(const json& lines) {
  std::string out;
  for (const auto& l : lines) out += (out.empty() ? "" : ", ") + std::to_string(l.get<uint32_t>());
  return out;
}

// The plan's dump points as JSON and text lines (lines 1-based).
void describe_points(const an::DumpPlan& plan, const an::FileFacts& f, json& p, std::vector<std::string>& t) {
  p["start_before_line"] = plan.start_before_line + 1;
  p["stop_step_after_line"] = plan.stop_step_after_line + 1;
  p["role"] = an::to_string(plan.role);
  p["model"] = plan.model.empty() ? json(nullptr) : json(plan.model);
  p["models"] = plan.models;
  p["start_models"] = plan.start_models;
  json exits = json::array();
  for (const an::EarlyExit& x : plan.exits) exits.push_back({{"line", x.line + 1}, {"kind", x.kind}});
  p["early_exits"] = exits;
  p["debugger"] = plan.debugger_name.empty() ? json(nullptr) : json(plan.debugger_name);
  (void)f;
  t.push_back("plan: start before line " + std::to_string(plan.start_before_line + 1));
  t.push_back("plan: stop/step after line " + std::to_string(plan.stop_step_after_line + 1));
  for (const an::EarlyExit& x : plan.exits)
    t.push_back("plan: stop/step also before the " + x.kind + " at line " + std::to_string(x.line + 1));
}

// The plan of a multi-file project: where the loop is, which entry reaches
// it, where the construction goes.
void explain_project_plan(const an::ProjectPlan& plan, const an::FileFacts& loop_facts, json& j,
                          std::vector<std::string>& t) {
  const an::Loop& loop = loop_facts.loops[static_cast<std::size_t>(plan.loop.loop)];
  json p;
  p["entry_file"] = plan.entry.construct_file;
  p["loop_file"] = plan.loop_file;
  p["loop_line"] = loop.line + 1;
  p["construct_after_line"] = plan.construct_after_line ? *plan.construct_after_line + 1 : 0;
  p["construct_in_function"] = plan.entry.worker.empty() ? json(nullptr) : json(plan.entry.worker);
  p["import_after_line"] = plan.loop.import_after_stmt >= 0 ? plan.loop.import_after_line + 1 : 0;
  describe_points(plan.loop, loop_facts, p, t);
  t.insert(t.end() - static_cast<std::ptrdiff_t>(2 + plan.loop.exits.size()),
           "plan: loop " + std::to_string(loop.line + 1) + " of " + plan.loop_file + " (" +
               an::to_string(plan.loop.role) + "), start(" +
               (plan.loop.start_argument().empty() ? std::string() : "model=" + plan.loop.start_argument()) + ")");
  std::string where = plan.entry.worker.empty()
                          ? (plan.construct_after_line ? "after line " + std::to_string(*plan.construct_after_line + 1)
                                                       : std::string("at the top"))
                          : "at the top of " + plan.entry.worker + "(), after line " +
                                std::to_string(*plan.construct_after_line + 1);
  t.push_back("plan: construct the debugger in " + plan.entry.construct_file + " " + where);
  json entries = json::array();
  for (const an::ProjectEntry& e : plan.entries) {
    json o{{"file", e.file}, {"construct_file", e.construct_file}, {"path", e.path}};
    o["worker"] = e.worker.empty() ? json(nullptr) : json(e.worker);
    entries.push_back(o);
    std::string path;
    for (const std::string& s : e.path) path += (path.empty() ? "" : " -> ") + s;
    t.push_back("plan: entry " + e.file + (e.worker.empty() ? "" : " (worker " + e.worker + "())") + ": " + path);
  }
  p["entries"] = entries;
  json missing = json::array();
  if (!plan.loop.has_start) missing.push_back("start");
  if (!plan.loop.has_stop) missing.push_back("stop");
  if (!plan.loop.has_step) missing.push_back("step");
  p["missing"] = missing;
  p["notes"] = plan.notes;
  for (const std::string& n : plan.notes) t.push_back("plan: note: " + n);
  j["plan"] = p;
}

Explained explain(const std::string& path, const an::SourceText& src, const an::FileFacts& f,
                  std::optional<uint32_t> loop_line, const an::ProjectPlan* project_plan = nullptr,
                  const an::FileFacts* project_loop_facts = nullptr, const std::string& project_error = "") {
  Explained e;
  auto& t = e.text;
  json j;
  j["file"] = path;

  json scenarios = json::array();
  for (an::Scenario s : f.scenarios) scenarios.push_back(an::to_string(s));
  j["scenarios"] = scenarios;
  t.push_back("file: " + path);
  {
    std::string s;
    for (const auto& x : scenarios) s += (s.empty() ? "" : ", ") + x.get<std::string>();
    t.push_back("scenario: " + (s.empty() ? std::string("none (no torch import)") : s));
  }
  for (const an::ScenarioMarker& m : f.scenario_markers)
    t.push_back("scenario marker " + std::to_string(m.line + 1) + ": " + an::to_string(m.scenario) + " (" + m.evidence +
                ")");

  json loops = json::array();
  for (const an::LoopInfo& info : f.loop_info) {
    const an::Loop& l = f.loops[static_cast<std::size_t>(info.loop)];
    const an::Statement& first = f.statements[l.body_first_stmt];
    const an::Statement& last = f.statements[l.body_last_stmt];
    json o;
    o["line"] = l.line + 1;
    o["role"] = an::to_string(info.role);
    o["function"] = info.function >= 0 ? json(f.functions[static_cast<std::size_t>(info.function)].name)
                                       : json(nullptr);
    o["model"] = info.model.empty() ? json(nullptr) : json(info.model);
    o["forward_lines"] = lines_of(src, info.forward);
    o["backward_lines"] = lines_of(src, info.backward);
    o["step_lines"] = lines_of(src, info.step);
    o["body_first_line"] = first.line + 1;
    o["body_last_line"] = last.end_line + 1;
    o["epoch_loop_line"] = info.epoch_loop >= 0 ? json(f.loops[static_cast<std::size_t>(info.epoch_loop)].line + 1)
                                                : json(nullptr);
    o["models"] = info.models;
    o["trained"] = info.trained;
    o["no_grad"] = info.no_grad;
    o["reason"] = info.reason;
    std::ostringstream s;
    s << "loop " << l.line + 1 << ": " << an::to_string(info.role);
    if (info.function >= 0) s << " in " << f.functions[static_cast<std::size_t>(info.function)].name << "()";
    else s << " at module level";
    s << ", model " << (info.model.empty() ? std::string("(none)") : info.model);
    if (info.models.size() > 1) {
      s << " (also";
      for (std::size_t i = 1; i < info.models.size(); ++i) s << " " << info.models[i];
      s << ")";
    }
    if (!o["forward_lines"].empty()) s << ", forward " << join(o["forward_lines"]);
    if (!o["backward_lines"].empty()) s << ", backward " << join(o["backward_lines"]);
    if (!o["step_lines"].empty()) s << ", step " << join(o["step_lines"]);
    s << ", body " << first.line + 1 << "-" << last.end_line + 1;
    if (info.epoch_loop >= 0) s << ", epoch loop " << f.loops[static_cast<std::size_t>(info.epoch_loop)].line + 1;
    s << " (" << info.reason << ")";
    t.push_back(s.str());
    loops.push_back(o);
  }
  if (f.loop_info.empty()) t.push_back("loops: none with a role");
  j["loops"] = loops;

  json dynamo = json::array();
  for (const an::DynamoSite& d : an::find_dynamo_sites(src, f)) {
    if (d.is_import) continue;
    uint32_t line = line1(src, d.range.start);
    dynamo.push_back({{"line", line}, {"form", an::to_string(d.form)}, {"description", d.description}});
    t.push_back("dynamo " + std::to_string(line) + ": " + an::to_string(d.form) + " (" + d.description + ")");
  }
  j["dynamo"] = dynamo;

  json msprobe = json::array();
  for (const an::MsprobeUse& u : f.msprobe) {
    if (u.kind == an::MsprobeKind::Other) continue;
    json o{{"line", u.line + 1}, {"kind", kind_name(u.kind)}};
    std::string extra;
    if (u.kind == an::MsprobeKind::ForwardBackwardDumpEnd) {
      o["method"] = "forward_backward_dump_end";
      extra = " (8.x forward_backward_dump_end)";
    }
    if (!u.bound_to.empty()) {
      o["bound_to"] = u.bound_to;
      extra += " bound to " + u.bound_to;
    }
    if (!u.config_path.empty()) {
      o["config_path"] = u.config_path;
      extra += ", config_path " + u.config_path;
    }
    if (u.kind == an::MsprobeKind::Start) {
      o["model"] = u.model_arg.empty() ? json(nullptr) : json(u.model_arg);
      extra += u.model_arg.empty() ? " without a model" : " with model " + u.model_arg;
    }
    msprobe.push_back(o);
    t.push_back("msprobe " + std::to_string(u.line + 1) + ": " + kind_name(u.kind) + extra);
  }
  j["msprobe"] = msprobe;

  std::optional<an::DumpPlan> plan = project_plan ? std::nullopt : an::plan_dump(src, f, loop_line);
  if (project_plan) {
    explain_project_plan(*project_plan, *project_loop_facts, j, t);
  } else if (!project_error.empty()) {
    t.push_back("plan: none (" + project_error + ")");
  } else if (plan && plan->needed()) {
    json p;
    p["loop_line"] = f.loops[static_cast<std::size_t>(plan->loop)].line + 1;
    p["import_after_line"] = plan->import_after_stmt >= 0 ? plan->import_after_line + 1 : 0;
    if (plan->construct_after_stmt >= 0) p["construct_after_line"] = plan->construct_after_line + 1;
    t.push_back("plan: loop " + std::to_string(p["loop_line"].get<uint32_t>()) + " (" + an::to_string(plan->role) +
                "), start(" + (plan->start_argument().empty() ? std::string() : "model=" + plan->start_argument()) +
                ")");
    t.push_back(plan->import_after_stmt >= 0 ? "plan: import after line " + std::to_string(plan->import_after_line + 1)
                                             : std::string("plan: import at the top of the file"));
    if (plan->construct_after_stmt >= 0)
      t.push_back("plan: construct the debugger after line " + std::to_string(plan->construct_after_line + 1) +
                  " (after LLM(...), not after the imports)");
    describe_points(*plan, f, p, t);
    json missing = json::array();
    if (!plan->has_import) missing.push_back("import");
    if (!plan->has_seed_all) missing.push_back("seed_all");
    if (!plan->has_construct) missing.push_back("construct");
    if (!plan->has_start) missing.push_back("start");
    if (!plan->has_stop) missing.push_back("stop");
    if (!plan->has_step) missing.push_back("step");
    p["missing"] = missing;
    j["plan"] = p;
    std::string m;
    for (const auto& x : missing) m += (m.empty() ? "" : ", ") + x.get<std::string>();
    t.push_back("plan: missing " + (m.empty() ? std::string("nothing") : m));
  } else if (plan && !plan->scenario_supported) {
    t.push_back("plan: none (the PyTorch eager dump does not cover this scenario)");
  } else if (plan) {
    t.push_back("plan: none (loop " + std::to_string(f.loops[static_cast<std::size_t>(plan->loop)].line + 1) +
                " already has start, stop and step)");
  } else {
    t.push_back(loop_line ? "plan: none (no loop with a role starts on that line)"
                          : "plan: none (no train or inference loop)");
  }

  if (std::optional<an::RunnerPlan> r = an::plan_runner(src, f)) {
    json o;
    o["class_line"] = r->class_line + 1;
    if (r->init_function >= 0) {
      o["init_line"] = r->init_line + 1;
      o["init_body_first_line"] = r->init_body_first_stmt >= 0 ? json(r->init_body_first_line + 1) : json(nullptr);
    } else {
      o["init_line"] = nullptr;
      o["init_body_first_line"] = nullptr;
    }
    o["execute_model_line"] = r->execute_line + 1;
    o["execute_body_first_line"] = r->execute_body_first_stmt >= 0 ? json(r->execute_body_first_line + 1)
                                                                   : json(nullptr);
    o["execute_body_last_line"] = r->execute_body_last_stmt >= 0 ? json(r->execute_body_last_line + 1) : json(nullptr);
    json returns = json::array();
    for (uint32_t l : r->return_lines) returns.push_back(l + 1);
    o["return_lines"] = returns;
    o["model"] = r->model.empty() ? json(nullptr) : json(r->model);
    json forwards = json::array();
    for (uint32_t l : r->forward_lines) forwards.push_back(l + 1);
    o["forward_lines"] = forwards;
    j["runner"] = o;
    t.push_back("runner: class at line " + std::to_string(r->class_line + 1) + ", execute_model at line " +
                std::to_string(r->execute_line + 1) + ", model " + (r->model.empty() ? "(none)" : r->model));
    if (r->init_function >= 0 && r->init_body_first_stmt >= 0)
      t.push_back("runner: construct at the top of __init__, before line " +
                  std::to_string(r->init_body_first_line + 1));
    if (r->execute_body_first_stmt >= 0)
      t.push_back("runner: start before line " + std::to_string(r->execute_body_first_line + 1) +
                  ", stop/step in a try/finally around lines " + std::to_string(r->execute_body_first_line + 1) + "-" +
                  std::to_string(r->execute_body_last_line + 1));
    if (!returns.empty()) t.push_back("runner: returns at lines " + join(returns));
  }

  if (!f.syntax_errors.empty()) {
    j["syntax_errors"] = f.syntax_errors.size();
    t.push_back("syntax errors: " + std::to_string(f.syntax_errors.size()) +
                " (facts cover the parts that parse; the first is at line " +
                std::to_string(line1(src, f.syntax_errors.front().range.start)) + ")");
  }
  e.j = std::move(j);
  return e;
}

}  // namespace

int run_explain(const Args& args) {
  std::string format = args.get("--format", "text");
  if (!args.errors.empty() || args.positional.empty() || (format != "text" && format != "json")) {
    for (const auto& err : args.errors) std::cerr << "msprobe-lsp explain: " << err << "\n";
    if (format != "text" && format != "json") std::cerr << "msprobe-lsp explain: --format must be text or json\n";
    std::cerr
        << "usage: msprobe-lsp explain [--format text|json] [--loop LINE] [--project ROOT [--entry ENTRY]] FILE...\n";
    return 2;
  }
  std::optional<uint32_t> loop_line;
  if (args.has("--loop")) {
    long v = std::strtol(args.get("--loop").c_str(), nullptr, 10);
    if (v < 1) {
      std::cerr << "msprobe-lsp explain: --loop takes a 1-based line number\n";
      return 2;
    }
    loop_line = static_cast<uint32_t>(v - 1);
  }
  an::PythonParser parser;
  an::AnalysisOptions options = analysis_options(args);
  json all = json::array();
  int rc = 0;
  bool first = true;
  for (const std::string& path : args.positional) {
    std::string text, error;
    if (!read_file(path, text, error)) {
      std::cerr << "msprobe-lsp explain: " << error << "\n";
      rc = 2;
      continue;
    }
    an::SourceText src(std::move(text));
    an::Analysis a = an::analyze(parser, src, options);
    if (a.timed_out) {
      std::cerr << "msprobe-lsp explain: " << path << ": too large or complex to analyse in time\n";
      rc = 2;
      continue;
    }
    Explained e;
    if (args.has("--project")) {
      CliProject project = load_project(path, args.get("--project"));
      if (!project.error.empty()) {
        std::cerr << "msprobe-lsp explain: " << project.error << "\n";
        rc = 2;
        continue;
      }
      std::shared_ptr<const an::ModuleSummary> summary = an::summarize(src, a.facts);
      an::derive_loops_in_project(src, a.facts, *project.snapshot, project.rel, *summary);
      an::ProjectPlanOptions po;
      po.loop_line = loop_line;
      if (args.has("--entry")) po.entry = project_file(project, args.get("--entry"));
      std::string why;
      std::optional<an::ProjectPlan> plan = an::plan_project(*project.snapshot, project.rel, project.read, po, &why);
      an::FileFacts loop_facts;
      if (plan && plan->loop_file != project.rel) {
        an::SourceText loop_src(project.read(plan->loop_file).value_or(""));
        an::Analysis la = an::analyze(parser, loop_src, options);
        std::shared_ptr<const an::ModuleSummary> ls = an::summarize(loop_src, la.facts);
        an::derive_loops_in_project(loop_src, la.facts, *project.snapshot, plan->loop_file, *ls);
        loop_facts = std::move(la.facts);
      }
      const an::FileFacts& lf = plan && plan->loop_file != project.rel ? loop_facts : a.facts;
      e = explain(path, src, a.facts, loop_line, plan ? &*plan : nullptr, &lf, plan ? "" : why);
    } else {
      e = explain(path, src, a.facts, loop_line);
    }
    if (format == "json") {
      all.push_back(std::move(e.j));
    } else {
      if (!first) std::cout << "\n";
      first = false;
      for (const std::string& line : e.text) std::cout << line << "\n";
    }
  }
  if (format == "json") {
    const json& out = all.size() == 1 && args.positional.size() == 1 ? all[0] : all;
    std::cout << out.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  }
  return rc;
}

}  // namespace msprobe::cli
