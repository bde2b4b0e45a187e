// What names hold, from their assignments: the type-ish knowledge that keeps
// `scheduler.step()` and `env.step()` from passing for optimizer steps and
// finds the model behind `compiled = torch.compile(tagger)`.
#include "bindings.h"
#include "msprobe/analysis/text_match.h"

#include <algorithm>
#include <initializer_list>

namespace msprobe::analysis {
namespace {

bool contains_any(std::string_view s, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (contains(s, w)) return true;
  }
  return false;
}

// One name: a dotted name without a dot.
bool is_identifier(std::string_view s) { return s.find('.') == std::string_view::npos && is_dotted_name(s); }

bool is_optimizer_class(std::string_view name) {
  static const std::string_view kNames[] = {"SGD",
                                            "Adam",
                                            "AdamW",
                                            "Adagrad",
                                            "Adadelta",
                                            "Adamax",
                                            "ASGD",
                                            "LBFGS",
                                            "NAdam",
                                            "RAdam",
                                            "RMSprop",
                                            "RMSProp",
                                            "Rprop",
                                            "SparseAdam",
                                            "Momentum",
                                            "Lamb",
                                            "LAMB",
                                            "LARS",
                                            "Adafactor",
                                            "FusedAdam",
                                            "FusedLAMB",
                                            "FusedSGD",
                                            "Lion",
                                            "Muon",
                                            "AdamWeightDecay",
                                            "DeepSpeedCPUAdam",
                                            "ProximalAdagrad",
                                            "FTRL",
                                            "Adan",
                                            "Novograd",
                                            "ZeroRedundancyOptimizer"};
  for (std::string_view k : kNames) {
    if (name == k) return true;
  }
  return ends_with(name, "Optimizer");
}

bool model_factory_name(std::string_view last);

// A name that reads like a model: `model`, `self.net`, `netG`, `encoder`, ...
// Not a function that makes or provides one (`get_model`, `model_provider_func`):
// calling that builds a model, it does not run one.
bool model_like_name(std::string_view last) {
  thread_local std::string buf;  // no allocation per name
  std::string_view l = lowered_into(last, buf);
  if (model_factory_name(last)) return false;
  for (std::string_view suffix : {"_func", "_fn", "provider", "factory", "builder", "_getter", "_cls", "_class"}) {
    if (ends_with(l, suffix)) return false;
  }
  if (contains_any(l, {"loss",   "criterion", "optim",  "sched",  "metric",        "token",  "config", "cfg",
                       "loader", "dataset",   "writer", "logger", "path",          "dir",    "state",  "scaler",
                       "step",   "hook",      "mask",   "param",  "weight",        "device", "dtype",  "shape",
                       "kwargs", "args",      "name",   "type",   "parallel_size", "output", "input"}))
    return false;
  return contains_any(l,
                      {"model",       "net",       "encoder",  "decoder",  "generator",   "discriminator", "classifier",
                       "policy",      "actor",     "critic",   "backbone", "transformer", "engine",        "llm",
                       "unet",        "vae",       "denoiser", "student",  "teacher",     "detector",      "regressor",
                       "autoencoder", "predictor", "tagger",   "embedder"});
}

// `build_model`, `get_model`, `load_model`, ...: a function that returns a model.
bool model_factory_name(std::string_view last) {
  thread_local std::string buf;
  std::string_view l = lowered_into(last, buf);
  if (l == "model" || !contains(l, "model")) return false;
  for (std::string_view verb : {"build", "get", "create", "load", "make", "init", "prepare", "setup", "instantiate"}) {
    if (starts_with(l, verb)) return true;
  }
  return false;
}

// Methods that return the object they are called on (for the model's purposes).
bool returns_self(std::string_view method) {
  static const std::string_view kNames[] = {"to",       "cuda",           "cpu",          "npu",     "xpu",
                                            "eval",     "train",          "half",         "float",   "double",
                                            "bfloat16", "requires_grad_", "share_memory", "to_empty"};
  for (std::string_view k : kNames) {
    if (method == k) return true;
  }
  return false;
}

// What calling an imported name (its qualified name, `q`) gives, 0 when
// unknown; the first test that matches decides.
uint32_t holds_of_imported(std::string_view q) {
  const std::string lq = lowered(q);
  const std::string_view lastq = last_name(q);
  if (starts_with(q, "msprobe.") && lastq == "PrecisionDebugger") return kDebugger;
  if (contains(lq, "scheduler") || ends_with(lastq, "LR") || lastq == "ReduceLROnPlateau" ||
      contains(lq, "schedule_with_warmup"))
    return kScheduler;
  if (q == "torch.compile") return kModel;
  if (ends_with(lastq, "GradScaler")) return kScaler;
  if (lastq == "NPUGraph" || lastq == "CUDAGraph") return kGraph;
  if (lastq == "value_and_grad" || q == "mindspore.grad" || lastq == "GradOperation") return kGradFn;
  if (q == "vllm.LLM") return kLlm;
  if ((starts_with(q, "gym.") || starts_with(q, "gymnasium.")) && lastq == "make") return kEnv;
  if (starts_with(q, "deepspeed.") && lastq == "init_inference") return kModel | kEngine;
  if (starts_with(q, "torch.optim.") || is_optimizer_class(lastq) || contains(last_name(lq), "optim"))
    return kOptimizer;
  if (ends_with(lastq, "Loss")) return kLoss;
  if (lastq == "from_pretrained" || starts_with(lastq, "AutoModel")) {
    std::string_view owner = last_name(receiver_of(q));
    return starts_with(lastq, "AutoModel") || contains(owner, "Model") || contains(owner, "For") ? kModel : kOther;
  }
  if ((starts_with(q, "timm.") && lastq == "create_model") || starts_with(q, "torchvision.models.") ||
      q == "torch.hub.load")
    return kModel;
  if (upper_first(lastq) && (starts_with(q, "torch.nn.") || contains(q, ".nn."))) return kModel;
  if (model_factory_name(lastq)) return kModel;
  return 0;
}

}  // namespace

bool is_dotted_name(std::string_view s) {
  // One pass: identifiers (not starting with a digit) joined by single dots.
  bool part_start = true;
  for (char c : s) {
    if (c == '.') {
      if (part_start) return false;
      part_start = true;
      continue;
    }
    if (!is_name_char(c) || (part_start && c >= '0' && c <= '9')) return false;
    part_start = false;
  }
  return !part_start;
}

void AssignmentsByTarget::index() const {
  // Counted per def, placed in file order, then each def's run sorted by
  // name (file order kept among equal names): one allocation in all.
  def_at_.assign(f_.functions.size() + 2, 0);
  for (const Assignment& a : f_.assignments) def_at_[static_cast<std::size_t>(a.function + 1) + 1] += a.targets.size();
  for (std::size_t k = 1; k < def_at_.size(); ++k) def_at_[k] += def_at_[k - 1];
  entries_.resize(def_at_.back());
  std::vector<uint32_t> next(def_at_.begin(), def_at_.end() - 1);
  for (std::size_t a = 0; a < f_.assignments.size(); ++a) {
    const Assignment& as = f_.assignments[a];
    uint32_t& at = next[static_cast<std::size_t>(as.function + 1)];
    for (std::size_t t = 0; t < as.targets.size(); ++t)
      entries_[at++] = Entry{{static_cast<int>(a), static_cast<int>(t)}, as.targets[t]};
  }
  auto by_name = [](const Entry& x, const Entry& y) {
    if (x.target != y.target) return x.target < y.target;
    return x.ref.assignment != y.ref.assignment ? x.ref.assignment < y.ref.assignment : x.ref.element < y.ref.element;
  };
  for (std::size_t g = 0; g + 1 < def_at_.size(); ++g)
    std::sort(entries_.begin() + def_at_[g], entries_.begin() + def_at_[g + 1], by_name);
}

AssignmentsByTarget::Refs AssignmentsByTarget::of(std::string_view target, int function) const {
  if (def_at_.empty()) index();
  const Entry* first = entries_.data() + def_at_[static_cast<std::size_t>(function + 1)];
  const Entry* last = entries_.data() + def_at_[static_cast<std::size_t>(function + 1) + 1];
  auto lo = std::lower_bound(first, last, target,
                             [](const Entry& e, std::string_view name) { return e.target < name; });
  auto hi = std::upper_bound(lo, last, target, [](std::string_view name, const Entry& e) { return name < e.target; });
  return {lo, hi};
}

Bindings::Bindings(const FileFacts& facts) : f_(facts) {
  calls_by_range_.reserve(f_.calls.size());
  for (std::size_t i = 0; i < f_.calls.size(); ++i)
    calls_by_range_.push_back({f_.calls[i].range.start, f_.calls[i].range.end, static_cast<int>(i)});
  if (!std::is_sorted(calls_by_range_.begin(), calls_by_range_.end(), call_key_less))
    std::sort(calls_by_range_.begin(), calls_by_range_.end(), call_key_less);
  for (std::size_t i = 0; i < f_.functions.size(); ++i)
    functions_by_name_[f_.functions[i].name].push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < f_.classes.size(); ++i) classes_by_name_[f_.classes[i].name] = static_cast<int>(i);
  returns_by_function_.resize(f_.functions.size());
  for (std::size_t i = 0; i < f_.returns.size(); ++i) {
    int fn = f_.returns[i].function;
    if (fn >= 0) returns_by_function_[static_cast<std::size_t>(fn)].push_back(static_cast<int>(i));
  }
  returns_memo_.assign(f_.functions.size(), -1);
  for (const Import& imp : f_.imports) {
    if (!imp.bound.empty()) imported_.insert(imp.bound);
  }

  // Module classes: bases that are nn.Module / Cell (or look like a model
  // base class), or a module class of this file. Two rounds settle classes
  // whose base is defined further down.
  module_class_.assign(f_.classes.size(), false);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < f_.classes.size(); ++i) {
      for (const std::string& base : f_.classes[i].bases) {
        std::string_view lb = last_name(base);
        std::string q = f_.qualify(base);
        int local = class_named(base);
        bool module = lb == "Module" || lb == "Cell" || ends_with(lb, "Module") ||
                      (local >= 0 && local != static_cast<int>(i) && module_class_[static_cast<std::size_t>(local)]) ||
                      (!q.empty() && (ends_with(lb, "Model") || ends_with(lb, "PreTrainedModel"))) ||
                      (!q.empty() && contains(q, ".nn.") && upper_first(lb) && !ends_with(lb, "Loss"));
        if (module) module_class_[i] = true;
      }
    }
  }

  // Two rounds so that `self.model = model` and `compiled = model` see what
  // the right-hand name holds whatever the order of the assignments. An
  // assignment whose first answer read nothing earlier assignments bound
  // (order_reads_: no name's holdings, no function's return) answers the same
  // again: the second round merges that answer without classifying it anew.
  std::vector<std::size_t> first(f_.assignments.size() + 1, 0);
  for (std::size_t ai = 0; ai < f_.assignments.size(); ++ai)
    first[ai + 1] = first[ai] + f_.assignments[ai].targets.size();
  std::vector<Info> infos(first.back());
  std::vector<bool> settled(f_.assignments.size(), false);
  for (int round = 0; round < 2; ++round) {
    returns_memo_.assign(f_.functions.size(), -1);
    for (std::size_t ai = 0; ai < f_.assignments.size(); ++ai) {
      const Assignment& a = f_.assignments[ai];
      Info* in = infos.data() + first[ai];
      if (!settled[ai]) {
        const unsigned reads = order_reads_;
        bool names_read = false;
        std::fill(in, in + a.targets.size(), Info{});
        if (a.targets.size() == a.values.size()) {
          for (std::size_t i = 0; i < a.targets.size(); ++i) {
            int vc = i < a.value_calls.size() ? a.value_calls[i] : -1;
            in[i] = classify_value(a.values[i], vc, 0);
          }
        } else if (a.targets.size() > 1 && a.value_call >= 0) {
          const Call& c = f_.calls[static_cast<std::size_t>(a.value_call)];
          if (c.qualified == "deepspeed.initialize") {
            // engine, optimizer, dataloader, lr_scheduler
            const uint32_t kinds[] = {kModel | kEngine, kOptimizer, kOther, kScheduler};
            for (std::size_t i = 0; i < a.targets.size() && i < 4; ++i) in[i].holds = kinds[i];
          } else if (last_name(c.callee) == "prepare" || last_name(c.callee) == "initialize") {
            // accelerator.prepare(model, optimizer, ...) / amp.initialize(model, optimizer)
            names_read = true;
            std::vector<const Argument*> positional;
            for (const Argument& arg : c.args) {
              if (arg.keyword.empty()) positional.push_back(&arg);
            }
            if (positional.size() == a.targets.size()) {
              for (std::size_t i = 0; i < a.targets.size(); ++i) {
                auto it = names_.find(positional[i]->text);
                if (it != names_.end()) in[i] = it->second;
              }
            }
          }
        }
        if (round == 0) settled[ai] = !names_read && order_reads_ == reads;
      }
      for (std::size_t i = 0; i < a.targets.size(); ++i) {
        const Info& v = in[i];
        if (v.holds == 0 && v.grad_target < 0 && v.instance_of < 0 && v.ctor.empty()) continue;
        Info& out = names_[a.targets[i]];
        out.holds |= v.holds;
        if (!v.ctor.empty()) out.ctor = v.ctor;
        if (v.grad_target >= 0) out.grad_target = v.grad_target;
        if (v.instance_of >= 0) out.instance_of = v.instance_of;
      }
    }
  }
}

namespace {

// splitmix64's finaliser: spreads a hash so sums of entries do not collide by accident.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t text_hash(std::string_view s) { return std::hash<std::string_view>{}(s); }

}  // namespace

uint64_t Bindings::key() const {
  // Sums of mixed entry hashes: independent of the tables' iteration order.
  uint64_t names = 0, aliases = 0, imported = 0, modules = mix(module_class_.size());
  for (const auto& [name, in] : names_) {
    uint64_t h = mix(text_hash(name)) ^ mix(text_hash(in.ctor) + 1);
    h = mix(h + in.holds);
    h = mix(h + static_cast<uint64_t>(static_cast<int64_t>(in.grad_target)));
    h = mix(h + static_cast<uint64_t>(static_cast<int64_t>(in.instance_of)));
    names += h;
  }
  for (const auto& [bound, target] : f_.aliases) aliases += mix(mix(text_hash(bound)) + text_hash(target));
  for (std::string_view bound : imported_) imported += mix(text_hash(bound));
  for (std::size_t i = 0; i < module_class_.size(); ++i)
    modules = mix(modules + (module_class_[i] ? 2 * i + 1 : 2 * i));
  return mix(names ^ mix(aliases + 1) ^ mix(mix(imported + 2)) ^ mix(mix(mix(modules + 3))));
}

uint32_t Bindings::holds(std::string_view name) const {
  auto it = names_.find(name);
  return it == names_.end() ? 0 : it->second.holds;
}

int Bindings::instance_class(std::string_view name) const {
  auto it = names_.find(name);
  return it == names_.end() ? -1 : it->second.instance_of;
}

int Bindings::grad_target(std::string_view name) const {
  auto it = names_.find(name);
  return it == names_.end() ? -1 : it->second.grad_target;
}

int Bindings::class_named(std::string_view name) const {
  auto it = classes_by_name_.find(name);
  return it == classes_by_name_.end() ? -1 : it->second;
}

std::string Bindings::constructor_of(std::string_view name) const {
  auto it = names_.find(name);
  return it == names_.end() ? std::string() : it->second.ctor;
}

bool Bindings::imported(std::string_view name) const { return imported_.count(name) != 0; }

bool Bindings::is_local_callable(std::string_view name) const {
  return functions_by_name_.count(name) || classes_by_name_.count(name);
}

int Bindings::call_at(ByteRange r) const {
  // The first call of the range (lowest index), as a hash of ranges kept it.
  auto it = std::lower_bound(calls_by_range_.begin(), calls_by_range_.end(), CallKey{r.start, r.end, -1},
                             call_key_less);
  return it == calls_by_range_.end() || it->start != r.start || it->end != r.end ? -1 : it->index;
}

bool Bindings::is_model(std::string_view expr) const {
  if (auto it = is_model_memo_.find(expr); it != is_model_memo_.end()) return it->second;
  bool answer = is_model_uncached(expr);
  is_model_memo_.emplace(std::string(expr), answer);
  return answer;
}

bool Bindings::is_model_uncached(std::string_view expr) const {
  if (!is_dotted_name(expr)) return false;
  // An imported function or class (FileFacts::qualify resolves its root).
  if (f_.aliases.count(std::string(expr.substr(0, expr.find('.'))))) return false;
  if (is_local_callable(expr)) return false;
  uint32_t h = holds(expr);
  if (h & kModel) return true;
  if (h != 0) return false;
  return model_like_name(last_name(expr));
}

bool Bindings::steps_optimizer(std::string_view recv) const {
  uint32_t h = holds(recv);
  if (h & (kOptimizer | kScaler | kEngine)) return true;
  if (h != 0) return false;
  std::string l = lowered(last_name(recv));
  if (contains_any(l, {"sched", "lr", "warm", "env", "debug", "bar", "progress", "writer", "prof", "timer", "logger",
                       "monitor", "ema", "swa", "game", "sim"}))
    return false;
  return contains(l, "optim") || starts_with(l, "opt") || contains(l, "scaler") || ends_with(l, "engine");
}

int Bindings::function_named(std::string_view name, int caller) const {
  auto it = functions_by_name_.find(name);
  if (it == functions_by_name_.end()) return -1;
  // The def visible from the caller: one nested in the caller or an enclosing
  // def (innermost first), else a module-level one.
  for (int scope = caller;; scope = f_.functions[static_cast<std::size_t>(scope)].parent) {
    for (int fn : it->second) {
      const Function& d = f_.functions[static_cast<std::size_t>(fn)];
      if (d.class_index >= 0) continue;  // methods are reached through self / an instance
      if (d.parent == scope) return fn;
    }
    if (scope < 0) break;
  }
  return -1;
}

int Bindings::find_method(int class_index, std::string_view name, int depth) const {
  if (class_index < 0 || depth > 5) return -1;
  auto it = functions_by_name_.find(name);
  if (it != functions_by_name_.end()) {
    for (int fn : it->second) {
      if (f_.functions[static_cast<std::size_t>(fn)].class_index == class_index) return fn;
    }
  }
  for (const std::string& base : f_.classes[static_cast<std::size_t>(class_index)].bases) {
    int b = class_named(base);
    if (b >= 0 && b != class_index) {
      int m = find_method(b, name, depth + 1);
      if (m >= 0) return m;
    }
  }
  return -1;
}

int Bindings::resolve_callee(std::string_view callee, int caller) const {
  if (is_identifier(callee)) return function_named(callee, caller);
  if (!is_dotted_name(callee)) return -1;
  std::string_view recv = receiver_of(callee), name = last_name(callee);
  if (recv == "self" || recv == "cls") {
    for (int fn = caller; fn >= 0; fn = f_.functions[static_cast<std::size_t>(fn)].parent) {
      int cls = f_.functions[static_cast<std::size_t>(fn)].class_index;
      if (cls >= 0) return find_method(cls, name);
    }
    return -1;
  }
  auto it = names_.find(recv);
  if (it != names_.end() && it->second.instance_of >= 0) return find_method(it->second.instance_of, name);
  int cls = class_named(recv);
  if (cls >= 0) return find_method(cls, name);
  return -1;
}

uint32_t Bindings::function_returns(int function, int depth) const {
  ++order_reads_;  // its answer depends on the names its returns read, and on the memo
  int& memo = returns_memo_[static_cast<std::size_t>(function)];
  if (memo >= 0) return static_cast<uint32_t>(memo);
  if (memo == -2 || depth > 6) return 0;
  memo = -2;
  uint32_t bits = 0;
  for (int ri : returns_by_function_[static_cast<std::size_t>(function)]) {
    const Return& r = f_.returns[static_cast<std::size_t>(ri)];
    Info in = classify_value(r.value, r.value_call, depth + 1);
    bits |= in.holds;
    if (r.value_call < 0 && in.holds == 0 && is_identifier(r.value) && model_like_name(r.value)) bits |= kModel;
  }
  memo = static_cast<int>(bits);
  return bits;
}

Bindings::Info Bindings::classify_value(const std::string& value, int value_call, int depth) const {
  if (value_call >= 0) return classify_call(value_call, depth);
  if (is_dotted_name(value)) {
    ++order_reads_;
    auto it = names_.find(value);
    if (it != names_.end()) return it->second;
  }
  return {};
}

Bindings::Info Bindings::classify_call(int call, int depth) const {
  Info info;
  if (depth > 8) return info;
  const Call& c = f_.calls[static_cast<std::size_t>(call)];
  std::string_view callee = c.callee, last = last_name(callee), recv = receiver_of(callee);

  // `X.to(device)`, `X.eval()`: what X is.
  if (!recv.empty() && returns_self(last)) {
    if (recv.back() == ')') {
      int inner = call_at({c.callee_range.start, c.callee_range.start + static_cast<uint32_t>(recv.size())});
      if (inner >= 0) return classify_call(inner, depth + 1);
      return info;
    }
    return classify_value(std::string(recv), -1, depth + 1);
  }

  const std::string_view q = c.qualified;  // compared by length first, unlike std::string == const char*
  if (!q.empty()) {
    // A file calls the same few imported names many times: each is
    // classified once per bindings.
    auto [memo, fresh] = imported_holds_.try_emplace(q, 0);
    if (fresh) memo->second = holds_of_imported(q);
    info.holds = memo->second;
    if (info.holds == kGradFn) {
      for (const Argument& a : c.args) {
        if (!a.keyword.empty() && a.keyword != "fn") continue;
        info.grad_target = function_named(a.text, c.function);
        break;
      }
    }
    // Anything else imported is unknown: the name it is bound to decides, and
    // the project may know the class.
    if (info.holds == 0 && is_dotted_name(callee)) info.ctor = std::string(callee);
    return info;
  }

  if (recv.empty()) {
    int cls = class_named(callee);
    if (cls >= 0) {
      bool optimizer = false;
      for (const std::string& base : f_.classes[static_cast<std::size_t>(cls)].bases)
        optimizer = optimizer || ends_with(last_name(base), "Optimizer");
      if (module_class_[static_cast<std::size_t>(cls)]) info.holds = kModel;
      else if (optimizer) info.holds = kOptimizer;
      else if (ends_with(callee, "Loss")) info.holds = kLoss;
      else info.instance_of = cls;
      return info;
    }
    int fn = function_named(callee, c.function);
    if (fn >= 0) {
      info.holds = function_returns(fn, depth + 1);
      return info;
    }
  } else {
    ++order_reads_;  // `obj.method()` resolves through what `obj` holds
    int fn = resolve_function(c);
    if (fn >= 0) {
      info.holds = function_returns(fn, depth + 1);
      return info;
    }
  }
  // Calling something that holds a value (a model's output) gives a tensor.
  ++order_reads_;
  if (holds(callee) != 0) {
    info.holds = kOther;
    return info;
  }
  std::string l = lowered(last);
  if (ends_with(last, "Loss")) info.holds = kLoss;
  else if (contains(l, "optim")) info.holds = kOptimizer;
  else if (contains(l, "sched")) info.holds = kScheduler;
  else if (last == "LLM") info.holds = kLlm;
  else if (model_factory_name(last)) info.holds = kModel;
  // A class or function of another module (a relative import, a star import):
  // the project may know it.
  if (info.holds == 0 && is_dotted_name(callee) && !is_local_callable(callee)) info.ctor = std::string(callee);
  return info;
}

}  // namespace msprobe::analysis
