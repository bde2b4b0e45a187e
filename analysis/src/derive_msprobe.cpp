// Uses of msProbe's dump API: imports, seed_all, PrecisionDebugger
// construction and start/stop/step on a debugger (an instance, self.<attr>,
// or the class itself, whose start/stop/step are classmethods). The monitor
// (TrainerMon) is a different tool: importing only it is not a dump use.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "derive.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

std::string framework_of(const std::string& qualified) {
  if (starts_with(qualified, "msprobe.mindspore")) return "mindspore";
  if (starts_with(qualified, "msprobe.pytorch")) return "pytorch";
  return "";
}

bool is_msprobe_api(const std::string& q, std::string_view name) {
  return starts_with(q, "msprobe.") && ends_with(q, std::string(".") + std::string(name));
}

bool is_monitor_import(const Import& imp) {
  if (imp.module.find("monitor") != std::string::npos) return true;
  return imp.name == "TrainerMon" || imp.name == "TrainerMonitorV2";
}

const Argument* argument(const Call& c, std::string_view keyword, std::size_t position) {
  std::size_t positional = 0;
  for (const Argument& a : c.args) {
    if (a.keyword == keyword) return &a;
  }
  for (const Argument& a : c.args) {
    if (!a.keyword.empty()) continue;
    if (!a.text.empty() && a.text[0] == '*') return nullptr;
    if (positional++ == position) return &a;
  }
  return nullptr;
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
  // One use per import statement; a statement that binds only monitor names is not one.
  for (std::size_t i = 0; i < f.imports.size(); ++i) {
    const Import& imp = f.imports[i];
    if (imp.module != "msprobe" && !starts_with(imp.module, "msprobe.")) continue;
    bool dump = false;
    for (std::size_t j = i; j < f.imports.size() && f.imports[j].range == imp.range; ++j) {
      if (!is_monitor_import(f.imports[j])) dump = true;
    }
    if (!dump) continue;
    if (!uses.empty() && uses.back().kind == MsprobeKind::Import && uses.back().range == imp.range) continue;
    MsprobeUse u;
    u.kind = MsprobeKind::Import;
    u.range = imp.range;
    u.line = imp.line;
    u.import = static_cast<int>(i);
    u.framework = framework_of(imp.module);
    u.method = imp.name;
    uses.push_back(u);
  }
  // Names that hold a debugger: assignment targets of a construction, plus
  // the class itself (classmethods).
  std::set<std::string, std::less<>> debuggers;
  std::unordered_map<int, const std::string*> bound;  // construction call -> the target it is assigned to
  for (const Assignment& a : f.assignments) {
    for (std::size_t k = 0; k < a.value_calls.size() && k < a.targets.size(); ++k) {
      int vc = a.value_calls[k];
      if (vc < 0) continue;
      const Call& c = f.calls[static_cast<std::size_t>(vc)];
      if (is_msprobe_api(c.qualified, "PrecisionDebugger")) {
        debuggers.insert(a.targets[k]);
        bound[vc] = &a.targets[k];
      }
    }
  }
  // Receiver text -> what it resolves to when that is the PrecisionDebugger
  // class (classmethod calls), else "".
  std::unordered_map<std::string_view, std::string> class_receivers;
  // Only a receiver whose first name is bound to msprobe's package can
  // resolve to that class; most files bind one or two such names, so the
  // other receivers are passed over without a lookup.
  std::vector<std::string_view> msprobe_roots;
  for (const auto& [name, target] : f.aliases) {
    if (starts_with(target, "msprobe")) msprobe_roots.push_back(name);
  }
  auto may_be_class = [&](std::string_view receiver) {
    std::string_view root = receiver.substr(0, receiver.find('.'));
    return std::find(msprobe_roots.begin(), msprobe_roots.end(), root) != msprobe_roots.end();
  };
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& c = f.calls[i];
    // What the call is, before anything is built for it: most calls are none.
    const bool api = starts_with(c.qualified, "msprobe.");
    const bool seed = api && is_msprobe_api(c.qualified, "seed_all");
    const bool construct = api && !seed && is_msprobe_api(c.qualified, "PrecisionDebugger");
    std::string_view receiver, method;
    const std::string* class_qualified = nullptr;  // the receiver is the debugger class
    if (!seed && !construct) {
      std::string_view callee = c.callee;
      std::size_t dot = callee.rfind('.');
      if (dot == std::string_view::npos) continue;
      receiver = callee.substr(0, dot);
      method = callee.substr(dot + 1);
      if (may_be_class(receiver)) {
        // A file calls methods of the same few receivers thousands of times.
        auto [known, fresh] = class_receivers.try_emplace(receiver);
        if (fresh) {
          known->second = f.qualify(std::string(receiver));
          const std::string& rq = known->second;
          if (!(starts_with(rq, "msprobe.") && ends_with(rq, ".PrecisionDebugger"))) known->second.clear();
        }
        if (!known->second.empty()) class_qualified = &known->second;
      }
      if (!class_qualified && debuggers.find(receiver) == debuggers.end()) continue;
    }
    MsprobeUse u;
    u.range = c.range;
    u.line = c.line;
    u.call = static_cast<int>(i);
    u.function = c.function;
    u.loop = c.loop;
    u.framework = framework_of(class_qualified ? *class_qualified : c.qualified);
    if (seed) {
      u.kind = MsprobeKind::SeedAll;
      u.method = "seed_all";
    } else if (construct) {
      u.kind = MsprobeKind::Construct;
      u.method = "PrecisionDebugger";
      if (auto b = bound.find(static_cast<int>(i)); b != bound.end()) u.bound_to = *b->second;
      if (const Argument* a = argument(c, "config_path", 0)) {
        u.config_path = a->text;
        u.config_path_range = a->range;
      }
    } else {
      u.receiver = std::string(receiver);
      u.method = std::string(method);
      if (method == "start") {
        u.kind = MsprobeKind::Start;
        if (const Argument* a = argument(c, "model", 0)) u.model_arg = a->text;
      } else if (method == "stop") {
        u.kind = MsprobeKind::Stop;
      } else if (method == "step") {
        u.kind = MsprobeKind::Step;
      } else if (method == "forward_backward_dump_end") {
        u.kind = MsprobeKind::ForwardBackwardDumpEnd;
      } else {
        u.kind = MsprobeKind::Other;
      }
    }
    uses.push_back(std::move(u));
  }
  std::stable_sort(uses.begin(), uses.end(),
                   [](const MsprobeUse& a, const MsprobeUse& b) { return a.range.start < b.range.start; });
  f.msprobe = std::move(uses);
}

}  // namespace msprobe::analysis
