// Cross-module resolution for one question (see session.h).
#include "project/session.h"
#include "torch_api.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace msprobe::analysis {
namespace {

constexpr int kMaxLookupDepth = 12;

std::string first_segment(const std::string& dotted) { return dotted.substr(0, dotted.find('.')); }

}  // namespace

ProjectSession::ProjectSession(const ProjectSnapshot& project, std::string self_rel, const ModuleSummary* self)
    : p_(project), self_rel_(std::move(self_rel)), self_(self) {}

const ModuleSummary* ProjectSession::summary(const std::string& rel) const {
  if (self_ && rel == self_rel_) return self_;
  return p_.file(rel);
}

bool ProjectSession::is_script(const std::string& rel) const {
  const ModuleSummary* s = summary(rel);
  if (!s) return false;
  bool main_py = rel == "__main__.py" || (rel.size() > 12 && rel.compare(rel.size() - 12, 12, "/__main__.py") == 0);
  return main_py || s->main_guard_line >= 0 || s->runs_code;
}

EffectSolver& ProjectSession::solver(const std::string& rel) {
  auto it = solvers_.find(rel);
  if (it != solvers_.end()) return *it->second;
  static const ModuleEffects kEmpty;
  const ModuleSummary* s = summary(rel);
  auto solver = std::make_unique<EffectSolver>(s ? s->effects : kEmpty, this);
  solver_files_[solver.get()] = rel;
  return *solvers_.emplace(rel, std::move(solver)).first->second;
}

Symbol ProjectSession::in_module(const ModuleRef& m, const std::string& name, int depth) {
  if (!m.file.empty()) {
    Symbol s = lookup(m.file, name, depth + 1);
    if (s.kind != Symbol::Kind::None) return s;
  }
  if (std::optional<ModuleRef> sub = p_.modules().submodule(m, name)) {
    Symbol s;
    s.kind = Symbol::Kind::Module;
    s.module = *sub;
    return s;
  }
  return {};
}

Symbol ProjectSession::member(const Symbol& of, const std::string& name, int depth) {
  switch (of.kind) {
    case Symbol::Kind::Module: return in_module(of.module, name, depth);
    case Symbol::Kind::Class:
      if (std::optional<FunctionRef> m = method({of.file, of.index}, name)) {
        Symbol s;
        s.kind = Symbol::Kind::Function;
        s.file = m->file;
        s.index = m->function;
        return s;
      }
      return {};
    default: return {};
  }
}

const ProjectSession::Definitions& ProjectSession::definitions(const ModuleSummary& s) {
  auto [it, fresh] = definitions_.try_emplace(&s);
  if (fresh) {
    const std::vector<FunctionShape>& fns = s.effects.functions;
    for (std::size_t i = 0; i < fns.size(); ++i) {
      if (fns[i].parent == -1 && fns[i].class_index == -1) it->second.functions[fns[i].name] = static_cast<int>(i);
      it->second.all_by_name[fns[i].name].push_back(static_cast<int>(i));
    }
    const std::vector<ClassShape>& classes = s.effects.classes;
    for (std::size_t i = 0; i < classes.size(); ++i) it->second.classes[classes[i].name] = static_cast<int>(i);
  }
  return it->second;
}

Symbol ProjectSession::lookup(const std::string& rel, const std::string& dotted, int depth) {
  // A file asks about the same few names once per call site (thousands of
  // times); the project does not change during a session, so a top-level
  // lookup's answer is remembered. Deeper ones depend on the depth left.
  if (depth != 0) return lookup_uncached(rel, dotted, depth);
  // The key is composed in a buffer the session keeps (no allocation per
  // call); a miss takes its own copy, since the lookup may come back here.
  lookup_key_.assign(rel).push_back('\0');
  lookup_key_.append(dotted);
  if (auto it = lookups_.find(lookup_key_); it != lookups_.end()) return it->second;
  std::string key = lookup_key_;
  Symbol sym = lookup_uncached(rel, dotted, 0);
  lookups_.emplace(std::move(key), sym);
  return sym;
}

Symbol ProjectSession::lookup_uncached(const std::string& rel, const std::string& dotted, int depth) {
  if (depth > kMaxLookupDepth || dotted.empty()) return {};
  const ModuleSummary* s = summary(rel);
  if (!s) return {};
  std::string root = first_segment(dotted);
  Symbol sym;
  // Definitions of the module (the last one wins, as at run time)...
  const Definitions& defs = definitions(*s);
  if (auto f = defs.functions.find(root); f != defs.functions.end()) {
    sym.kind = Symbol::Kind::Function;
    sym.file = rel;
    sym.index = f->second;
  } else if (auto c = defs.classes.find(root); c != defs.classes.end()) {
    sym.kind = Symbol::Kind::Class;
    sym.file = rel;
    sym.index = c->second;
  }
  // ... else what an import binds to the name ...
  bool script = is_script(rel);
  for (std::size_t i = s->imports.size(); i-- > 0 && sym.kind == Symbol::Kind::None;) {
    const ImportRef& imp = s->imports[i];
    if (imp.name == "*" || imp.bound != root) continue;
    if (imp.name.empty()) {
      // `import a.b.c` binds `a`; `import a.b as x` binds the module a.b.
      std::string module = imp.module == imp.bound || first_segment(imp.module) != imp.bound ? imp.module : imp.bound;
      if (std::optional<ModuleRef> m = p_.modules().resolve(rel, module, script)) {
        sym.kind = Symbol::Kind::Module;
        sym.module = *m;
      } else {
        return {};  // a library
      }
    } else {
      std::optional<ModuleRef> m = p_.modules().resolve(rel, imp.module, script);
      if (!m) return {};
      sym = in_module(*m, imp.name, depth);
      if (sym.kind == Symbol::Kind::None) return {};
    }
  }
  // ... else a star import's.
  for (std::size_t i = s->imports.size(); i-- > 0 && sym.kind == Symbol::Kind::None;) {
    const ImportRef& imp = s->imports[i];
    if (imp.name != "*") continue;
    if (std::optional<ModuleRef> m = p_.modules().resolve(rel, imp.module, script)) {
      if (!m->file.empty() && m->file != rel) sym = lookup(m->file, root, depth + 1);
    }
  }
  std::size_t start = root.size();
  while (sym.kind != Symbol::Kind::None && start < dotted.size()) {
    std::size_t dot = dotted.find('.', start + 1);
    std::string part = dotted.substr(start + 1, dot == std::string::npos ? std::string::npos : dot - start - 1);
    sym = member(sym, part, depth + 1);
    start = dot == std::string::npos ? dotted.size() : dot;
  }
  return sym;
}

std::vector<ClassRef> ProjectSession::bases(const ClassRef& c) {
  auto it = bases_.find(c);
  if (it != bases_.end()) return it->second;
  bases_[c] = {};  // a class deriving from itself through a cycle ends here
  std::vector<ClassRef> out;
  const ModuleSummary* s = summary(c.file);
  if (s && c.cls >= 0 && static_cast<std::size_t>(c.cls) < s->effects.classes.size()) {
    for (const std::string& b : s->effects.classes[static_cast<std::size_t>(c.cls)].bases) {
      if (b.find_first_of("[(=") != std::string::npos) continue;  // Generic[T], metaclass=...
      Symbol sym = lookup(c.file, b);
      if (sym.kind == Symbol::Kind::Class && !(sym.file == c.file && sym.index == c.cls))
        out.push_back({sym.file, sym.index});
    }
  }
  bases_[c] = out;
  return out;
}

std::optional<FunctionRef> ProjectSession::method(const ClassRef& c, const std::string& name, bool skip_self) {
  std::set<ClassRef> seen;
  std::vector<ClassRef> order{c};
  // Depth-first, left to right: the order Python's MRO gives for the
  // single-inheritance chains and simple mixins trainers use.
  for (std::size_t i = 0; i < order.size() && i < 64; ++i) {
    ClassRef k = order[i];
    if (!seen.insert(k).second) continue;
    if (!(skip_self && i == 0)) {
      if (const ModuleSummary* s = summary(k.file)) {
        const Definitions& defs = definitions(*s);
        if (auto named = defs.all_by_name.find(name); named != defs.all_by_name.end()) {
          for (int f : named->second) {
            if (s->effects.functions[static_cast<std::size_t>(f)].class_index == k.cls) return FunctionRef{k.file, f};
          }
        }
      }
    }
    std::vector<ClassRef> bs = bases(k);
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(i) + 1, bs.begin(), bs.end());
  }
  return std::nullopt;
}

bool ProjectSession::derives_from(const ClassRef& c, const ClassRef& base, int depth) {
  if (depth > 16) return false;
  for (const ClassRef& b : bases(c)) {
    if (b == base || derives_from(b, base, depth + 1)) return true;
  }
  return false;
}

std::vector<FunctionRef> ProjectSession::overrides(const ClassRef& c, const std::string& name) {
  if (!methods_by_name_) {
    methods_by_name_ = std::make_unique<std::unordered_map<std::string, std::vector<FunctionRef>>>();
    auto add = [&](const std::string& rel, const ModuleSummary& s) {
      for (std::size_t f = 0; f < s.effects.functions.size(); ++f) {
        const FunctionShape& fn = s.effects.functions[f];
        if (fn.class_index >= 0) (*methods_by_name_)[fn.name].push_back({rel, static_cast<int>(f)});
      }
    };
    for (const auto& [rel, s] : p_.files()) {
      if (s && !(self_ && rel == self_rel_)) add(rel, *s);
    }
    if (self_) add(self_rel_, *self_);
  }
  std::vector<FunctionRef> out;
  auto it = methods_by_name_->find(name);
  if (it == methods_by_name_->end()) return out;
  for (const FunctionRef& m : it->second) {
    const ModuleSummary* s = summary(m.file);
    if (!s) continue;
    ClassRef owner{m.file, s->effects.functions[static_cast<std::size_t>(m.function)].class_index};
    if (!(owner == c) && derives_from(owner, c, 0)) out.push_back(m);
  }
  return out;
}

std::vector<FunctionRef> ProjectSession::callees(const std::string& rel, const CallSite& site) {
  return callees(rel, site, nullptr);
}

std::vector<FunctionRef> ProjectSession::callees(const std::string& rel, const CallSite& site, const Symbol* named) {
  std::vector<FunctionRef> out;
  const ModuleSummary* s = summary(rel);
  if (!s) return out;
  auto add = [&](const FunctionRef& f) {
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  if (site.target >= 0 && static_cast<std::size_t>(site.target) < s->effects.targets.size()) {
    const CallTarget& t = s->effects.targets[static_cast<std::size_t>(site.target)];
    switch (t.via) {
      case CallTarget::Via::Name: {
        Symbol sym = named ? *named : lookup(rel, t.name);
        if (sym.kind == Symbol::Kind::Function) add({sym.file, sym.index});
        break;
      }
      case CallTarget::Via::Instance: {
        Symbol sym = lookup(rel, t.ctor);
        if (sym.kind == Symbol::Kind::Class) {
          if (std::optional<FunctionRef> m = method({sym.file, sym.index}, t.name)) add(*m);
        }
        break;
      }
      case CallTarget::Via::Self: {
        ClassRef c{rel, t.self_class};
        if (std::optional<FunctionRef> m = method(c, t.name)) add(*m);
        for (const FunctionRef& o : overrides(c, t.name)) add(o);
        break;
      }
      case CallTarget::Via::Super: {
        if (std::optional<FunctionRef> m = method({rel, t.self_class}, t.name, true)) add(*m);
        break;
      }
    }
  }
  if (out.empty() && site.helper >= 0) add({rel, site.helper});
  if (site.closure >= 0) add({rel, site.closure});
  return out;
}

std::optional<FunctionEffect> ProjectSession::resolve(const EffectSolver& from, const CallSite& site, int depth) {
  auto it = solver_files_.find(&from);
  if (it == solver_files_.end()) return std::nullopt;
  const std::string& rel = it->second;  // a node's value: stays where it is while solvers are added
  const ModuleSummary* s = summary(rel);
  if (!s || site.target < 0 || static_cast<std::size_t>(site.target) >= s->effects.targets.size()) return std::nullopt;
  const CallTarget& t = s->effects.targets[static_cast<std::size_t>(site.target)];
  std::optional<Symbol> named;
  if (t.via == CallTarget::Via::Name) {
    named = lookup(rel, t.name);
    if (named->kind == Symbol::Kind::Class) return FunctionEffect{};  // building an object trains nothing
  }
  std::vector<FunctionRef> fns = callees(rel, site, named ? &*named : nullptr);
  if (fns.empty()) return std::nullopt;
  FunctionEffect out;
  for (const FunctionRef& f : fns) {
    const ModuleSummary* fs = summary(f.file);
    if (!fs || f.function < 0) continue;
    const FunctionEffect& e = solver(f.file).function_effect(f.function, depth);
    out.kinds |= e.kinds;
    const FunctionShape& shape = fs->effects.functions[static_cast<std::size_t>(f.function)];
    for (const std::string& m : e.models) add_model(out.models, model_in_caller(m, shape, site));
  }
  return out;
}

const ProjectSession::Reach& ProjectSession::reach(const FunctionRef& start, std::size_t limit) {
  auto cached = reaches_.find(start);
  if (cached != reaches_.end()) return cached->second;
  Reach r;
  r.order.push_back(start);
  r.steps[start] = ReachStep{start, 0, false};
  for (std::size_t next = 0; next < r.order.size() && r.order.size() < limit; ++next) {
    FunctionRef f = r.order[next];
    const ModuleSummary* s = summary(f.file);
    if (!s) continue;
    auto visit = [&](const FunctionRef& g, uint32_t line, bool spawn) {
      if (r.steps.count(g)) return;
      r.steps[g] = ReachStep{f, line, spawn};
      r.order.push_back(g);
    };
    for (const CallSite& site : s->effects.sites) {
      if (site.function != f.function) continue;
      for (const FunctionRef& g : callees(f.file, site)) visit(g, site.line, false);
    }
    for (const LaunchRef& l : s->launches) {
      if (l.function != f.function) continue;
      Symbol sym = lookup(f.file, l.worker);
      if (sym.kind == Symbol::Kind::Function) visit({sym.file, sym.index}, l.line, true);
    }
  }
  return reaches_.emplace(start, std::move(r)).first->second;
}

bool binds_torch_names(const ModuleSummary& summary) {
  return std::any_of(summary.imports.begin(), summary.imports.end(),
                     [](const ImportRef& i) { return i.top_level && is_wrapped_api(i.module, i.name); });
}

std::vector<std::string> ProjectSession::imported_files(const std::string& rel, uint32_t before_line) {
  std::vector<std::string> out;
  const ModuleSummary* s = summary(rel);
  if (!s) return out;
  bool script = is_script(rel);
  auto add = [&](const std::string& f) {
    if (!f.empty() && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  for (const ImportRef& imp : s->imports) {
    if (!imp.top_level || imp.line >= before_line) continue;
    std::optional<ModuleRef> m = p_.modules().resolve(rel, imp.module, script);
    if (!m) continue;
    for (std::string d = m->dir; !d.empty(); d = parent_dir(d)) {
      if (summary(d + "/__init__.py")) add(d + "/__init__.py");
    }
    add(m->file);
    if (!imp.name.empty() && imp.name != "*") {
      if (std::optional<ModuleRef> sub = p_.modules().submodule(*m, imp.name)) add(sub->file);
    }
  }
  return out;
}

std::string ProjectSession::function_name(const FunctionRef& f) const {
  const ModuleSummary* s = summary(f.file);
  if (!s || f.function < 0 || static_cast<std::size_t>(f.function) >= s->effects.functions.size()) return "<module>";
  const FunctionShape& fn = s->effects.functions[static_cast<std::size_t>(f.function)];
  if (fn.class_index >= 0 && static_cast<std::size_t>(fn.class_index) < s->effects.classes.size())
    return s->effects.classes[static_cast<std::size_t>(fn.class_index)].name + "." + fn.name;
  return fn.name;
}

}  // namespace msprobe::analysis
