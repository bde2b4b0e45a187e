// Loop roles: which loop trains (forward + backward + optimizer step per
// iteration), evaluates, runs inference or warms up, and which expression is
// the model. Calls made through helper functions of the same file count at
// the helper's call site in the loop.
#include <algorithm>
#include <cctype>
#include <set>
#include <string_view>
#include <unordered_map>

#include "derive.h"

namespace msprobe::analysis {
namespace {

bool ends_with(const std::string& s, std::string_view p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
bool contains(const std::string& s, std::string_view p) { return s.find(p) != std::string::npos; }
bool inside(ByteRange inner, ByteRange outer) { return inner.start >= outer.start && inner.end <= outer.end; }

struct Names {
  std::set<std::string> debuggers;
  std::set<std::string> optimizers;  // assigned from torch.optim.* or similar
  std::set<std::string> models;      // assigned from a module construction
};

Names collect_names(const FileFacts& f) {
  Names n;
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Construct && !u.bound_to.empty()) n.debuggers.insert(u.bound_to);
    if (!u.receiver.empty()) n.debuggers.insert(u.receiver);
  }
  std::set<std::string> module_classes;
  for (const ClassDef& c : f.classes) {
    for (const std::string& b : c.bases) {
      std::string q = f.qualify(b);
      if (contains(q, "torch.nn") || ends_with(b, "Module") || contains(b, "nn.")) module_classes.insert(c.name);
    }
  }
  for (const Assignment& a : f.assignments) {
    if (a.value_call < 0) continue;
    const Call& c = f.calls[static_cast<std::size_t>(a.value_call)];
    std::string q = c.qualified;
    if (q.rfind("torch.optim.", 0) == 0 || contains(lower(c.callee), "optim")) n.optimizers.insert(a.target);
    if (module_classes.count(c.callee) || q.rfind("torch.nn.", 0) == 0 || contains(lower(c.callee), "model") ||
        q.rfind("transformers.", 0) == 0)
      n.models.insert(a.target);
  }
  return n;
}

std::string receiver_of(const std::string& callee) {
  std::size_t dot = callee.rfind('.');
  return dot == std::string::npos ? std::string() : callee.substr(0, dot);
}

bool is_backward(const Call& c, const Names& n) {
  if (!ends_with(c.callee, ".backward") && c.qualified != "torch.autograd.backward") return false;
  return !n.debuggers.count(receiver_of(c.callee));
}

bool is_optimizer_step(const Call& c, const Names& n) {
  if (!ends_with(c.callee, ".step")) return false;
  std::string recv = receiver_of(c.callee);
  if (n.debuggers.count(recv)) return false;
  std::string l = lower(recv);
  if (contains(l, "sched") || contains(l, "env") || contains(l, "lr") || contains(l, "debug") || contains(l, "bar") ||
      contains(l, "progress") || contains(l, "writer"))
    return false;
  return n.optimizers.count(recv) || contains(l, "opt") || contains(l, "scaler") || contains(l, "engine") ||
         contains(l, "accelerator") || contains(l, "trainer");
}

bool is_forward(const Call& c, const Names& n) {
  const std::string& callee = c.callee;
  if (n.models.count(callee)) return true;
  std::string last = callee.substr(callee.rfind('.') == std::string::npos ? 0 : callee.rfind('.') + 1);
  if (callee.find('.') != std::string::npos && callee.rfind("self.", 0) != 0) return false;  // x.method(...)
  std::string l = lower(last);
  return contains(l, "model") || l == "net" || ends_with(l, "net") || l == "engine" || contains(l, "generator") ||
         contains(l, "discriminator") || l == "netg" || l == "netd" || l == "policy" || l == "encoder" ||
         l == "decoder" || l == "classifier";
}

// The file's functions by name (the first of each name), so that following
// a helper call costs a lookup, not a scan of every function per call.
struct FunctionIndex {
  std::unordered_map<std::string_view, int> free, methods;
  explicit FunctionIndex(const FileFacts& f) {
    for (std::size_t i = 0; i < f.functions.size(); ++i) {
      const Function& fn = f.functions[i];
      (fn.class_name.empty() ? free : methods).emplace(fn.name, static_cast<int>(i));
    }
  }
};

// Functions of this file called by `c` (by name, or self.method in a class).
int called_function(const FunctionIndex& index, const Call& c) {
  std::string_view callee = c.callee;
  bool self = callee.compare(0, 5, "self.") == 0;
  const auto& names = self ? index.methods : index.free;
  auto it = names.find(self ? callee.substr(5) : callee);
  return it == names.end() ? -1 : it->second;
}

struct Sites {
  std::vector<ByteRange> forward, backward, step;
  std::string model;
  bool generate = false;
};

// Sites of the calls inside `range`; helper calls are followed (depth-limited)
// and reported at the call site.
void gather(const FileFacts& f, const Names& n, const FunctionIndex& index, ByteRange range, int depth,
            ByteRange* site_override, Sites& out, std::set<int>& visiting) {
  // Calls are in source order (pre-order, so by start offset): visit only
  // those starting inside `range` instead of every call in the file for each
  // loop and helper, which was quadratic in the file size.
  auto first = std::lower_bound(f.calls.begin(), f.calls.end(), range.start,
                                [](const Call& c, uint32_t start) { return c.range.start < start; });
  for (auto it = first; it != f.calls.end() && it->range.start <= range.end; ++it) {
    const Call& c = *it;
    if (!inside(c.range, range)) continue;
    ByteRange at = site_override ? *site_override : c.range;
    if (is_backward(c, n)) out.backward.push_back(at);
    else if (is_optimizer_step(c, n)) out.step.push_back(at);
    else if (is_forward(c, n)) {
      out.forward.push_back(at);
      if (out.model.empty()) out.model = c.callee;
    } else if (ends_with(c.callee, ".generate")) {
      out.generate = true;
      out.forward.push_back(at);
      if (out.model.empty()) out.model = receiver_of(c.callee);
    } else if (depth < 3) {
      int fn = called_function(index, c);
      if (fn >= 0 && !visiting.count(fn)) {
        visiting.insert(fn);
        ByteRange site = site_override ? *site_override : c.range;
        gather(f, n, index, f.functions[static_cast<std::size_t>(fn)].body, depth + 1, &site, out, visiting);
        visiting.erase(fn);
      }
    }
  }
}

bool under_no_grad(const FileFacts& f, ByteRange r) {
  for (const WithBlock& w : f.with_blocks) {
    if (!inside(r, w.range)) continue;
    for (const std::string& item : w.items) {
      if (contains(item, "no_grad") || contains(item, "inference_mode")) return true;
    }
  }
  return false;
}

void dedupe(std::vector<ByteRange>& v) {
  std::sort(v.begin(), v.end(), [](ByteRange a, ByteRange b) { return a.start < b.start; });
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

const char* to_string(LoopRole r) {
  switch (r) {
    case LoopRole::None: return "none";
    case LoopRole::Train: return "train";
    case LoopRole::Eval: return "eval";
    case LoopRole::Inference: return "inference";
    case LoopRole::Warmup: return "warmup";
  }
  return "none";
}

void derive_loops(std::string_view, FileFacts& f) {
  Names names = collect_names(f);
  FunctionIndex index(f);
  std::vector<LoopInfo> infos(f.loops.size());
  std::vector<Sites> sites(f.loops.size());
  for (std::size_t i = 0; i < f.loops.size(); ++i) {
    std::set<int> visiting;
    if (f.loops[i].function >= 0) visiting.insert(f.loops[i].function);
    gather(f, names, index, f.loops[i].body, 0, nullptr, sites[i], visiting);
    for (auto* v : {&sites[i].forward, &sites[i].backward, &sites[i].step}) dedupe(*v);
  }
  // Loops inside nn.Module.forward never carry a role.
  auto in_forward_method = [&](const Loop& l) {
    return l.function >= 0 && f.functions[static_cast<std::size_t>(l.function)].name == "forward";
  };
  for (std::size_t i = 0; i < f.loops.size(); ++i) {
    const Loop& l = f.loops[i];
    LoopInfo& info = infos[i];
    info.loop = static_cast<int>(i);
    const Sites& s = sites[i];
    if (in_forward_method(l)) continue;
    if (!s.backward.empty() && !s.step.empty()) info.role = LoopRole::Train;
    else if (!s.forward.empty() && s.backward.empty()) {
      bool eval = under_no_grad(f, l.range);
      std::string fn = l.function >= 0 ? lower(f.functions[static_cast<std::size_t>(l.function)].name) : "";
      if (contains(fn, "eval") || contains(fn, "valid") || contains(fn, "test")) eval = true;
      info.role = s.generate || !eval ? LoopRole::Inference : LoopRole::Eval;
      if (eval && !s.generate) info.role = LoopRole::Eval;
    }
    std::string header = lower(l.iterable + " " + l.target);
    if (info.role != LoopRole::None && contains(header, "warm")) info.role = LoopRole::Warmup;
    info.model = s.model;
    info.forward = s.forward;
    info.backward = s.backward;
    info.step = s.step;
  }
  // An outer loop whose role comes only from an inner loop is the epoch loop;
  // a gradient-accumulation inner loop (backward, no step) belongs to its outer
  // train loop.
  for (std::size_t i = 0; i < f.loops.size(); ++i) {
    int parent = f.loops[i].parent;
    if (parent < 0) continue;
    LoopInfo& inner = infos[i];
    LoopInfo& outer = infos[static_cast<std::size_t>(parent)];
    if (inner.role == LoopRole::Train && outer.role == LoopRole::Train) {
      outer.role = LoopRole::None;
      inner.epoch_loop = parent;
    } else if (inner.role != LoopRole::None && outer.role == inner.role) {
      outer.role = LoopRole::None;
      inner.epoch_loop = parent;
    } else if (outer.role == LoopRole::Train && inner.role != LoopRole::Train) {
      inner.role = LoopRole::None;  // micro-steps of an accumulation loop
    }
  }
  f.loop_info.clear();
  for (auto& info : infos) {
    if (info.role != LoopRole::None) f.loop_info.push_back(std::move(info));
  }
}

}  // namespace msprobe::analysis
