// Loop roles: which loop trains (forward + backward + optimizer step per
// iteration), evaluates, runs inference or warms up, and which expression is
// the model.
//
// Sites are the calls lexically inside a loop's body (closures defined there
// included), plus what the functions of this file called from the body do,
// reported at the call site. A function's summary leaves out the loops inside
// it that have a role of their own, so an epoch loop that calls `train()` does
// not become a train loop itself. Calls are sorted by position (the builder
// walks the tree in order), so the calls of a body are found by binary search:
// the whole derivation is linear in the calls times the loop nesting depth.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "derive.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

enum Kind : uint8_t { kForward = 1, kBackward = 2, kStep = 4, kGenerate = 8 };

bool inside(ByteRange inner, ByteRange outer) { return inner.start >= outer.start && inner.end <= outer.end; }

struct Site {
  ByteRange at;
  uint8_t kinds = 0;
  std::string model;  // for forwards, the model expression ("" for a graph replay)
  std::string passed_model;  // a model handed to a function this file cannot see into
};

struct Summary {
  uint8_t kinds = 0;
  std::vector<std::string> models;  // in source order, distinct
};

void add_model(std::vector<std::string>& models, const std::string& m) {
  if (!m.empty() && std::find(models.begin(), models.end(), m) == models.end()) models.push_back(m);
}

// What a call does for the loop around it.
struct CallEffect {
  uint8_t kinds = 0;
  std::string model;
  int helper = -1;  // a function of this file whose summary applies at this call
  int closure = -1;  // optimizer.step(closure): the closure's summary applies here unless it is defined in the body
  std::string passed_model;  // compute_loss(model, batch) with compute_loss imported: probably the forward
};

class LoopDeriver {
 public:
  LoopDeriver(std::string_view text, FileFacts& f) : text_(text), f_(f), b_(f) {
    msprobe_call_.assign(f_.calls.size(), false);
    effects_.resize(f_.calls.size());
    for (const MsprobeUse& u : f_.msprobe) {
      if (u.call >= 0) msprobe_call_[static_cast<std::size_t>(u.call)] = true;
    }
    summary_state_.assign(f_.functions.size(), 0);
    summaries_.resize(f_.functions.size());
    loop_state_.assign(f_.loops.size(), 0);
    loop_sites_.resize(f_.loops.size());
    loop_kinds_.assign(f_.loops.size(), 0);
    no_grad_function_.assign(f_.functions.size(), false);
    for (const Decorator& d : f_.decorators) {
      if (d.function >= 0 && (contains(d.callee, "no_grad") || contains(d.callee, "inference_mode")))
        no_grad_function_[static_cast<std::size_t>(d.function)] = true;
    }
  }

  void run() {
    std::size_t n = f_.loops.size();
    for (std::size_t i = 0; i < n; ++i) sites(static_cast<int>(i), 0);

    // Raw roles from the sites alone.
    std::vector<LoopRole> raw(n, LoopRole::None);
    std::vector<bool> model_internal(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      model_internal[i] = in_model_code(f_.loops[i]);
      raw[i] = model_internal[i] ? LoopRole::None : role_of(loop_kinds_[i]);
    }
    // An outer loop whose role is explained by a loop inside it is an epoch
    // loop; a loop inside a real train loop (micro-batches of gradient
    // accumulation, an RL rollout) has no role of its own.
    std::vector<bool> container(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      for (int p = f_.loops[i].parent; p >= 0; p = f_.loops[static_cast<std::size_t>(p)].parent) {
        std::size_t pi = static_cast<std::size_t>(p);
        if (raw[pi] != LoopRole::None && raw[i] != LoopRole::None && (raw[i] == LoopRole::Train || raw[i] == raw[pi]))
          container[pi] = true;
      }
    }
    std::vector<LoopRole> role(n, LoopRole::None);
    for (std::size_t i = 0; i < n; ++i) role[i] = container[i] ? LoopRole::None : raw[i];
    for (std::size_t i = 0; i < n; ++i) {
      if (role[i] == LoopRole::None) continue;
      for (int p = f_.loops[i].parent; p >= 0; p = f_.loops[static_cast<std::size_t>(p)].parent) {
        if (role[static_cast<std::size_t>(p)] == LoopRole::Train && role[i] != LoopRole::Train) role[i] = LoopRole::None;
      }
    }
    // Forward-only loops: evaluation next to training, else the script's inference.
    bool any_train = std::find(role.begin(), role.end(), LoopRole::Train) != role.end();
    for (std::size_t i = 0; i < n; ++i) {
      if (role[i] != LoopRole::Inference) continue;
      if (any_train && !(loop_kinds_[i] & kGenerate)) role[i] = LoopRole::Eval;
    }
    // Warm-up: said so in the header, the def's name or the comments of the
    // loop's paragraph, and followed in the same def by the real loop.
    std::vector<bool> warm(n, false), warm_strong(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      if (role[i] == LoopRole::None) continue;
      const Loop& l = f_.loops[i];
      warm_strong[i] = l.function >= 0 && contains(lowered(f_.functions[static_cast<std::size_t>(l.function)].name), "warm");
      warm[i] = warm_strong[i] || contains(lowered(l.iterable + " " + l.target), "warm") || paragraph_says_warmup(l) ||
                repeats_a_few_times(l);
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!warm[i]) continue;
      bool followed = warm_strong[i];
      for (std::size_t j = 0; j < n && !followed; ++j) {
        const Loop& a = f_.loops[i];
        const Loop& b = f_.loops[j];
        // The real loop does the same kind of work (or trains): a train loop
        // followed only by an eval loop is no warm-up, whatever its header says.
        followed = j != i && !warm[j] && (role[j] == role[i] || role[j] == LoopRole::Train) &&
                   b.function == a.function && b.range.start >= a.range.end;
      }
      if (followed) role[i] = LoopRole::Warmup;
    }

    std::vector<LoopInfo> infos;
    for (std::size_t i = 0; i < n; ++i) {
      if (role[i] == LoopRole::None) continue;
      const Loop& l = f_.loops[i];
      LoopInfo info;
      info.loop = static_cast<int>(i);
      info.role = role[i];
      info.function = l.function;
      for (int p = l.parent; p >= 0; p = f_.loops[static_cast<std::size_t>(p)].parent) {
        if (container[static_cast<std::size_t>(p)]) {
          info.epoch_loop = p;
          break;
        }
      }
      for (const Site& s : loop_sites_[i]) {
        if (s.kinds & kForward) {
          info.forward.push_back(s.at);
          add_model(info.models, s.model);
        }
        if (s.kinds & kBackward) info.backward.push_back(s.at);
        if (s.kinds & kStep) info.step.push_back(s.at);
      }
      if (info.forward.empty()) {
        // No forward the file shows: the first call that is handed the model runs it.
        for (const Site& s : loop_sites_[i]) {
          if (s.passed_model.empty()) continue;
          info.forward.push_back(s.at);
          add_model(info.models, s.passed_model);
          info.forward_through_call = true;
          break;
        }
      }
      if (!info.models.empty()) info.model = info.models.front();
      info.model_is_module = !info.model.empty() && !(b_.holds(info.model) & kLlm);
      info.generation = (loop_kinds_[i] & kGenerate) != 0;
      info.no_grad = under_no_grad(l);
      info.reason = reason(info, warm[i]);
      infos.push_back(std::move(info));
    }
    f_.loop_info = std::move(infos);
  }

 private:
  static LoopRole role_of(uint8_t k) {
    if ((k & kBackward) && (k & kStep)) return LoopRole::Train;
    if ((k & kForward) && !(k & kBackward) && !(k & kStep)) return LoopRole::Inference;
    return LoopRole::None;
  }

  // Loops that are part of a model: in a method of an nn.Module/Cell class or in a `forward`.
  bool in_model_code(const Loop& l) const {
    for (int fn = l.function; fn >= 0; fn = f_.functions[static_cast<std::size_t>(fn)].parent) {
      const Function& d = f_.functions[static_cast<std::size_t>(fn)];
      if (d.name == "forward" || (d.class_index >= 0 && b_.is_module_class(d.class_index))) return true;
    }
    return false;
  }

  // Calls whose range starts in [r.start, r.end), in order.
  std::pair<std::size_t, std::size_t> calls_in(ByteRange r) const {
    auto lo = std::lower_bound(f_.calls.begin(), f_.calls.end(), r.start,
                               [](const Call& c, uint32_t pos) { return c.range.start < pos; });
    auto hi = std::lower_bound(lo, f_.calls.end(), r.end, [](const Call& c, uint32_t pos) { return c.range.start < pos; });
    return {static_cast<std::size_t>(lo - f_.calls.begin()), static_cast<std::size_t>(hi - f_.calls.begin())};
  }

  // What call `ci` does, computed once: the calls of a nested loop are seen
  // again by every loop around it.
  const CallEffect& effect(int ci) {
    std::optional<CallEffect>& e = effects_[static_cast<std::size_t>(ci)];
    if (!e) e = compute_effect(ci);
    return *e;
  }

  CallEffect compute_effect(int ci) const {
    CallEffect e;
    if (msprobe_call_[static_cast<std::size_t>(ci)]) return e;
    const Call& c = f_.calls[static_cast<std::size_t>(ci)];
    std::string_view callee = c.callee, last = last_name(callee), recv = receiver_of(callee);
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
    if (!recv.empty() && (last == "generate" || last == "chat") &&
        (b_.is_model(recv) || (b_.holds(recv) & kLlm))) {
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
      return e;
    }
    if (b_.is_model(callee)) {
      e.kinds = kForward;
      e.model = std::string(callee);
      return e;
    }
    e.passed_model = model_argument(c);
    return e;
  }

  // The model a call hands over to code this file cannot see (an imported
  // `compute_loss(model, batch)`, `trainer_step(model=model, ...)`): where the
  // loop has no forward of its own, that call is where it runs.
  std::string model_argument(const Call& c) const {
    static const std::string_view kNotForward[] = {
        "print", "len", "isinstance", "str", "repr", "type", "id", "hasattr", "getattr", "setattr", "vars",
        "dir", "list", "tuple", "dict", "sum", "max", "min", "sorted", "zip", "enumerate", "iter", "next"};
    std::string_view callee = c.callee;
    if (c.qualified.rfind("torch.", 0) == 0 || c.qualified.rfind("copy.", 0) == 0 || c.qualified.rfind("logging.", 0) == 0)
      return {};
    for (std::string_view n : kNotForward) {
      if (callee == n) return {};
    }
    std::string_view last = callee.substr(callee.rfind('.') == std::string_view::npos ? 0 : callee.rfind('.') + 1);
    if (last == "save" || last == "load" || last == "info" || last == "debug" || last == "log" || last == "append")
      return {};
    for (const Argument& a : c.args) {
      if (!a.keyword.empty() && a.keyword != "model" && a.keyword != "net" && a.keyword != "module") continue;
      if (b_.is_model(a.text)) return a.text;
    }
    return {};
  }

  // `model` as the caller sees it: a parameter of the helper becomes the argument passed.
  std::string map_to_caller(const std::string& model, int ci, int helper) const {
    if (model.empty()) return model;
    const Call& c = f_.calls[static_cast<std::size_t>(ci)];
    const Function& h = f_.functions[static_cast<std::size_t>(helper)];
    std::size_t dot = model.find('.');
    std::string root = model.substr(0, dot);
    auto it = std::find(h.params.begin(), h.params.end(), root);
    if (it == h.params.end()) return model;
    std::size_t index = static_cast<std::size_t>(it - h.params.begin());
    bool bound_self = h.class_index >= 0 && !h.params.empty() && (h.params[0] == "self" || h.params[0] == "cls") &&
                      c.callee.find('.') != std::string::npos;
    if (bound_self) {
      if (index == 0) return model;  // `self.model` stays as written
      --index;
    }
    std::string arg;
    std::size_t positional = 0;
    for (const Argument& a : c.args) {
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

  // Helper chains deeper than this count as doing nothing (and keep the
  // recursion far from the stack's limit on generated code).
  static constexpr int kMaxDepth = 40;

  const Summary& summary(int fn, int depth) {
    static const Summary kNothing;
    std::size_t i = static_cast<std::size_t>(fn);
    if (summary_state_[i] != 0) return summaries_[i];  // done, or in progress (recursion: empty so far)
    if (depth > kMaxDepth) return kNothing;
    summary_state_[i] = 1;
    Summary s;
    const Function& d = f_.functions[i];
    // Loops inside the helper that have a role of their own keep their calls.
    std::vector<ByteRange> skip;
    auto lo = std::lower_bound(f_.loops.begin(), f_.loops.end(), d.body.start,
                               [](const Loop& l, uint32_t pos) { return l.range.start < pos; });
    for (auto it = lo; it != f_.loops.end() && it->range.start < d.body.end; ++it) {
      if (!skip.empty() && inside(it->range, skip.back())) continue;
      int li = static_cast<int>(it - f_.loops.begin());
      if (role_of(sites(li, depth + 1)) != LoopRole::None) skip.push_back(it->range);
    }
    auto [first, end] = calls_in(d.body);
    std::size_t k = 0;
    for (std::size_t ci = first; ci < end; ++ci) {
      const Call& c = f_.calls[ci];
      while (k < skip.size() && skip[k].end <= c.range.start) ++k;
      if (k < skip.size() && inside(c.range, skip[k])) continue;
      CallEffect e = effect(static_cast<int>(ci));
      s.kinds |= e.kinds;
      add_model(s.models, e.model);
      if (e.closure >= 0 && !inside(f_.functions[static_cast<std::size_t>(e.closure)].range, d.body)) e.helper = e.closure;
      if (e.helper >= 0 && e.helper != fn) {
        const Summary& h = summary(e.helper, depth + 1);
        s.kinds |= h.kinds;
        for (const std::string& m : h.models) add_model(s.models, map_to_caller(m, static_cast<int>(ci), e.helper));
      }
    }
    summaries_[i] = std::move(s);
    summary_state_[i] = 2;
    return summaries_[i];
  }

  // The sites of loop `li`; returns the union of their kinds.
  uint8_t sites(int li, int depth) {
    std::size_t i = static_cast<std::size_t>(li);
    if (loop_state_[i] != 0) return loop_kinds_[i];
    if (depth > kMaxDepth) return 0;
    loop_state_[i] = 1;
    const Loop& l = f_.loops[i];
    std::vector<Site> out;
    uint8_t all = 0;
    auto [first, end] = calls_in(l.body);
    for (std::size_t ci = first; ci < end; ++ci) {
      const Call& c = f_.calls[ci];
      if (c.range.end > l.body.end) continue;
      CallEffect e = effect(static_cast<int>(ci));
      Site s{c.range, e.kinds, e.model, e.passed_model};
      // A closure defined in the body is already counted where its calls are.
      if (e.closure >= 0 && !inside(f_.functions[static_cast<std::size_t>(e.closure)].range, l.body)) e.helper = e.closure;
      if (e.helper >= 0) {
        const Summary& h = summary(e.helper, depth + 1);
        s.kinds |= h.kinds;
        if (s.model.empty() && (h.kinds & kForward) && !h.models.empty())
          s.model = map_to_caller(h.models.front(), static_cast<int>(ci), e.helper);
      }
      if (s.kinds == 0 && s.passed_model.empty()) continue;
      all |= s.kinds;
      out.push_back(std::move(s));
    }
    loop_sites_[i] = std::move(out);
    loop_kinds_[i] = all;
    loop_state_[i] = 2;
    return all;
  }

  bool under_no_grad(const Loop& l) const {
    auto guards = [](const std::string& item) {
      return contains(item, "no_grad") || contains(item, "inference_mode");
    };
    for (int w = l.with_block; w >= 0; w = f_.with_blocks[static_cast<std::size_t>(w)].parent) {
      for (const std::string& item : f_.with_blocks[static_cast<std::size_t>(w)].items) {
        if (guards(item)) return true;
      }
    }
    return l.function >= 0 && no_grad_function_[static_cast<std::size_t>(l.function)];
  }

  // Comments in the lines just above the loop (up to a blank line) that speak of warming up.
  bool paragraph_says_warmup(const Loop& l) const {
    uint32_t pos = l.range.start;
    // Start of the loop's line.
    while (pos > 0 && text_[pos - 1] != '\n') --pos;
    for (int lines = 0; lines < 8 && pos > 0; ++lines) {
      uint32_t end = pos - 1;  // the '\n' that ends the previous line
      uint32_t start = end;
      while (start > 0 && text_[start - 1] != '\n') --start;
      std::string_view line = text_.substr(start, end - start);
      if (line.find_first_not_of(" \t\r\f") == std::string_view::npos) break;
      auto it = std::lower_bound(f_.comments.begin(), f_.comments.end(), start,
                                 [](const Comment& c, uint32_t p) { return c.range.start < p; });
      for (; it != f_.comments.end() && it->range.start < end; ++it) {
        std::string t = lowered(it->text);
        if (contains(t, "warm")) return true;
      }
      pos = start;
    }
    return false;
  }

  // `for _ in range(5):` — a few throw-away repetitions (the loop variable is
  // unused by name): a warm-up when the real loop follows.
  static bool repeats_a_few_times(const Loop& l) {
    if (l.target != "_") return false;
    std::string_view it = l.iterable;
    if (it.substr(0, 6) != "range(" || it.back() != ')') return false;
    std::string_view n = it.substr(6, it.size() - 7);
    while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
    while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
    if (n.empty() || n.size() > 2 || !std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return false;
    return std::stoi(std::string(n)) <= 20;
  }

  std::string reason(const LoopInfo& info, bool warm) const {
    switch (info.role) {
      case LoopRole::Train:
        if (info.forward.empty()) return "backward and optimizer step run on every iteration (no forward found)";
        if (info.forward_through_call)
          return "backward and optimizer step run on every iteration; the forward is inside a call that is handed " +
                 info.model;
        return "forward, backward and optimizer step run on every iteration";
      case LoopRole::Warmup:
        return warm ? "runs the same work before the real loop and is marked as warm-up" : "warm-up";
      case LoopRole::Eval:
        return std::string("forward only") + (info.no_grad ? " under no_grad/inference_mode" : "") +
               ", next to a train loop";
      case LoopRole::Inference:
        if (info.generation) return "generates on every iteration";
        return info.model.empty() ? "replays a captured graph on every iteration"
                                  : std::string("forward only") + (info.no_grad ? " under no_grad/inference_mode" : "") +
                                        ", and the file has no train loop";
      case LoopRole::None: break;
    }
    return "";
  }

  std::string_view text_;
  FileFacts& f_;
  Bindings b_;
  std::vector<bool> msprobe_call_;
  std::vector<std::optional<CallEffect>> effects_;
  std::vector<int> summary_state_;  // 0 not computed, 1 in progress, 2 done
  std::vector<Summary> summaries_;
  std::vector<int> loop_state_;
  std::vector<std::vector<Site>> loop_sites_;
  std::vector<uint8_t> loop_kinds_;
  std::vector<bool> no_grad_function_;  // decorated with @torch.no_grad() / @torch.inference_mode()
};

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

void derive_loops(std::string_view text, FileFacts& f) {
  if (f.loops.empty()) {
    f.loop_info.clear();
    return;
  }
  LoopDeriver(text, f).run();
}

}  // namespace msprobe::analysis
