// Call effects: what each call of a file does for a loop around it (a model's
// forward, backward, an optimizer step, or a call into other code), and the
// solver that folds them through the functions they reach into per-function
// and per-loop effects.
//
// The effects of one file (ModuleEffects) hold no syntax tree and no
// FileFacts: the loop file's derivation and the project layer run the same
// solver over them, the latter over many files at once, following calls
// across modules through an EffectResolver.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {

class Bindings;

// What a call does, as bits: the loop's work, and msProbe's dump calls (so
// a stop()/step() or a construction in another module's helper is seen where
// the helper is called).
using Effects = uint16_t;
enum EffectKind : Effects {
  kForward = 1,
  kBackward = 2,
  kStep = 4,
  kGenerate = 8,
  kDumpStart = 16,
  kDumpStop = 32,  // stop() or 8.x forward_backward_dump_end()
  kDumpStep = 64,
  kDumpConstruct = 128,
  kDumpSeed = 256,
};

// A call whose effect is another function's, found by name outside this file
// or by the class of an instance.
struct CallTarget {
  enum class Via : uint8_t {
    Name,      // `train(...)`, `engine.train_one_epoch(...)`: a name this file imports or does not define
    Instance,  // `trainer.train_step(...)` with `trainer = Trainer(...)` of a class this file does not define
    Self,      // `self.run_step()`: the method of the instance's class, whichever subclass it is
    Super,     // `super().train()`: the method of a base class
  };
  Via via = Via::Name;
  std::string name;     // Name: the callee as written; otherwise the method name
  std::string ctor;     // Instance: the callee of the call that built the receiver ("Trainer")
  int self_class = -1;  // Self/Super: the class (of this file) of the method that makes the call
};

struct CallArg {
  std::string keyword;  // empty for positional
  std::string text;
};

// One call of the file that matters for loops: it runs a forward, backward or
// step itself, or reaches a function that may.
struct CallSite {
  ByteRange at;               // the whole call
  uint32_t line = 0;          // 0-based line of the call
  int function = -1;          // enclosing def, -1 at module level
  Effects kinds = 0;          // EffectKind bits of the call itself
  std::string model;          // for a forward: the model expression ("" for a graph replay)
  std::string passed_model;   // a model handed to code nobody can see into (a library's helper)
  int helper = -1;            // a function of this file that runs here
  int closure = -1;           // optimizer.step(closure): the closure's function
  int target = -1;            // index into ModuleEffects::targets, -1 when none
  std::string receiver;       // the callee's receiver as written ("trainer" in trainer.train_step), "" for none
  std::vector<CallArg> args;  // kept for calls that reach a function (helper, closure, target)
  int call = -1;              // index into FileFacts::calls; -1 for a manual update (an assignment)
};

struct FunctionShape {
  std::string name;
  int class_index = -1;
  int parent = -1;
  ByteRange range;
  ByteRange body;
  uint32_t line = 0;
  std::vector<std::string> params;
};

struct LoopShape {
  ByteRange range;
  ByteRange body;
  int function = -1;
  int parent = -1;
  uint32_t line = 0;
};

struct ClassShape {
  std::string name;
  std::vector<std::string> bases;  // as written
  uint32_t line = 0;
  bool module = false;  // an nn.Module / Cell subclass, as far as this file tells
};

struct ModuleEffects {
  std::vector<FunctionShape> functions;  // as FileFacts::functions
  std::vector<LoopShape> loops;          // as FileFacts::loops
  std::vector<ClassShape> classes;       // as FileFacts::classes
  std::vector<CallSite> sites;           // sorted by position
  std::vector<CallTarget> targets;
  uint64_t bindings_key = 0;  // Bindings::key() of the bindings they were built with
};

// The effects of the build before an edit, and the facts they were built over.
struct PreviousEffects {
  const FileFacts* facts = nullptr;
  const ModuleEffects* effects = nullptr;
};

// The call effects of a file; `bindings` must be built over `facts`.
//
// After an edit (`previous`, with `facts` built reusing previous->facts'
// chunks): a call in a def of a top-level statement the edit left alone keeps
// its previous site, moved, when nothing it depends on can have changed: the
// bindings (same key), the defs and classes (same names, nesting, parameters,
// bases), its resolved name, and whether it is an msProbe call. Everything a
// site depends on besides is inside its own def, hence inside that statement.
// Module-level calls are derived again (their assignments span the file). The
// result equals a fresh build (test_incremental_effects.cpp).
ModuleEffects build_effects(const FileFacts& facts, const Bindings& bindings,
                            const PreviousEffects* previous = nullptr);

// Calls of the last build_effects on this thread whose site was derived, and
// those whose previous site was kept (for the debug log and the tests).
struct EffectsBuildStats {
  std::size_t derived = 0;
  std::size_t reused = 0;
};
EffectsBuildStats last_effects_build_stats();

// What running a function does, as the caller of the function sees it.
struct FunctionEffect {
  Effects kinds = 0;
  std::vector<std::string> models;  // distinct, in call order
};

// Where a loop's iteration runs a forward, backward or step.
struct LoopSite {
  ByteRange at;  // the call in the loop's body (a helper's call site when it happens in a helper)
  Effects kinds = 0;
  std::string model;
  std::string passed_model;
};

class EffectSolver;

// Finds what a CallTarget runs: in this file (a subclass's override) or in
// another module of the project.
class EffectResolver {
 public:
  virtual ~EffectResolver() = default;
  // The effect of `site` (which has a target) made in `module`, or nullopt
  // when the target cannot be found. Models come back in the caller's terms.
  virtual std::optional<FunctionEffect> resolve(const EffectSolver& from, const CallSite& site, int depth) = 0;
};

// The folding of call effects through helpers. Loops inside a function that
// have a role of their own are left out of the function's effect, so an
// epoch loop that calls `train()` does not train itself.
class EffectSolver {
 public:
  EffectSolver(const ModuleEffects& module, EffectResolver* resolver);

  const ModuleEffects& module() const { return m_; }

  // Chains deeper than this count as doing nothing.
  static constexpr int kMaxDepth = 40;

  const FunctionEffect& function_effect(int fn, int depth);
  // The union of the kinds of loop `li`'s sites; the sites themselves in `sites(li)`.
  Effects loop_kinds(int li, int depth = 0);
  const std::vector<LoopSite>& sites(int li);

 private:
  void add_call(const CallSite& s, int depth, Effects& kinds, std::vector<std::string>& models, bool first_model_only,
                ByteRange region);

  const ModuleEffects& m_;
  EffectResolver* resolver_;
  std::vector<uint8_t> fn_state_;  // 0 not computed, 1 in progress, 2 done
  std::vector<FunctionEffect> fn_effects_;
  std::vector<uint8_t> loop_state_;
  std::vector<Effects> loop_kinds_;
  std::vector<std::vector<LoopSite>> loop_sites_;
};

// A loop has a role when its kinds say so: train (backward and step) or
// forward only.
bool loop_has_role(Effects kinds);

// `model`, an expression in the callee's terms, as the caller sees it: a
// parameter becomes the argument passed, `self.x` through `recv.method()`
// becomes `recv.x`.
std::string model_in_caller(const std::string& model, const FunctionShape& callee, const CallSite& site);

void add_model(std::vector<std::string>& models, const std::string& m);

}  // namespace msprobe::analysis
