// Intra-file call graph over FileFacts (see call_graph.h).
#include "call_graph.h"

#include <vector>

namespace msprobe::analysis {

int called_function(const FileFacts& f, const Call& c) {
  const std::string& callee = c.callee;
  bool self_call = callee.rfind("self.", 0) == 0 && callee.find('.', 5) == std::string::npos;
  std::string method = self_call ? callee.substr(5) : std::string();
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    const Function& fn = f.functions[i];
    if (fn.class_name.empty() && fn.name == callee) return static_cast<int>(i);
    if (self_call && !fn.class_name.empty() && fn.name == method) return static_cast<int>(i);
  }
  // Class(...) runs its __init__.
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    const Function& fn = f.functions[i];
    if (fn.name == "__init__" && fn.class_name == callee) return static_cast<int>(i);
  }
  return -1;
}

bool function_within(const FileFacts& f, int inner, int outer) {
  for (int g = inner; g >= 0; g = f.functions[static_cast<std::size_t>(g)].parent) {
    if (g == outer) return true;
  }
  return false;
}

std::set<int> reachable_functions(const FileFacts& f, int fn, int depth) {
  std::set<int> seen{fn};
  std::vector<int> frontier{fn};
  for (int d = 0; d < depth && !frontier.empty(); ++d) {
    std::vector<int> next;
    for (const Call& c : f.calls) {
      if (c.function < 0) continue;
      bool from_frontier = false;
      for (int g : frontier) from_frontier = from_frontier || c.function == g;
      if (!from_frontier) continue;
      int callee = called_function(f, c);
      if (callee >= 0 && seen.insert(callee).second) next.push_back(callee);
    }
    frontier = std::move(next);
  }
  return seen;
}

std::optional<LoopCaller> loop_calling(const FileFacts& f, int fn, int depth) {
  std::set<int> targets{fn};
  std::vector<int> frontier{fn};
  for (int d = 0; d < depth && !frontier.empty(); ++d) {
    std::vector<int> next;
    for (std::size_t i = 0; i < f.calls.size(); ++i) {
      const Call& c = f.calls[i];
      int callee = called_function(f, c);
      bool hit = false;
      for (int g : frontier) hit = hit || callee == g;
      // A recursive call or a call from inside the function itself is no outside loop.
      if (!hit || (c.function >= 0 && function_within(f, c.function, fn))) continue;
      if (c.loop >= 0) return LoopCaller{static_cast<int>(i), c.loop};
      if (c.function >= 0 && targets.insert(c.function).second) next.push_back(c.function);
    }
    frontier = std::move(next);
  }
  return std::nullopt;
}

}  // namespace msprobe::analysis
