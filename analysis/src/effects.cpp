// Call effects and their folding (see effects.h). Calls are sorted by
// position (the facts builder walks the tree in order), so the sites of a
// body are found by binary search: a derivation is linear in the calls times
// the nesting depth.
#include "effects.h"

#include <algorithm>

#include "bindings.h"
#include "facts_builder.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

// `a.b.c`: names joined by dots, nothing else.
bool plain_dotted(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.' || (s.front() >= '0' && s.front() <= '9')) return false;
  char prev = '.';
  for (char c : s) {
    if (c == '.') {
      if (prev == '.') return false;
    } else if (!is_name_char(c)) {
      return false;
    }
    prev = c;
  }
  return true;
}

// Modules whose functions never reach project code: a call into them is not
// worth a target (it keeps a big project's summaries small).
bool library_root(std::string_view qualified) {
  static const std::string_view kRoots[] = {
      "torch",    "torch_npu", "numpy",   "os",           "sys",          "math",       "random",     "logging",
      "time",     "json",      "re",      "collections",  "itertools",    "functools",  "typing",     "dataclasses",
      "pathlib",  "argparse",  "copy",    "pickle",       "shutil",       "subprocess", "warnings",   "datetime",
      "glob",     "tqdm",      "wandb",   "inspect",      "contextlib",   "socket",     "threading",  "multiprocessing",
      "signal",   "gc",        "io",      "csv",          "string",       "uuid",       "hashlib",    "tempfile",
      "platform", "traceback", "yaml",    "tensorboardX", "PIL",          "cv2",        "matplotlib", "pandas",
      "scipy",    "sklearn",   "msprobe", "mindspore",    "transformers", "datasets",   "accelerate", "deepspeed",
      "vllm",     "megatron",  "apex",    "timm",         "torchvision",  "einops"};
  std::string_view root = qualified.substr(0, qualified.find('.'));
  for (std::string_view r : kRoots) {
    if (root == r) return true;
  }
  return false;
}

bool builtin_name(std::string_view n) {
  static const std::string_view kNames[] = {"print",
                                            "len",
                                            "isinstance",
                                            "issubclass",
                                            "str",
                                            "repr",
                                            "type",
                                            "id",
                                            "hasattr",
                                            "getattr",
                                            "setattr",
                                            "delattr",
                                            "vars",
                                            "dir",
                                            "list",
                                            "tuple",
                                            "dict",
                                            "set",
                                            "frozenset",
                                            "sum",
                                            "max",
                                            "min",
                                            "sorted",
                                            "reversed",
                                            "zip",
                                            "enumerate",
                                            "iter",
                                            "next",
                                            "range",
                                            "int",
                                            "float",
                                            "bool",
                                            "abs",
                                            "round",
                                            "open",
                                            "map",
                                            "filter",
                                            "any",
                                            "all",
                                            "super",
                                            "object",
                                            "callable",
                                            "format",
                                            "hash",
                                            "divmod",
                                            "pow",
                                            "chr",
                                            "ord",
                                            "bytes",
                                            "bytearray",
                                            "slice",
                                            "exec",
                                            "eval",
                                            "globals",
                                            "locals",
                                            "input",
                                            "hex",
                                            "oct",
                                            "bin",
                                            "ValueError",
                                            "TypeError",
                                            "RuntimeError",
                                            "KeyError",
                                            "IndexError",
                                            "NotImplementedError",
                                            "AssertionError",
                                            "Exception",
                                            "StopIteration",
                                            "AttributeError",
                                            "OSError",
                                            "ImportError"};
  for (std::string_view k : kNames) {
    if (n == k) return true;
  }
  return false;
}

// nn.Module's own methods that do not run the model.
bool module_housekeeping(std::string_view method) {
  static const std::string_view kNames[] = {"parameters",
                                            "named_parameters",
                                            "buffers",
                                            "named_buffers",
                                            "children",
                                            "named_children",
                                            "modules",
                                            "named_modules",
                                            "state_dict",
                                            "load_state_dict",
                                            "train",
                                            "eval",
                                            "to",
                                            "cuda",
                                            "cpu",
                                            "npu",
                                            "xpu",
                                            "half",
                                            "float",
                                            "double",
                                            "bfloat16",
                                            "zero_grad",
                                            "requires_grad_",
                                            "apply",
                                            "add_module",
                                            "register_module",
                                            "register_buffer",
                                            "register_parameter",
                                            "register_forward_hook",
                                            "register_forward_pre_hook",
                                            "register_full_backward_hook",
                                            "register_backward_hook",
                                            "get_submodule",
                                            "get_parameter",
                                            "get_buffer",
                                            "extra_repr",
                                            "share_memory",
                                            "type",
                                            "save_pretrained",
                                            "from_pretrained",
                                            "resize_token_embeddings",
                                            "gradient_checkpointing_enable",
                                            "gradient_checkpointing_disable",
                                            "tie_weights",
                                            "num_parameters",
                                            "get_input_embeddings",
                                            "get_output_embeddings",
                                            "set_input_embeddings",
                                            "print_trainable_parameters",
                                            "module",
                                            "compile",
                                            "backward",
                                            "step",
                                            "no_sync",
                                            "join",
                                            "train_batch",
                                            "eval_batch"};
  for (std::string_view k : kNames) {
    if (method == k) return true;
  }
  return false;
}

// The model a call hands over to code this file cannot see (an imported
// `compute_loss(model, batch)`, `trainer_step(model=model, ...)`): where the
// loop has no forward of its own, that call is where it runs.
std::string model_argument(const Call& c, const Bindings& b) {
  static const std::string_view kNotForward[] = {
      "print", "len",   "isinstance", "str", "repr", "type", "id",     "hasattr", "getattr",   "setattr", "vars", "dir",
      "list",  "tuple", "dict",       "sum", "max",  "min",  "sorted", "zip",     "enumerate", "iter",    "next"};
  std::string_view callee = c.callee;
  if (c.qualified.rfind("torch.", 0) == 0 || c.qualified.rfind("copy.", 0) == 0 ||
      c.qualified.rfind("logging.", 0) == 0)
    return {};
  for (std::string_view n : kNotForward) {
    if (callee == n) return {};
  }
  std::string_view last = last_name(callee);
  if (last == "save" || last == "load" || last == "info" || last == "debug" || last == "log" || last == "append")
    return {};
  for (const Argument& a : c.args) {
    if (!a.keyword.empty() && a.keyword != "model" && a.keyword != "net" && a.keyword != "module") continue;
    if (b.is_model(a.text)) return a.text;
  }
  return {};
}

// The class of this file whose method `fn` is, through enclosing defs.
int class_of(const FileFacts& f, int fn) {
  for (; fn >= 0; fn = f.functions[static_cast<std::size_t>(fn)].parent) {
    int cls = f.functions[static_cast<std::size_t>(fn)].class_index;
    if (cls >= 0) return cls;
  }
  return -1;
}

class EffectBuilder {
 public:
  EffectBuilder(const FileFacts& f, const Bindings& b) : f_(f), b_(b), assigned_(b.assignments()) {}

  ModuleEffects run(const PreviousEffects* previous) {
    ModuleEffects m;
    m.bindings_key = b_.key();
    m.functions.reserve(f_.functions.size());
    for (const Function& d : f_.functions)
      m.functions.push_back({d.name, d.class_index, d.parent, d.range, d.body, d.line, d.params});
    m.loops.reserve(f_.loops.size());
    for (const Loop& l : f_.loops) m.loops.push_back({l.range, l.body, l.function, l.parent, l.line});
    m.classes.reserve(f_.classes.size());
    for (std::size_t i = 0; i < f_.classes.size(); ++i) {
      const ClassDef& c = f_.classes[i];
      m.classes.push_back({c.name, c.bases, c.line, b_.is_module_class(static_cast<int>(i))});
    }
    // msProbe's calls do none of the loop's work; what they do is kept as dump bits.
    std::vector<Effects> dump(f_.calls.size(), 0);
    std::vector<bool> msprobe_call(f_.calls.size(), false);
    for (const MsprobeUse& u : f_.msprobe) {
      if (u.call < 0) continue;
      std::size_t ci = static_cast<std::size_t>(u.call);
      msprobe_call[ci] = true;
      switch (u.kind) {
        case MsprobeKind::Start: dump[ci] = kDumpStart; break;
        case MsprobeKind::Stop:
        case MsprobeKind::ForwardBackwardDumpEnd: dump[ci] = kDumpStop; break;
        case MsprobeKind::Step: dump[ci] = kDumpStep; break;
        case MsprobeKind::Construct: dump[ci] = kDumpConstruct; break;
        case MsprobeKind::SeedAll: dump[ci] = kDumpSeed; break;
        default: break;
      }
    }
    const std::vector<int> kept = reusable_calls(previous, m, msprobe_call);
    std::vector<int> old_site;  // per previous call: its site, -1 for none
    if (!kept.empty()) {
      old_site.assign(previous->facts->calls.size(), -1);
      const std::vector<CallSite>& os = previous->effects->sites;
      for (std::size_t i = 0; i < os.size(); ++i) {
        if (os[i].call >= 0 && static_cast<std::size_t>(os[i].call) < old_site.size())
          old_site[static_cast<std::size_t>(os[i].call)] = static_cast<int>(i);
      }
    }
    stats_ = {};
    for (std::size_t ci = 0; ci < f_.calls.size(); ++ci) {
      if (msprobe_call[ci]) {
        if (dump[ci] == 0) continue;
        CallSite s;
        s.at = f_.calls[ci].range;
        s.line = f_.calls[ci].line;
        s.function = f_.calls[ci].function;
        s.kinds = dump[ci];
        s.call = static_cast<int>(ci);
        m.sites.push_back(std::move(s));
        continue;
      }
      if (!kept.empty() && kept[ci] >= 0) {
        ++stats_.reused;
        int os = old_site[static_cast<std::size_t>(kept[ci])];
        if (os < 0) continue;  // no site before, none now
        const ModuleEffects& om = *previous->effects;
        CallSite s = om.sites[static_cast<std::size_t>(os)];
        s.at = f_.calls[ci].range;
        s.line = f_.calls[ci].line;
        s.function = f_.calls[ci].function;
        s.call = static_cast<int>(ci);
        if (s.target >= 0) {
          m.targets.push_back(om.targets[static_cast<std::size_t>(s.target)]);
          s.target = static_cast<int>(m.targets.size()) - 1;
        }
        m.sites.push_back(std::move(s));
        continue;
      }
      ++stats_.derived;
      CallSite s = site(f_.calls[ci], m.targets);
      s.call = static_cast<int>(ci);
      if (s.kinds == 0 && s.helper < 0 && s.closure < 0 && s.target < 0 && s.passed_model.empty()) continue;
      if (s.helper >= 0 || s.closure >= 0 || s.target >= 0) {
        for (const Argument& a : f_.calls[ci].args) s.args.push_back({a.keyword, a.text});
      }
      m.sites.push_back(std::move(s));
    }
    // A manual update after loss.backward() is the optimizer step (issue 14,
    // item 6): `w -= lr * w.grad`, `p.data = p.data - lr * p.grad`.
    bool added = false;
    for (const Assignment& a : f_.assignments) {
      if (a.targets.size() != 1 || a.statement < 0 || !uses_own_grad(a.targets[0], a.value)) continue;
      CallSite s;
      s.at = a.range;
      s.line = f_.statements[static_cast<std::size_t>(a.statement)].line;
      s.function = a.function;
      s.kinds = kStep;
      m.sites.push_back(std::move(s));
      added = true;
    }
    if (added) {
      std::stable_sort(m.sites.begin(), m.sites.end(),
                       [](const CallSite& x, const CallSite& y) { return x.at.start < y.at.start; });
    }
    return m;
  }

  EffectsBuildStats stats() const { return stats_; }

  // `param` (or `param.data`) updated from its own gradient: `text` reads `param.grad`.
  static bool uses_own_grad(std::string_view param, std::string_view text) {
    if (text.find(".grad") == std::string_view::npos) return false;  // most values: no key to build
    while (ends_with(param, ".data")) param.remove_suffix(5);
    if (param.empty() || !plain_dotted(param) || ends_with(param, ".grad")) return false;
    std::string key = std::string(param) + ".grad";
    for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
      bool starts = at == 0 || !(is_name_char(text[at - 1]) || text[at - 1] == '.');
      std::size_t end = at + key.size();
      bool ends = end == text.size() || !is_name_char(text[end]);
      if (starts && ends) return true;
    }
    return false;
  }

 private:
  // For each call, the previous build's call whose site it may keep (see
  // build_effects), -1 where it must be derived; empty when nothing can be kept.
  std::vector<int> reusable_calls(const PreviousEffects* previous, const ModuleEffects& now,
                                  const std::vector<bool>& msprobe_call) const {
    if (!previous || !previous->facts || !previous->effects || !f_.chunks || !previous->facts->chunks) return {};
    const FileFacts& of = *previous->facts;
    const ModuleEffects& om = *previous->effects;
    if (om.bindings_key != now.bindings_key || om.functions.size() != now.functions.size() ||
        om.classes.size() != now.classes.size())
      return {};
    for (std::size_t i = 0; i < now.functions.size(); ++i) {
      const FunctionShape &a = om.functions[i], &b = now.functions[i];
      if (a.name != b.name || a.class_index != b.class_index || a.parent != b.parent || a.params != b.params) return {};
    }
    for (std::size_t i = 0; i < now.classes.size(); ++i) {
      const ClassShape &a = om.classes[i], &b = now.classes[i];
      if (a.name != b.name || a.bases != b.bases || a.module != b.module) return {};
    }
    std::vector<bool> old_msprobe(of.calls.size(), false);
    for (const MsprobeUse& u : of.msprobe) {
      if (u.call >= 0 && static_cast<std::size_t>(u.call) < old_msprobe.size())
        old_msprobe[static_cast<std::size_t>(u.call)] = true;
    }
    constexpr std::size_t kCalls = static_cast<std::size_t>(FactList::Calls);
    const std::vector<FactChunk>& nc = f_.chunks->chunks;
    const std::vector<FactChunk>& oc = of.chunks->chunks;
    std::vector<int> kept(f_.calls.size(), -1);
    for (std::size_t k = 0; k < nc.size(); ++k) {
      if (nc[k].reused_from < 0) continue;
      std::size_t j = static_cast<std::size_t>(nc[k].reused_from);
      if (j >= oc.size()) return {};
      std::size_t nb = nc[k].begin[kCalls], ne = k + 1 < nc.size() ? nc[k + 1].begin[kCalls] : f_.calls.size();
      std::size_t ob = oc[j].begin[kCalls], oe = j + 1 < oc.size() ? oc[j + 1].begin[kCalls] : of.calls.size();
      if (ne - nb != oe - ob || ne > f_.calls.size() || oe > of.calls.size()) return {};
      for (std::size_t i = 0; i < ne - nb; ++i) {
        const Call &c = f_.calls[nb + i], &o = of.calls[ob + i];
        if (c.function < 0 || msprobe_call[nb + i] || old_msprobe[ob + i] || c.qualified != o.qualified ||
            c.callee != o.callee)
          continue;
        kept[nb + i] = static_cast<int>(ob + i);
      }
    }
    return kept;
  }

  CallSite site(const Call& c, std::vector<CallTarget>& targets) const {
    CallSite e;
    e.at = c.range;
    e.line = c.line;
    e.function = c.function;
    std::string_view callee = c.callee, last = last_name(callee), recv = receiver_of(callee);
    e.receiver = std::string(recv);
    auto target = [&](CallTarget t) {
      e.target = static_cast<int>(targets.size());
      targets.push_back(std::move(t));
    };
    if (last == "backward" && !recv.empty()) {
      int fn = b_.resolve_function(c);
      if (fn >= 0) e.helper = fn;
      else if (!(b_.holds(recv) & kDebugger)) e.kinds = kBackward;
      return e;
    }
    if (c.qualified == "torch.autograd.backward") {
      e.kinds = kBackward;
      return e;
    }
    if (last == "step" && !recv.empty()) {
      if (b_.steps_optimizer(recv)) {
        e.kinds = kStep;
        // optimizer.step(closure): the closure runs forward and backward here.
        for (const Argument& a : c.args) {
          if (!a.keyword.empty() && a.keyword != "closure") continue;
          int fn = b_.resolve_callee(a.text, c.function);
          if (fn >= 0) e.closure = fn;
          break;
        }
      } else {
        e.helper = b_.resolve_function(c);  // self.step(batch) in a trainer class
        if (std::optional<CallTarget> t = elsewhere(c)) target(std::move(*t));
      }
      return e;
    }
    uint32_t h = b_.holds(callee);
    if (h & kOptimizer) {  // mindspore: optimizer(grads)
      e.kinds = kStep;
      return e;
    }
    if (h & kGradFn) {  // mindspore: grad_fn(data, label) runs forward and backward
      e.kinds = kBackward;
      e.helper = b_.grad_target(callee);
      return e;
    }
    if (!recv.empty() && (last == "generate" || last == "chat") && (b_.is_model(recv) || (b_.holds(recv) & kLlm))) {
      e.kinds = kForward | kGenerate;
      e.model = std::string(recv);
      return e;
    }
    if (!recv.empty() && last == "replay" && (b_.holds(recv) & kGraph)) {
      e.kinds = kForward;  // a captured graph: no eager model
      return e;
    }
    if (!recv.empty() && last == "forward" && b_.is_model(recv)) {
      e.kinds = kForward;
      e.model = std::string(recv);
      return e;
    }
    int fn = b_.resolve_function(c);
    if (fn >= 0) {
      e.helper = fn;
      if (std::optional<CallTarget> t = elsewhere(c)) target(std::move(*t));
      return e;
    }
    // Lightning's hooks, when the file does not define them: manual_backward(loss)
    // runs the backward, optimizer_step(...) the step.
    if (last == "manual_backward") {
      e.kinds = kBackward;
      return e;
    }
    if (last == "optimizer_step" && !recv.empty()) {
      e.kinds = kStep;
      return e;
    }
    // Any other method of an object built as an nn.Module runs it
    // (`agent.get_value(obs)`, `vae.encode(x)`): the object is the model.
    if (!recv.empty() && (b_.holds(recv) & kModel) && !(b_.holds(recv) & kEngine) && !module_housekeeping(last)) {
      e.kinds = kForward;
      e.model = std::string(recv);
      return e;
    }
    if (b_.is_model(callee)) {
      e.kinds = kForward;
      e.model = std::string(callee);
      return e;
    }
    if (std::optional<CallTarget> t = elsewhere(c)) target(std::move(*t));
    e.passed_model = model_argument(c, b_);
    // A callable this file does not define, handed the loss and the optimizer,
    // runs the backward and the step: timm/MAE's `loss_scaler(loss, optimizer,
    // parameters=...)`, an imported `backward_and_step(loss, opt)`.
    if (hands_loss_and_optimizer(c)) e.kinds |= kBackward | kStep;
    // `p.data.add_(-lr * p.grad)`, `p.add_(p.grad, alpha=-lr)`: a manual update is the step.
    if (!recv.empty() &&
        (last == "add_" || last == "sub_" || last == "copy_" || last == "addcmul_" || last == "addcdiv_")) {
      for (const Argument& a : c.args) {
        if (uses_own_grad(recv, a.text)) e.kinds |= kStep;
      }
    }
    return e;
  }

  bool hands_loss_and_optimizer(const Call& c) const {
    bool optimizer = false, loss = false;
    for (const Argument& a : c.args) {
      if (!plain_dotted(a.text)) continue;
      uint32_t h = b_.holds(a.text);
      if ((h & kOptimizer) || (h == 0 && b_.steps_optimizer(a.text) && !(h & kScaler))) optimizer = true;
      else if ((h == 0 || (h & kOther)) && !b_.is_model(a.text)) loss = loss || from_forward(a.text, c.function, 0);
    }
    return optimizer && loss;
  }

  // `name` holds a value computed in def `fn` (-1: module level) from a
  // forward: a model's or a loss module's output, or an expression over such
  // values (`loss = criterion(out, y)`, `loss = out.mean()`).
  bool from_forward(std::string_view name, int fn, int depth) const {
    if (depth > 3) return false;
    auto [it, fresh] = from_forward_.try_emplace(NameIn{fn, name}, false);  // false while in progress
    if (!fresh) return it->second;
    bool* answer = &it->second;  // elements stay put when the table grows
    *answer = from_forward_uncached(name, fn, depth);
    return *answer;
  }

  bool from_forward_uncached(std::string_view name, int fn, int depth) const {
    for (const AssignmentsByTarget::Entry& e : assigned_.of(name, fn)) {
      const AssignmentsByTarget::Ref r = e.ref;
      const Assignment& a = f_.assignments[static_cast<std::size_t>(r.assignment)];
      std::size_t t = static_cast<std::size_t>(r.element);
      bool paired = a.targets.size() == a.values.size();
      int vc = paired && t < a.value_calls.size() ? a.value_calls[t] : a.value_call;
      if (vc >= 0) {
        const std::string& callee = f_.calls[static_cast<std::size_t>(vc)].callee;
        std::string_view recv = receiver_of(callee);
        if (!constructs(callee) &&
            (b_.is_model(callee) || (b_.holds(callee) & (kModel | kLoss)) || (!recv.empty() && b_.is_model(recv))))
          return true;
      }
      const std::string& value = paired ? a.values[t] : a.value;
      if (uses_forward_value(value, fn, depth)) return true;
    }
    return false;
  }

  // Some plain name in `text` (not a callee, not an attribute) holds a value from a forward.
  bool uses_forward_value(std::string_view text, int fn, int depth) const {
    return for_each_name(text, [&](std::string_view name, bool called, bool attribute) {
      if (attribute) return false;
      if (!called) return from_forward(name, fn, depth + 1);
      if (!constructs(name) && (b_.is_model(name) || (b_.holds(name) & kLoss))) return true;  // `model(x).mean()`
      std::string_view recv = receiver_of(name);  // `out.mean()`: the receiver is the value
      return !recv.empty() && from_forward(recv, fn, depth + 1);
    });
  }

  // `Net()`: a class being built, not a module being run.
  static bool constructs(std::string_view callee) { return upper_first(last_name(callee)); }

  // Where a call may run code this file's own resolution does not settle:
  // an imported (or undefined) name, a method of an instance of a class the
  // file does not define, a method a subclass may override, a base's method.
  std::optional<CallTarget> elsewhere(const Call& c) const {
    std::string_view callee = c.callee;
    if (starts_with(callee, "super().") && plain_dotted(callee.substr(8))) {
      int cls = class_of(f_, c.function);
      if (cls < 0 || callee.find('.', 8) != std::string_view::npos) return std::nullopt;
      return CallTarget{CallTarget::Via::Super, std::string(callee.substr(8)), {}, cls};
    }
    std::string_view recv = receiver_of(callee), last = last_name(callee);
    // `Trainer(cfg).train()`: a method of the object just built.
    if (!recv.empty() && recv.back() == ')' && plain_dotted(last)) {
      int inner = b_.call_at({c.callee_range.start, c.callee_range.start + static_cast<uint32_t>(recv.size())});
      if (inner < 0) return std::nullopt;
      const std::string& ctor = f_.calls[static_cast<std::size_t>(inner)].callee;
      if (!plain_dotted(ctor) || builtin_name(ctor)) return std::nullopt;
      return CallTarget{CallTarget::Via::Instance, std::string(last), ctor, -1};
    }
    if (!plain_dotted(callee)) return std::nullopt;
    if (recv == "self" || recv == "cls") {
      int cls = class_of(f_, c.function);
      if (cls < 0) return std::nullopt;
      return CallTarget{CallTarget::Via::Self, std::string(last), {}, cls};
    }
    if (recv.empty()) {
      if (builtin_name(callee) || b_.is_local_callable(callee)) return std::nullopt;
      if (!c.qualified.empty() && library_root(c.qualified)) return std::nullopt;
      return CallTarget{CallTarget::Via::Name, std::string(callee), {}, -1};
    }
    // A receiver built from a class of another module.
    if (std::string ctor = b_.constructor_of(recv); !ctor.empty())
      return CallTarget{CallTarget::Via::Instance, std::string(last), std::move(ctor), -1};
    // `module.function(...)`, `Class.method(...)` through an import.
    std::string_view root = callee.substr(0, callee.find('.'));
    if (b_.imported(root)) {
      if (!c.qualified.empty() && library_root(c.qualified)) return std::nullopt;
      return CallTarget{CallTarget::Via::Name, std::string(callee), {}, -1};
    }
    return std::nullopt;
  }

  const FileFacts& f_;
  const Bindings& b_;
  const AssignmentsByTarget& assigned_;  // the bindings' index
  // A name in a def; the name is a view into the facts' strings, which
  // outlive this builder.
  struct NameIn {
    int fn;
    std::string_view name;
    bool operator==(const NameIn& o) const { return fn == o.fn && name == o.name; }
  };
  struct NameInHash {
    std::size_t operator()(const NameIn& k) const {
      return std::hash<std::string_view>{}(k.name) * 31u + static_cast<std::size_t>(k.fn + 1);
    }
  };
  mutable std::unordered_map<NameIn, bool, NameInHash> from_forward_;  // (def, name) -> answer
  EffectsBuildStats stats_;
};

thread_local EffectsBuildStats g_last_stats;

}  // namespace

ModuleEffects build_effects(const FileFacts& facts, const Bindings& bindings, const PreviousEffects* previous) {
  EffectBuilder builder(facts, bindings);
  ModuleEffects m = builder.run(previous);
  g_last_stats = builder.stats();
  return m;
}

EffectsBuildStats last_effects_build_stats() { return g_last_stats; }

bool loop_has_role(Effects k) {
  bool train = (k & kBackward) && (k & kStep);
  bool forward_only = (k & kForward) && !(k & kBackward) && !(k & kStep);
  return train || forward_only;
}

void add_model(std::vector<std::string>& models, const std::string& m) {
  if (!m.empty() && std::find(models.begin(), models.end(), m) == models.end()) models.push_back(m);
}

std::string model_in_caller(const std::string& model, const FunctionShape& h, const CallSite& site) {
  if (model.empty()) return model;
  std::size_t dot = model.find('.');
  std::string root = model.substr(0, dot);
  auto it = std::find(h.params.begin(), h.params.end(), root);
  if (it == h.params.end()) return model;
  std::size_t index = static_cast<std::size_t>(it - h.params.begin());
  bool bound_self = h.class_index >= 0 && !h.params.empty() && (h.params[0] == "self" || h.params[0] == "cls") &&
                    !site.receiver.empty();
  if (bound_self) {
    if (index == 0) {
      // `self.model` stays as written through `self.method()`; through
      // `trainer.method()` it is `trainer.model`.
      const std::string& r = site.receiver;
      if (r == "self" || r == "cls" || r == "super()" || !plain_dotted(r)) return model;
      return dot == std::string::npos ? r : r + model.substr(dot);
    }
    --index;
  }
  std::string arg;
  std::size_t positional = 0;
  for (const CallArg& a : site.args) {
    if (a.keyword == root) {
      arg = a.text;
      break;
    }
    if (a.keyword.empty()) {
      if (!a.text.empty() && a.text[0] == '*') break;
      if (positional++ == index) {
        arg = a.text;
        break;
      }
    }
  }
  if (arg.empty()) return model;
  return dot == std::string::npos ? arg : arg + model.substr(dot);
}

EffectSolver::EffectSolver(const ModuleEffects& module, EffectResolver* resolver) : m_(module), resolver_(resolver) {
  fn_state_.assign(m_.functions.size(), 0);
  fn_effects_.resize(m_.functions.size());
  loop_state_.assign(m_.loops.size(), 0);
  loop_kinds_.assign(m_.loops.size(), 0);
  loop_sites_.resize(m_.loops.size());
}

namespace {

// Sites whose call starts in [r.start, r.end), as [first, end) indices.
std::pair<std::size_t, std::size_t> sites_in(const std::vector<CallSite>& sites, ByteRange r) {
  auto lo = std::lower_bound(sites.begin(), sites.end(), r.start,
                             [](const CallSite& c, uint32_t pos) { return c.at.start < pos; });
  auto hi = std::lower_bound(lo, sites.end(), r.end, [](const CallSite& c, uint32_t pos) { return c.at.start < pos; });
  return {static_cast<std::size_t>(lo - sites.begin()), static_cast<std::size_t>(hi - sites.begin())};
}

}  // namespace

// The effect of what `s` reaches (helper, closure, target), added to
// `kinds`/`models`. `region` is the body being summarised: a closure defined
// in it is already counted where its calls are.
void EffectSolver::add_call(const CallSite& s, int depth, Effects& kinds, std::vector<std::string>& models,
                            bool first_model_only, ByteRange region) {
  auto fold = [&](const FunctionEffect& h, const FunctionShape* shape) {
    kinds |= h.kinds;
    if (first_model_only) {
      if (models.empty() && (h.kinds & kForward) && !h.models.empty())
        models.push_back(shape ? model_in_caller(h.models.front(), *shape, s) : h.models.front());
      return;
    }
    for (const std::string& m : h.models) add_model(models, shape ? model_in_caller(m, *shape, s) : m);
  };
  if (s.target >= 0 && resolver_) {
    if (std::optional<FunctionEffect> r = resolver_->resolve(*this, s, depth + 1)) {
      fold(*r, nullptr);
      return;
    }
  }
  int helper = s.helper;
  if (s.closure >= 0 && !inside(m_.functions[static_cast<std::size_t>(s.closure)].range, region)) helper = s.closure;
  if (helper < 0) return;
  fold(function_effect(helper, depth + 1), &m_.functions[static_cast<std::size_t>(helper)]);
}

const FunctionEffect& EffectSolver::function_effect(int fn, int depth) {
  static const FunctionEffect kNothing;
  std::size_t i = static_cast<std::size_t>(fn);
  if (fn_state_[i] != 0) return fn_effects_[i];  // done, or in progress (recursion: empty so far)
  if (depth > kMaxDepth) return kNothing;
  fn_state_[i] = 1;
  FunctionEffect s;
  const FunctionShape& d = m_.functions[i];
  // Loops inside the function that have a role of their own keep their calls.
  std::vector<ByteRange> skip;
  auto lo = std::lower_bound(m_.loops.begin(), m_.loops.end(), d.body.start,
                             [](const LoopShape& l, uint32_t pos) { return l.range.start < pos; });
  for (auto it = lo; it != m_.loops.end() && it->range.start < d.body.end; ++it) {
    if (!skip.empty() && inside(it->range, skip.back())) continue;
    int li = static_cast<int>(it - m_.loops.begin());
    if (loop_has_role(loop_kinds(li, depth + 1))) skip.push_back(it->range);
  }
  auto [first, end] = sites_in(m_.sites, d.body);
  std::size_t k = 0;
  for (std::size_t ci = first; ci < end; ++ci) {
    const CallSite& c = m_.sites[ci];
    while (k < skip.size() && skip[k].end <= c.at.start) ++k;
    if (k < skip.size() && inside(c.at, skip[k])) continue;
    s.kinds |= c.kinds;
    add_model(s.models, c.model);
    if (c.helper == fn && c.target < 0) continue;
    add_call(c, depth, s.kinds, s.models, false, d.body);
  }
  fn_effects_[i] = std::move(s);
  fn_state_[i] = 2;
  return fn_effects_[i];
}

Effects EffectSolver::loop_kinds(int li, int depth) {
  std::size_t i = static_cast<std::size_t>(li);
  if (loop_state_[i] != 0) return loop_kinds_[i];
  if (depth > kMaxDepth) return 0;
  loop_state_[i] = 1;
  const LoopShape& l = m_.loops[i];
  std::vector<LoopSite> out;
  Effects all = 0;
  auto [first, end] = sites_in(m_.sites, l.body);
  std::vector<std::string> models;  // per site; one buffer for all of them
  for (std::size_t ci = first; ci < end; ++ci) {
    const CallSite& c = m_.sites[ci];
    if (c.at.end > l.body.end) continue;
    Effects kinds = c.kinds;
    models.clear();
    if (!c.model.empty()) models.push_back(c.model);
    add_call(c, depth, kinds, models, true, l.body);
    // Most sites of a body do nothing a loop cares about: built only when kept.
    if (kinds == 0 && c.passed_model.empty()) continue;
    LoopSite s{c.at, kinds, c.model, c.passed_model};
    if (s.model.empty() && !models.empty()) s.model = models.front();
    all |= kinds;
    out.push_back(std::move(s));
  }
  loop_sites_[i] = std::move(out);
  loop_kinds_[i] = all;
  loop_state_[i] = 2;
  return all;
}

const std::vector<LoopSite>& EffectSolver::sites(int li) {
  loop_kinds(li, 0);
  return loop_sites_[static_cast<std::size_t>(li)];
}

}  // namespace msprobe::analysis
