// The rule registry, generated from rules/rules.def.
#include <algorithm>

#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {

#define MSPROBE_RULE(var) extern const Rule var;
#include "rules.def"
#undef MSPROBE_RULE

const std::vector<const Rule*>& all_rules() {
  static const std::vector<const Rule*> rules = [] {
    std::vector<const Rule*> v = {
#define MSPROBE_RULE(var) &var,
#include "rules.def"
#undef MSPROBE_RULE
    };
    std::sort(v.begin(), v.end(), [](const Rule* a, const Rule* b) { return a->meta.code < b->meta.code; });
    return v;
  }();
  return rules;
}

const Rule* find_rule(std::string_view code) {
  for (const Rule* r : all_rules()) {
    if (r->meta.code == code) return r;
  }
  return nullptr;
}

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
    case Severity::Hint: return "hint";
  }
  return "warning";
}

}  // namespace msprobe::analysis
