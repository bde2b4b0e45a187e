// What the names of a file hold (a model, an optimizer, an LR scheduler, a
// GradScaler, a gym env, ...) as far as their assignments tell, and which
// function of the file a call reaches. Loop roles are built on top of this:
// `x.step()` is an optimizer step only when `x` holds an optimizer.
//
// Names are tracked per file, by the source text of the assignment target
// ("model", "self.optimizer"): scripts reuse names consistently, and a
// per-scope table would cost more than it wins.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {

// Bits of what a value is.
enum Holds : uint32_t {
  kModel = 1u << 0,      // an nn.Module / Cell (or a DeepSpeed engine, a compiled module)
  kOptimizer = 1u << 1,  // torch.optim.*, mindspore nn.SGD, ...
  kScheduler = 1u << 2,  // an LR scheduler
  kScaler = 1u << 3,     // torch.cuda.amp.GradScaler
  kGraph = 1u << 4,      // torch.npu.NPUGraph / torch.cuda.CUDAGraph
  kGradFn = 1u << 5,     // mindspore value_and_grad(...) result: calling it runs forward + backward
  kDebugger = 1u << 6,   // msProbe PrecisionDebugger
  kLoss = 1u << 7,       // a loss module (nn.CrossEntropyLoss, ...)
  kEnv = 1u << 8,        // a gym environment
  kLlm = 1u << 9,        // vLLM LLM(...)
  kEngine = 1u << 10,    // DeepSpeed engine (also kModel): engine.step() is the optimizer step
  kOther = 1u << 11,     // something else that is known (a tensor, a DataLoader, a device, ...)
};

// The assignments of a file by target text (`a, b = ...` lists each element),
// built on first use: what a name was assigned, without a scan per lookup.
class AssignmentsByTarget {
 public:
  struct Ref {
    int assignment = -1;  // index into FileFacts::assignments
    int element = 0;      // index into its targets
  };
  struct Entry {
    Ref ref;
    std::string_view target;  // what it names (a view into the facts)
  };
  explicit AssignmentsByTarget(const FileFacts& facts) : f_(facts) {}
  // The assignments to `target` made in def `function` (-1: at module
  // level), in the order of the file.
  struct Refs {
    const Entry* first;
    const Entry* last;
    const Entry* begin() const { return first; }
    const Entry* end() const { return last; }
  };
  Refs of(std::string_view target, int function) const;

 private:
  void index() const;

  const FileFacts& f_;
  // Every assignment target, by def (module level first), then by name,
  // then in file order; def g's are entries_[def_at_[g + 1]] ..
  // entries_[def_at_[g + 2]]. Empty until first asked.
  mutable std::vector<Entry> entries_;
  mutable std::vector<uint32_t> def_at_;
};

class Bindings {
 public:
  explicit Bindings(const FileFacts& facts);

  // Bits recorded for a name (0 when nothing is known).
  uint32_t holds(std::string_view name) const;
  // The class of this file a name holds an instance of, -1 if none.
  int instance_class(std::string_view name) const;
  // The function a gradient function wraps (`grad_fn = value_and_grad(forward_fn, ...)`), -1 if none.
  int grad_target(std::string_view name) const;

  // `expr` is called for a model forward: it holds a model, or nothing is
  // known about it and its last name reads like one (model, net, encoder, ...).
  bool is_model(std::string_view expr) const;
  // `recv.step()` is an optimizer step.
  bool steps_optimizer(std::string_view recv) const;

  // The function of this file a call reaches (by name in scope, self.method,
  // or a method of an instance of a class of this file), -1 when none.
  int resolve_function(const Call& call) const { return resolve_callee(call.callee, call.function); }
  // The same for a callee written as `callee` inside def `caller` (-1: module level).
  int resolve_callee(std::string_view callee, int caller) const;
  bool is_local_callable(std::string_view name) const;  // a def or class of this file
  bool is_module_class(int class_index) const { return module_class_[static_cast<std::size_t>(class_index)]; }
  // Index of the class of this file named `name`, -1 if none.
  int class_named(std::string_view name) const;

  // The call whose range is exactly `r`, -1 if none.
  int call_at(ByteRange r) const;

  // The callee of the call a name was built with, when that is a class or
  // function this file does not define (`trainer = Trainer(cfg)` with Trainer
  // imported gives "Trainer"); "" otherwise.
  std::string constructor_of(std::string_view name) const;
  // `name` is bound by an import statement (relative ones included).
  bool imported(std::string_view name) const;

  // A digest of what the queries above answer from besides the defs and
  // classes: what each name holds, the import aliases and bound names, which
  // classes are modules. Two bindings with the same key, over facts with the
  // same defs and classes (names, nesting, parameters, bases), answer every
  // query about the same text alike (the incremental call effects rely on it).
  uint64_t key() const;

  // The file's assignments by target, indexed on first use and shared by
  // whoever asks (the call effects, the trained modules).
  const AssignmentsByTarget& assignments() const { return assigned_; }

 private:
  struct Info {
    uint32_t holds = 0;
    int grad_target = -1;
    int instance_of = -1;  // class of this file
    std::string ctor;      // see constructor_of
  };

  bool is_model_uncached(std::string_view expr) const;
  Info classify_call(int call, int depth) const;
  Info classify_value(const std::string& value, int value_call, int depth) const;
  uint32_t function_returns(int function, int depth) const;
  int find_method(int class_index, std::string_view name, int depth = 0) const;
  int function_named(std::string_view name, int caller) const;

  const FileFacts& f_;
  AssignmentsByTarget assigned_{f_};
  // Keys are views into the facts' strings (assignment targets, def and class
  // names), which outlive the bindings: lookups by string_view allocate nothing.
  std::unordered_map<std::string_view, Info> names_;
  std::unordered_map<std::string_view, std::vector<int>> functions_by_name_;
  std::unordered_map<std::string_view, int> classes_by_name_;
  std::unordered_set<std::string_view> imported_;  // views into FileFacts::imports
  // Calls by range: start ascending, then end descending (a call before the
  // calls inside it), then index. The facts list calls in that order already
  // (pre-order), so building it is one pass; one allocation, not one per call.
  struct CallKey {
    uint32_t start, end;
    int index;
  };
  static bool call_key_less(const CallKey& a, const CallKey& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end > b.end;
    return a.index < b.index;
  }
  std::vector<CallKey> calls_by_range_;
  std::vector<bool> module_class_;
  mutable std::vector<int> returns_memo_;  // -1 unknown, -2 in progress, else bits
  // Reads by classify_* of what assignments bound so far (names_, returns_memo_):
  // the constructor's second round redoes only the assignments that made some.
  mutable unsigned order_reads_ = 0;
  // classify_call's answers for imported callees, by qualified name (views
  // into the facts): what calling each gives.
  mutable std::unordered_map<std::string_view, uint32_t> imported_holds_;
  // is_model's answers: a file asks about the same few names thousands of times.
  mutable std::map<std::string, bool, std::less<>> is_model_memo_;
  std::vector<std::vector<int>> returns_by_function_;
};

// The part after the last '.', or the whole text.
inline std::string_view last_name(std::string_view dotted) {
  std::size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}
// The part before the last '.', or empty.
inline std::string_view receiver_of(std::string_view dotted) {
  std::size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : dotted.substr(0, dot);
}
// `a.b.c`: identifiers joined by dots, nothing else.
bool is_dotted_name(std::string_view s);
// A character of a Python identifier (non-ASCII bytes included).
inline bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Calls `f(name, called, attribute)` for every dotted name in source text, in
// order (`out.mean` in `out.mean()` is called; `b` in `a().b` is an
// attribute); `f` returns true to stop. Returns whether it stopped.
template <class F>
bool for_each_name(std::string_view text, F&& f) {
  for (std::size_t i = 0; i < text.size();) {
    if (!is_name_char(text[i]) || (text[i] >= '0' && text[i] <= '9')) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && (is_name_char(text[j]) || text[j] == '.')) ++j;
    bool called = j < text.size() && text[j] == '(';
    bool attribute = i > 0 && text[i - 1] == '.';
    if (f(text.substr(i, j - i), called, attribute)) return true;
    i = j;
  }
  return false;
}

}  // namespace msprobe::analysis
