// Intra-file call graph over FileFacts (see call_graph.h).
#include "call_graph.h"

#include <string>
#include <string_view>
#include <unordered_map>

#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

// What a name of the file can call: the first plain def of that name, the
// first method of that name (any class), the __init__ of the class of that
// name. One map, so a call's callee is hashed once.
struct Named {
  int plain = -1;
  int method = -1;
  int init = -1;
};
using NameIndex = std::unordered_map<std::string_view, Named>;  // views into FileFacts::functions

// `sieve` holds the names of `names`: most callees are passed over before hashing.
int resolve(const Call& c, const NameIndex& names, const NameSieve& sieve) {
  std::string_view callee = c.callee;
  // Def and class names hold no dot: a dotted callee can only be `self.method`.
  if (callee.find('.') != std::string_view::npos) {
    if (callee.substr(0, 5) == "self." && callee.find('.', 5) == std::string_view::npos &&
        sieve.may_hold(callee.substr(5))) {
      if (auto it = names.find(callee.substr(5)); it != names.end()) return it->second.method;
    }
    return -1;
  }
  if (!sieve.may_hold(callee)) return -1;
  auto it = names.find(callee);
  if (it == names.end()) return -1;
  // Class(...) runs its __init__.
  return it->second.plain >= 0 ? it->second.plain : it->second.init;
}

}  // namespace

CallGraph::CallGraph(const FileFacts& f) : f_(f) {
  NameIndex names;
  names.reserve(f.functions.size() + f.classes.size());
  auto first = [](int& slot, int idx) {
    if (slot < 0) slot = idx;  // the first definition wins
  };
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    const Function& fn = f.functions[i];
    int idx = static_cast<int>(i);
    if (fn.class_name.empty()) first(names[fn.name].plain, idx);
    else first(names[fn.name].method, idx);
    if (std::string_view(fn.name) == "__init__" && !fn.class_name.empty()) first(names[fn.class_name].init, idx);
  }
  targets_.resize(f.calls.size(), -1);
  if (names.empty()) return;  // a file without defs calls none of its own
  NameSieve sieve;
  for (const auto& named : names) sieve.add(named.first);
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    targets_[i] = resolve(f.calls[i], names, sieve);
    if (targets_[i] >= 0) resolved_.push_back(static_cast<int>(i));
  }
}

// The calls of each function and the callers of each, built on the first
// walk (dump_call_sites needs only the targets).
void CallGraph::group() const {
  if (grouped_) return;
  grouped_ = true;
  // Counted, then placed: each group keeps the calls in file order.
  calls_in_.at.assign(f_.functions.size() + 1, 0);
  callers_.at.assign(f_.functions.size() + 1, 0);
  for (std::size_t i = 0; i < f_.calls.size(); ++i) {
    if (f_.calls[i].function >= 0) ++calls_in_.at[static_cast<std::size_t>(f_.calls[i].function) + 1];
  }
  for (int i : resolved_) ++callers_.at[static_cast<std::size_t>(target(i)) + 1];
  for (Groups* g : {&calls_in_, &callers_}) {
    for (std::size_t k = 1; k < g->at.size(); ++k) g->at[k] += g->at[k - 1];
    g->calls.resize(g->at.back());
  }
  std::vector<uint32_t> in_next(calls_in_.at.begin(), calls_in_.at.end() - 1);
  std::vector<uint32_t> callers_next(callers_.at.begin(), callers_.at.end() - 1);
  for (std::size_t i = 0; i < f_.calls.size(); ++i) {
    const int fn = f_.calls[i].function;
    if (fn >= 0) calls_in_.calls[in_next[static_cast<std::size_t>(fn)]++] = static_cast<int>(i);
  }
  for (int i : resolved_) callers_.calls[callers_next[static_cast<std::size_t>(target(i))]++] = i;
}

std::set<int> CallGraph::reachable(int fn, int depth) const {
  group();
  std::set<int> seen{fn};
  std::vector<int> frontier{fn};
  for (int d = 0; d < depth && !frontier.empty(); ++d) {
    std::vector<int> next;
    for (int g : frontier) {
      for (int call : calls_in_.of(g)) {
        int callee = target(call);
        if (callee >= 0 && seen.insert(callee).second) next.push_back(callee);
      }
    }
    frontier = std::move(next);
  }
  return seen;
}

std::optional<LoopCaller> CallGraph::loop_calling(int fn, int depth) const {
  group();
  std::set<int> seen{fn};
  std::vector<int> frontier{fn};
  for (int d = 0; d < depth && !frontier.empty(); ++d) {
    std::vector<int> next;
    for (int g : frontier) {
      for (int call : callers_.of(g)) {
        const Call& c = f_.calls[static_cast<std::size_t>(call)];
        // A recursive call, or one from inside the function itself, is no outside loop.
        if (c.function >= 0 && function_within(f_, c.function, fn)) continue;
        if (c.loop >= 0) return LoopCaller{call, c.loop};
        if (c.function >= 0 && seen.insert(c.function).second) next.push_back(c.function);
      }
    }
    frontier = std::move(next);
  }
  return std::nullopt;
}

std::set<int> reachable_functions(const FileFacts& f, int fn, int depth) { return CallGraph(f).reachable(fn, depth); }

std::optional<LoopCaller> loop_calling(const FileFacts& f, int fn, int depth) {
  return CallGraph(f).loop_calling(fn, depth);
}

bool function_within(const FileFacts& f, int inner, int outer) {
  for (int g = inner; g >= 0; g = f.functions[static_cast<std::size_t>(g)].parent) {
    if (g == outer) return true;
  }
  return false;
}

}  // namespace msprobe::analysis
