// Loop roles: which loop trains (forward + backward + optimizer step per
// iteration), evaluates, runs inference or warms up, and which expression is
// the model.
//
// What each loop's iteration runs comes from the call effects (effects.h):
// the calls lexically inside its body (closures defined there included), plus
// what the functions they reach do, reported at the call site. This file
// turns those into roles: epoch loops, eval next to training, warm-ups.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "derive.h"
#include "effects.h"
#include "msprobe/analysis/text_match.h"
#include "training.h"

namespace msprobe::analysis {
namespace {

class LoopDeriver {
 public:
  LoopDeriver(std::string_view text, FileFacts& f, const Bindings& names, EffectSolver& solver)
      : text_(text), f_(f), b_(names), solver_(solver) {
    no_grad_function_.assign(f_.functions.size(), false);
    for (const Decorator& d : f_.decorators) {
      if (d.function >= 0 && (contains(d.callee, "no_grad") || contains(d.callee, "inference_mode")))
        no_grad_function_[static_cast<std::size_t>(d.function)] = true;
    }
  }

  void run() {
    std::size_t n = f_.loops.size();
    std::vector<Effects> loop_kinds(n, 0);
    for (std::size_t i = 0; i < n; ++i) loop_kinds[i] = solver_.loop_kinds(static_cast<int>(i));

    // Raw roles from the sites alone.
    std::vector<LoopRole> raw(n, LoopRole::None);
    std::vector<bool> model_internal(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      model_internal[i] = in_model_code(f_.loops[i]);
      raw[i] = model_internal[i] ? LoopRole::None : role_of(loop_kinds[i]);
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
        if (role[static_cast<std::size_t>(p)] == LoopRole::Train && role[i] != LoopRole::Train)
          role[i] = LoopRole::None;
      }
    }
    // Forward-only loops: evaluation next to training, else the script's inference.
    bool any_train = std::find(role.begin(), role.end(), LoopRole::Train) != role.end();
    for (std::size_t i = 0; i < n; ++i) {
      if (role[i] != LoopRole::Inference) continue;
      if (any_train && !(loop_kinds[i] & kGenerate)) role[i] = LoopRole::Eval;
    }
    // Warm-up: said so in the header, the def's name or the comments of the
    // loop's paragraph, and followed in the same def by the real loop.
    std::vector<bool> warm(n, false), warm_strong(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      if (role[i] == LoopRole::None) continue;
      const Loop& l = f_.loops[i];
      warm_strong[i] = l.function >= 0 &&
                       contains(lowered(f_.functions[static_cast<std::size_t>(l.function)].name), "warm");
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
      const std::vector<LoopSite>& sites = solver_.sites(static_cast<int>(i));
      for (const LoopSite& s : sites) {
        if (s.kinds & kForward) {
          info.forward.push_back(s.at);
          add_model(info.models, s.model);
        }
        if (s.kinds & kBackward) info.backward.push_back(s.at);
        if (s.kinds & kStep) info.step.push_back(s.at);
      }
      if (info.forward.empty()) {
        // No forward the file shows: the first call that is handed the model runs it.
        for (const LoopSite& s : sites) {
          if (s.passed_model.empty()) continue;
          info.forward.push_back(s.at);
          add_model(info.models, s.passed_model);
          info.forward_through_call = true;
          break;
        }
      }
      if (info.role == LoopRole::Train && !info.models.empty()) order_by_training(info, sites);
      if (!info.models.empty()) info.model = info.models.front();
      info.model_is_module = !info.model.empty() && !(b_.holds(info.model) & kLlm);
      info.generation = (loop_kinds[i] & kGenerate) != 0;
      info.no_grad = under_no_grad(l);
      info.reason = reason(info, warm[i]);
      infos.push_back(std::move(info));
    }
    f_.loop_info = std::move(infos);
  }

 private:
  static LoopRole role_of(Effects k) {
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

  // The model of a train loop is what its optimizers train (issue 14, item 1):
  // modules whose parameters an optimizer holds and whose forward runs with
  // grad come first, then modules nothing says about, then frozen ones and
  // those called only under no_grad (a text encoder, a teacher, an EMA copy).
  // `trained` keeps the first group: several of them (a GAN) all go to start().
  void order_by_training(LoopInfo& info, const std::vector<LoopSite>& sites) {
    if (!training_) training_.emplace(f_, b_);
    const ModuleTraining& t = *training_;
    std::vector<std::string> with_grad;
    for (const LoopSite& s : sites) {
      if ((s.kinds & kForward) && !s.model.empty() && !site_under_no_grad(s.at)) add_model(with_grad, s.model);
    }
    auto rank = [&](const std::string& m) {
      bool grad = std::find(with_grad.begin(), with_grad.end(), m) != with_grad.end();
      if (!grad) return 3;
      if (t.trained(m)) return 0;
      if (t.frozen(m) || t.known()) return 2;
      return 1;
    };
    std::stable_sort(info.models.begin(), info.models.end(),
                     [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    for (const std::string& m : info.models) {
      if (rank(m) == 0) info.trained.push_back(m);
    }
  }

  // A call inside a `with torch.no_grad():` / `inference_mode()` block.
  bool site_under_no_grad(ByteRange at) const {
    for (const WithBlock& w : f_.with_blocks) {
      if (at.start < w.body.start || at.end > w.body.end) continue;
      for (const std::string& item : w.items) {
        if (contains(item, "no_grad") || contains(item, "inference_mode")) return true;
      }
    }
    return false;
  }

  bool under_no_grad(const Loop& l) const {
    auto guards = [](const std::string& item) { return contains(item, "no_grad") || contains(item, "inference_mode"); };
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

  // What a site of the loop body runs under: the `if` that holds it inside the
  // body, or an earlier `if` of the body that can `continue` the loop (a
  // gradient-accumulation guard). No owner: it runs on every iteration.
  struct Condition {
    int owner = -1;            // statement index of the if
    bool else_branch = false;  // the site is in its else clause
    bool guard = false;        // an earlier `if ...: continue`
  };
  Condition condition_of(int loop_index, ByteRange site) const {
    const Loop& l = f_.loops[static_cast<std::size_t>(loop_index)];
    const auto& sts = f_.statements;
    auto in_body = [&](const Statement& st) { return inside(st.range, l.body); };
    int innermost = -1;  // in source order a later container is a deeper one
    for (std::size_t i = l.body_first_stmt; i < sts.size() && sts[i].range.start < l.body.end; ++i) {
      if (sts[i].range.start <= site.start && site.end <= sts[i].range.end) innermost = static_cast<int>(i);
    }
    if (innermost < 0) return {};
    int top = innermost;
    for (int cur = innermost; cur >= 0 && in_body(sts[static_cast<std::size_t>(cur)]);
         cur = sts[static_cast<std::size_t>(cur)].parent_block_owner) {
      const Statement& st = sts[static_cast<std::size_t>(cur)];
      if (st.block_clause == "if_statement" || st.block_clause == "elif_clause" || st.block_clause == "else_clause")
        return {st.parent_block_owner, st.block_clause == "else_clause", false};
      top = cur;
    }
    for (std::size_t i = l.body_first_stmt; i < static_cast<std::size_t>(top); ++i) {
      const Statement& st = sts[i];
      if (st.type != "continue_statement" || st.loop != loop_index) continue;
      int t = static_cast<int>(i);  // the statement of the body that holds the continue
      while (t >= 0 && sts[static_cast<std::size_t>(t)].parent_block_owner >= 0 &&
             in_body(sts[static_cast<std::size_t>(sts[static_cast<std::size_t>(t)].parent_block_owner)]))
        t = sts[static_cast<std::size_t>(t)].parent_block_owner;
      if (t != static_cast<int>(i)) return {t, false, true};
    }
    return {};
  }
  // The condition every site of one kind shares; none when one site runs
  // unconditionally or the sites cover both branches of one if/else
  // (`scaler.step(opt)` / `else: opt.step()`).
  std::optional<Condition> shared_condition(int loop_index, const std::vector<ByteRange>& sites) const {
    if (sites.empty()) return std::nullopt;
    Condition first = condition_of(loop_index, sites.front());
    for (const ByteRange& r : sites) {
      Condition c = condition_of(loop_index, r);
      if (c.owner < 0 || (c.owner == first.owner && c.else_branch != first.else_branch)) return Condition{};
    }
    return first;
  }

  // "forward, backward and optimizer step run on every iteration", or which of
  // them run only under a condition (an optimizer step every N iterations).
  std::string train_reason(const LoopInfo& info) const {
    struct Part {
      const char* name;
      std::optional<Condition> cond;
    };
    std::vector<Part> parts;
    if (!info.forward.empty() && !info.forward_through_call)
      parts.push_back({"forward", shared_condition(info.loop, info.forward)});
    parts.push_back({"backward", shared_condition(info.loop, info.backward)});
    parts.push_back({"optimizer step", shared_condition(info.loop, info.step)});
    auto names = [](const std::vector<const Part*>& ps) {
      std::string out;
      for (std::size_t i = 0; i < ps.size(); ++i)
        out += (i == 0 ? "" : i + 1 == ps.size() ? " and " : ", ") + std::string(ps[i]->name);
      return out;
    };
    auto where = [&](const Condition& c) {
      std::string line = std::to_string(f_.statements[static_cast<std::size_t>(c.owner)].line + 1);
      return c.guard ? "on the iterations that pass the guard at line " + line
                     : std::string(c.else_branch ? "in the else branch of the condition at line "
                                                 : "under the condition at line ") +
                           line;
    };
    std::vector<const Part*> every;
    std::vector<std::vector<const Part*>> conditional;  // grouped by condition, in order
    for (const Part& p : parts) {
      if (!p.cond || p.cond->owner < 0) {
        every.push_back(&p);
        continue;
      }
      auto g = std::find_if(conditional.begin(), conditional.end(), [&](const auto& grp) {
        return grp.front()->cond->owner == p.cond->owner && grp.front()->cond->else_branch == p.cond->else_branch;
      });
      if (g == conditional.end()) conditional.push_back({&p});
      else g->push_back(&p);
    }
    std::string out;
    if (!every.empty()) out = names(every) + (every.size() == 1 ? " runs" : " run") + " on every iteration";
    for (const auto& grp : conditional) {
      std::string phrase = names(grp) + (grp.size() == 1 ? " runs " : " run ") + where(*grp.front()->cond);
      out += out.empty() ? phrase
                         : "; " + (every.empty() ? phrase : "the " + names(grp) + " only " + where(*grp.front()->cond));
    }
    if (info.forward.empty()) out += " (no forward found)";
    else if (info.forward_through_call) out += "; the forward is inside a call that is handed " + info.model;
    return out;
  }

  std::string reason(const LoopInfo& info, bool warm) const {
    switch (info.role) {
      case LoopRole::Train: return train_reason(info);
      case LoopRole::Warmup:
        return warm ? "runs the same work before the real loop and is marked as warm-up" : "warm-up";
      case LoopRole::Eval:
        return std::string("forward only") + (info.no_grad ? " under no_grad/inference_mode" : "") +
               ", next to a train loop";
      case LoopRole::Inference:
        if (info.generation) return "generates on every iteration";
        return info.model.empty()
                   ? "replays a captured graph on every iteration"
                   : std::string("forward only") + (info.no_grad ? " under no_grad/inference_mode" : "") +
                         ", and the file has no train loop";
      case LoopRole::None: break;
    }
    return "";
  }

  std::string_view text_;
  FileFacts& f_;
  const Bindings& b_;
  EffectSolver& solver_;
  std::vector<bool> no_grad_function_;      // decorated with @torch.no_grad() / @torch.inference_mode()
  std::optional<ModuleTraining> training_;  // built on the first train loop with a model
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

namespace {

// Within one file: `self.method()` runs the method of the instance's class,
// which may be a subclass's override (a base class's `train()` loop calling
// `run_step()`), and `super().method()` the base's. Calls into other modules
// stay unknown (the project layer answers those).
class LocalResolver : public EffectResolver {
 public:
  explicit LocalResolver(const ModuleEffects& m) : m_(m) {}
  void attach(EffectSolver& solver) { solver_ = &solver; }

  std::optional<FunctionEffect> resolve(const EffectSolver&, const CallSite& site, int depth) override {
    if (!solver_ || site.target < 0) return std::nullopt;
    const CallTarget& t = m_.targets[static_cast<std::size_t>(site.target)];
    std::vector<int> fns;
    if (t.via == CallTarget::Via::Self) {
      if (int m = method(t.self_class, t.name, false); m >= 0) fns.push_back(m);
      for (std::size_t f = 0; f < m_.functions.size(); ++f) {
        const FunctionShape& fn = m_.functions[f];
        if (fn.class_index >= 0 && fn.class_index != t.self_class && fn.name == t.name &&
            derives_from(fn.class_index, t.self_class, 0))
          fns.push_back(static_cast<int>(f));
      }
    } else if (t.via == CallTarget::Via::Super) {
      if (int m = method(t.self_class, t.name, true); m >= 0) fns.push_back(m);
    }
    if (fns.empty()) return std::nullopt;
    FunctionEffect out;
    for (int f : fns) {
      const FunctionEffect& e = solver_->function_effect(f, depth);
      out.kinds |= e.kinds;
      for (const std::string& model : e.models) add_model(out.models, model_in_caller(model, m_.functions[f], site));
    }
    return out;
  }

 private:
  int class_named(const std::string& name) const {
    for (std::size_t c = 0; c < m_.classes.size(); ++c) {
      if (m_.classes[c].name == name) return static_cast<int>(c);
    }
    return -1;
  }
  bool derives_from(int cls, int base, int depth) const {
    if (depth > 16 || cls < 0) return false;
    for (const std::string& b : m_.classes[static_cast<std::size_t>(cls)].bases) {
      int k = class_named(b);
      if (k == base || (k >= 0 && k != cls && derives_from(k, base, depth + 1))) return true;
    }
    return false;
  }
  int method(int cls, const std::string& name, bool skip_self, int depth = 0) const {
    if (cls < 0 || depth > 16) return -1;
    if (!skip_self) {
      for (std::size_t f = 0; f < m_.functions.size(); ++f) {
        if (m_.functions[f].class_index == cls && m_.functions[f].name == name) return static_cast<int>(f);
      }
    }
    for (const std::string& b : m_.classes[static_cast<std::size_t>(cls)].bases) {
      int k = class_named(b);
      if (k < 0 || k == cls) continue;
      if (int m = method(k, name, false, depth + 1); m >= 0) return m;
    }
    return -1;
  }

  const ModuleEffects& m_;
  EffectSolver* solver_ = nullptr;
};

}  // namespace

void derive_loops(std::string_view text, FileFacts& f, const ModuleEffects* built) {
  if (f.loops.empty()) {
    f.loop_info.clear();
    return;
  }
  Bindings names(f);
  ModuleEffects own;
  if (!built) own = build_effects(f, names);
  const ModuleEffects& effects = built ? *built : own;
  LocalResolver local(effects);
  EffectSolver solver(effects, &local);
  local.attach(solver);
  LoopDeriver(text, f, names, solver).run();
}

void derive_loops_with(std::string_view text, FileFacts& f, EffectSolver& solver, const Bindings& names) {
  if (f.loops.empty()) {
    f.loop_info.clear();
    return;
  }
  LoopDeriver(text, f, names, solver).run();
}

}  // namespace msprobe::analysis
