// One question put to a project snapshot: names resolved across modules,
// classes and their methods through the hierarchy (across files), call
// effects folded across files, and what a launched script reaches. A session
// memoises as it goes and is thrown away after the question, so it never
// holds stale answers.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "effects.h"
#include "msprobe/analysis/project.h"
#include "project/modules.h"
#include "project/summary.h"

namespace msprobe::analysis {

// A function of a project file (-1: the module's top level).
struct FunctionRef {
  std::string file;
  int function = -1;
  friend bool operator==(const FunctionRef& a, const FunctionRef& b) {
    return a.function == b.function && a.file == b.file;
  }
  friend bool operator<(const FunctionRef& a, const FunctionRef& b) {
    return a.file != b.file ? a.file < b.file : a.function < b.function;
  }
};

struct ClassRef {
  std::string file;
  int cls = -1;
  friend bool operator==(const ClassRef& a, const ClassRef& b) { return a.cls == b.cls && a.file == b.file; }
  friend bool operator<(const ClassRef& a, const ClassRef& b) {
    return a.file != b.file ? a.file < b.file : a.cls < b.cls;
  }
};

// What a dotted name stands for in a module's scope.
struct Symbol {
  enum class Kind { None, Module, Function, Class };
  Kind kind = Kind::None;
  ModuleRef module;  // Kind::Module
  std::string file;  // Function / Class: the file defining it
  int index = -1;    // Function / Class: index in that file's summary
};

// One step on the way from an entry to a function.
struct ReachStep {
  FunctionRef from;    // the caller (-1: module level of the file)
  uint32_t line = 0;   // 0-based line of the call (or of the launch)
  bool spawn = false;  // the callee runs in new worker processes started here
};

// The module binds functions of torch by name at import time
// (`from torch.nn.functional import softmax`): msProbe's wrappers, installed
// when the debugger is built, do not reach those names if this runs first.
bool binds_torch_names(const ModuleSummary& summary);

class ProjectSession : public EffectResolver {
 public:
  // `self_rel`'s summary is `self` (the file being analysed, newer than the snapshot's).
  ProjectSession(const ProjectSnapshot& project, std::string self_rel, const ModuleSummary* self);

  const ProjectSnapshot& project() const { return p_; }
  const ModuleSummary* summary(const std::string& rel) const;
  bool is_script(const std::string& rel) const;
  EffectSolver& solver(const std::string& rel);

  Symbol lookup(const std::string& rel, const std::string& dotted, int depth = 0);
  std::vector<ClassRef> bases(const ClassRef& c);
  // The method `name` of class `c` through its bases (itself first unless `skip_self`).
  std::optional<FunctionRef> method(const ClassRef& c, const std::string& name, bool skip_self = false);
  // Methods named `name` of the classes derived from `c`, in every file.
  std::vector<FunctionRef> overrides(const ClassRef& c, const std::string& name);

  // The functions a call site reaches (several for a method subclasses override).
  std::vector<FunctionRef> callees(const std::string& rel, const CallSite& site);

  std::optional<FunctionEffect> resolve(const EffectSolver& from, const CallSite& site, int depth) override;

  // Functions reached from `start` (its calls, and launched workers),
  // breadth first, with the step that first reached each; at most `limit`.
  struct Reach {
    std::vector<FunctionRef> order;  // in the order they were reached, `start` first
    std::map<FunctionRef, ReachStep> steps;
  };
  const Reach& reach(const FunctionRef& start, std::size_t limit = 20000);

  // The project files a module's module-level import statements load (those
  // before `before_line`), packages' __init__.py included.
  std::vector<std::string> imported_files(const std::string& rel, uint32_t before_line);

  // "Trainer.run" / "main" / "<module>" for messages.
  std::string function_name(const FunctionRef& f) const;

 private:
  // `named`: the lookup of the site's target name, when the caller has it.
  std::vector<FunctionRef> callees(const std::string& rel, const CallSite& site, const Symbol* named);
  Symbol lookup_uncached(const std::string& rel, const std::string& dotted, int depth);
  Symbol member(const Symbol& of, const std::string& name, int depth);
  Symbol in_module(const ModuleRef& m, const std::string& name, int depth);
  bool derives_from(const ClassRef& c, const ClassRef& base, int depth);
  // A module's top-level defs and classes by name (the last definition wins),
  // built on a module's first lookup: lookups run once per call site.
  struct Definitions {
    std::unordered_map<std::string_view, int> functions, classes;  // views into the summary
    // Every def of the module by name, methods and nested defs included, in
    // the order of the file: method() asks once per call site and class.
    std::unordered_map<std::string_view, std::vector<int>> all_by_name;
  };
  const Definitions& definitions(const ModuleSummary& s);

  const ProjectSnapshot& p_;
  std::string self_rel_;
  const ModuleSummary* self_;
  std::map<std::string, std::unique_ptr<EffectSolver>> solvers_;
  std::unordered_map<const EffectSolver*, std::string> solver_files_;
  std::map<ClassRef, std::vector<ClassRef>> bases_;
  std::unique_ptr<std::unordered_map<std::string, std::vector<FunctionRef>>> methods_by_name_;
  std::map<FunctionRef, Reach> reaches_;
  std::unordered_map<const ModuleSummary*, Definitions> definitions_;
  std::unordered_map<std::string, Symbol> lookups_;  // "rel\0dotted" -> a top-level lookup's answer
  std::string lookup_key_;
};

}  // namespace msprobe::analysis
