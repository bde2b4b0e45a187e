#include "training.h"

#include <utility>

#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

// "model.module" and "model" are the same module for training purposes (DDP's inner module).
std::string_view without_module_suffix(std::string_view e) {
  while (ends_with(e, ".module")) e.remove_suffix(7);
  return e;
}

// The part after the first '.', empty when there is none.
std::string_view after_root(std::string_view e) {
  std::size_t d = e.find('.');
  return d == std::string_view::npos ? std::string_view() : e.substr(d + 1);
}

// Calls that return the module they are given, on it (`model.to(device)`)
// or around it (`DDP(model)`, `accelerator.prepare(model)`).
bool wrapping_method(std::string_view last) {
  for (std::string_view m : {"to", "cuda", "npu", "xpu", "cpu", "half", "float", "bfloat16", "double", "train"}) {
    if (last == m) return true;
  }
  return false;
}
bool wrapper_function(std::string_view last) {
  for (std::string_view w : {"DistributedDataParallel", "DDP", "DataParallel", "FullyShardedDataParallel", "FSDP",
                             "ShardedDataParallel", "prepare", "prepare_model", "compile", "wrap", "initialize"}) {
    if (last == w) return true;
  }
  return false;
}

// The positional arguments of a call, in order.
std::vector<const Argument*> positional(const Call& c) {
  std::vector<const Argument*> out;
  for (const Argument& a : c.args) {
    if (a.keyword.empty()) out.push_back(&a);
  }
  return out;
}

// The module a call wraps: its first positional argument or `module=` / `model=`.
const Argument* wrapped(const Call& c) {
  for (const Argument& a : c.args) {
    if (a.keyword.empty() || a.keyword == "module" || a.keyword == "model") return &a;
  }
  return nullptr;
}

}  // namespace

ModuleTraining::ModuleTraining(const FileFacts& facts, const Bindings& bindings) : f_(facts), b_(bindings) {
  // Optimizers built where the file shows it: torch.optim classes anywhere,
  // and whatever an assignment says holds an optimizer (an imported class, a
  // factory such as create_optimizer(args, model), model.configure_optimizers()).
  for (const Call& c : f_.calls) {
    if (starts_with(c.qualified, "torch.optim.") && !contains(c.qualified, "lr_scheduler") &&
        !contains(c.qualified, "swa_utils") && upper_first(last_name(c.qualified)))
      from_optimizer(c, 0);
  }
  for (const Assignment& a : f_.assignments) {
    for (std::size_t i = 0; i < a.targets.size(); ++i) {
      if (!(b_.holds(a.targets[i]) & kOptimizer) || (b_.holds(a.targets[i]) & kEngine)) continue;
      int vc = a.targets.size() == a.value_calls.size() ? a.value_calls[i] : a.value_call;
      if (vc >= 0) from_optimizer(f_.calls[static_cast<std::size_t>(vc)], 0);
    }
  }
  // Wrappers and aliases of a trained module train it too, both ways:
  // `ddp = DDP(model)`, `model, opt = accelerator.prepare(model, opt)`,
  // `model_without_ddp = model.module`, `engine, opt, _, _ = deepspeed.initialize(...)`.
  // The assignments that can link two modules are found once, in file order;
  // the rounds then follow only them.
  if (!trained_.items.empty()) {
    struct Link {
      const Assignment* a;
      std::string_view from;        // one target: the module it is made from
      const Call* multi = nullptr;  // several targets: the prepare/initialize call
    };
    std::vector<Link> links;
    for (const Assignment& a : f_.assignments) {
      if (a.targets.size() == 1 && a.values.size() == 1) {
        std::string_view from;
        if (a.value_call >= 0) {
          const Call& c = f_.calls[static_cast<std::size_t>(a.value_call)];
          std::string_view callee = c.callee, last = last_name(callee), recv = receiver_of(callee);
          if (!recv.empty() && wrapping_method(last)) from = recv;
          else if (wrapper_function(last)) {
            if (const Argument* w = wrapped(c)) from = w->text;
          }
        } else if (is_dotted_name(a.values[0])) {
          from = a.values[0];
        }
        if (!from.empty()) links.push_back({&a, from});
      } else if (a.targets.size() > 1 && a.value_call >= 0) {
        const Call& c = f_.calls[static_cast<std::size_t>(a.value_call)];
        std::string_view last = last_name(c.callee);
        if (last == "prepare" || last == "initialize") links.push_back({&a, {}, &c});
      }
    }
    for (int round = 0; round < 2; ++round) {
      for (const Link& l : links) {
        if (!l.multi) {
          const std::string& target = l.a->targets[0];
          if (trained(l.from) && !trained(target)) add(trained_, target);
          else if (trained(target) && !trained(l.from)) add(trained_, l.from);
        } else if (starts_with(l.multi->qualified, "deepspeed.") && last_name(l.multi->callee) == "initialize") {
          add(trained_, l.a->targets[0]);  // the engine trains the model it was given
        } else {
          std::vector<const Argument*> pos = positional(*l.multi);
          for (std::size_t i = 0; i < pos.size() && i < l.a->targets.size(); ++i) {
            if (trained(pos[i]->text) && !trained(l.a->targets[i])) add(trained_, l.a->targets[i]);
          }
        }
      }
    }
  }

  // Frozen: requires_grad_(False), eval() never undone by train(), and
  // `for p in X.parameters(): p.requires_grad = False`.
  Names evaluated, put_in_train;
  for (const Call& c : f_.calls) {
    std::string_view callee = c.callee;
    // A method call by its end first: most calls are none of the three.
    if (!ends_with(callee, ".requires_grad_") && !ends_with(callee, ".eval") && !ends_with(callee, ".train")) continue;
    std::string_view last = last_name(callee), recv = receiver_of(callee);
    if (recv.empty() || !is_dotted_name(recv)) continue;
    bool first_false = !c.args.empty() && std::string_view(c.args.front().text) == "False";
    if (last == "requires_grad_" && first_false) add(frozen_, recv);
    else if (last == "eval" && c.args.empty()) add(evaluated, recv);
    else if (last == "train" && !first_false) add(put_in_train, recv);
  }
  for (const std::string& e : evaluated.items) {
    if (!put_in_train.matches(e)) add(frozen_, e);
  }
  for (const Assignment& a : f_.assignments) {
    if (a.loop < 0 || a.targets.size() != 1 || a.values.size() != 1 || a.values[0] != "False" ||
        !ends_with(a.targets[0], ".requires_grad"))
      continue;
    const std::string& iterable = f_.loops[static_cast<std::size_t>(a.loop)].iterable;
    for (std::size_t at = iterable.find(".parameters("); at != std::string::npos;
         at = iterable.find(".parameters(", at + 1)) {
      std::size_t b = at;
      while (b > 0 && (is_name_char(iterable[b - 1]) || iterable[b - 1] == '.')) --b;
      if (b < at) add(frozen_, std::string_view(iterable).substr(b, at - b));
    }
  }
}

bool ModuleTraining::Names::matches(std::string_view expr) const {
  expr = without_module_suffix(expr);
  if (exact_.count(expr)) return true;
  std::string_view tail = after_root(expr);
  if (tail.empty()) return false;
  return (starts_with(expr, "self.") ? tails_ : self_tails_).count(tail) != 0;
}

void ModuleTraining::Names::add(std::string_view expr) {
  if (expr.empty() || matches(expr)) return;
  items.emplace_back(expr);
  std::string_view e = without_module_suffix(expr);
  exact_.emplace(e);
  if (std::string_view tail = after_root(e); !tail.empty()) {
    tails_.emplace(tail);
    if (starts_with(e, "self.")) self_tails_.emplace(tail);
  }
}

void ModuleTraining::from_optimizer(const Call& c, int depth) {
  std::string_view recv = receiver_of(c.callee);
  // `model.configure_optimizers(...)`: the model builds its own optimizer.
  if (!recv.empty() && b_.is_model(recv)) add(trained_, recv);
  bool torch_class = starts_with(c.qualified, "torch.optim.");
  for (const Argument& a : c.args) {
    if (!a.keyword.empty() && a.keyword != "params" && a.keyword != "param_groups" && a.keyword != "model_parameters" &&
        a.keyword != "model" && a.keyword != "module")
      continue;
    modules_in(a.text, depth, c.function);
    // A factory handed the model: create_optimizer_v2(model, "adamw"), build_optimizer(cfg, model).
    if (!torch_class && is_dotted_name(a.text) && b_.is_model(a.text)) add(trained_, a.text);
    if (torch_class && a.keyword.empty()) break;  // lr, betas, ... follow
  }
}

// The modules whose parameters an expression holds: `X.parameters()`,
// `X.named_parameters()` anywhere in it, and through the names it uses that
// the file assigns (`params = [p for p in model.parameters() if ...]`).
void ModuleTraining::modules_in(std::string_view text, int depth, int function) {
  bool found = false;
  for (std::string_view key : {std::string_view(".parameters("), std::string_view(".named_parameters(")}) {
    for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
      std::size_t b = at;
      while (b > 0 && (is_name_char(text[b - 1]) || text[b - 1] == '.')) --b;
      if (b == at || text[b] == '.') continue;
      add(trained_, text.substr(b, at - b));
      found = true;
    }
  }
  if (found || depth >= 2) return;
  // Plain names in the text that the file assigns: follow them once more.
  for_each_name(text, [&](std::string_view name, bool called, bool attribute) {
    if (called || attribute) return false;
    // A module handed to a parameter-group helper: param_groups(student, wd).
    if (is_dotted_name(name) && b_.is_model(name)) {
      add(trained_, name);
      return false;
    }
    // The name as the optimizer's def sees it: its assignments in that def
    // and at module level, in the order of the file.
    const AssignmentsByTarget& assigned = b_.assignments();
    AssignmentsByTarget::Refs in_def = assigned.of(name, function), at_module = {nullptr, nullptr};
    if (function != -1) at_module = assigned.of(name, -1);
    const AssignmentsByTarget::Entry *d = in_def.begin(), *m = at_module.begin();
    while (d != in_def.end() || m != at_module.end()) {
      bool from_def = m == at_module.end() ||
                      (d != in_def.end() && std::make_pair(d->ref.assignment, d->ref.element) <
                                                std::make_pair(m->ref.assignment, m->ref.element));
      AssignmentsByTarget::Ref r = (from_def ? d++ : m++)->ref;
      const Assignment& a = f_.assignments[static_cast<std::size_t>(r.assignment)];
      std::size_t t = static_cast<std::size_t>(r.element);
      if (t < a.values.size() && a.values[t] != text) modules_in(a.values[t], depth + 1, function);
    }
    return false;
  });
}

}  // namespace msprobe::analysis
