// Uses of msProbe's API: imports, seed_all, PrecisionDebugger construction and
// start/stop/step on a debugger (an instance, self.<attr>, or the class itself,
// whose start/stop/step are classmethods).
#include <set>

#include "derive.h"

namespace msprobe::analysis {
namespace {

bool starts_with(const std::string& s, std::string_view p) { return s.compare(0, p.size(), p) == 0; }
bool ends_with(const std::string& s, std::string_view p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

std::string framework_of(const std::string& qualified) {
  if (starts_with(qualified, "msprobe.mindspore")) return "mindspore";
  if (starts_with(qualified, "msprobe.pytorch")) return "pytorch";
  return "";
}

bool is_msprobe_api(const std::string& q, std::string_view name) {
  return starts_with(q, "msprobe.") && ends_with(q, std::string(".") + std::string(name));
}

}  // namespace

const char* to_string(MsprobeKind k) {
  switch (k) {
    case MsprobeKind::Import: return "import";
    case MsprobeKind::SeedAll: return "seed_all";
    case MsprobeKind::Construct: return "construct";
    case MsprobeKind::Start: return "start";
    case MsprobeKind::Stop: return "stop";
    case MsprobeKind::Step: return "step";
    case MsprobeKind::ForwardBackwardDumpEnd: return "forward_backward_dump_end";
    case MsprobeKind::Other: return "other";
  }
  return "other";
}

void derive_msprobe(FileFacts& f) {
  std::vector<MsprobeUse> uses;
  for (std::size_t i = 0; i < f.imports.size(); ++i) {
    const Import& imp = f.imports[i];
    if (imp.module != "msprobe" && !starts_with(imp.module, "msprobe.")) continue;
    if (!uses.empty() && uses.back().kind == MsprobeKind::Import && uses.back().range == imp.range) continue;
    MsprobeUse u;
    u.kind = MsprobeKind::Import;
    u.range = imp.range;
    u.line = imp.line;
    u.import = static_cast<int>(i);
    u.framework = framework_of(imp.module);
    uses.push_back(u);
  }
  // Names that hold a debugger: assignment targets of a construction, plus
  // the class name itself (classmethods).
  std::set<std::string> debuggers;
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& c = f.calls[i];
    if (is_msprobe_api(c.qualified, "PrecisionDebugger")) debuggers.insert(c.callee);
  }
  for (const Assignment& a : f.assignments) {
    if (a.value_call < 0) continue;
    const Call& c = f.calls[static_cast<std::size_t>(a.value_call)];
    if (is_msprobe_api(c.qualified, "PrecisionDebugger")) debuggers.insert(a.target);
  }
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& c = f.calls[i];
    MsprobeUse u;
    u.range = c.range;
    u.line = c.line;
    u.call = static_cast<int>(i);
    u.framework = framework_of(c.qualified);
    if (is_msprobe_api(c.qualified, "seed_all")) {
      u.kind = MsprobeKind::SeedAll;
    } else if (is_msprobe_api(c.qualified, "PrecisionDebugger")) {
      u.kind = MsprobeKind::Construct;
      for (const Assignment& a : f.assignments) {
        if (a.value_call == static_cast<int>(i)) u.bound_to = a.target;
      }
    } else {
      std::size_t dot = c.callee.rfind('.');
      if (dot == std::string::npos) continue;
      std::string receiver = c.callee.substr(0, dot), method = c.callee.substr(dot + 1);
      if (!debuggers.count(receiver)) continue;
      u.receiver = receiver;
      if (method == "start") u.kind = MsprobeKind::Start;
      else if (method == "stop") u.kind = MsprobeKind::Stop;
      else if (method == "step") u.kind = MsprobeKind::Step;
      else if (method == "forward_backward_dump_end") u.kind = MsprobeKind::ForwardBackwardDumpEnd;
      else u.kind = MsprobeKind::Other;
    }
    uses.push_back(u);
  }
  f.msprobe = std::move(uses);
}

}  // namespace msprobe::analysis
