// Composing the safe fixes of all findings.
#include "msprobe/analysis/fix_all.h"

#include <algorithm>

namespace msprobe::analysis {
namespace {

bool same(const Edit& a, const Edit& b) { return a.range == b.range && a.text == b.text; }

bool overlaps(const Edit& a, const Edit& b) {
  // Two insertions at one point would apply in an arbitrary order: a conflict too.
  if (a.range.start == b.range.start) return true;
  return a.range.start < b.range.end && b.range.start < a.range.end;
}

}  // namespace

FixAllResult fix_all(const std::vector<Finding>& findings) {
  FixAllResult r;
  for (const Finding& f : findings) {
    const Fix* chosen = nullptr;
    for (const Fix& fix : f.fixes) {
      if (fix.safety != FixSafety::Safe) continue;
      if (!chosen || (fix.preferred && !chosen->preferred)) chosen = &fix;
    }
    if (!chosen || chosen->edits.empty()) continue;
    std::vector<const Edit*> fresh;
    bool conflict = false;
    for (const Edit& e : chosen->edits) {
      bool dup = std::any_of(r.edits.begin(), r.edits.end(), [&](const Edit& x) { return same(x, e); });
      if (dup) continue;
      if (std::any_of(r.edits.begin(), r.edits.end(), [&](const Edit& x) { return overlaps(x, e); })) conflict = true;
      fresh.push_back(&e);
    }
    if (conflict) continue;
    if (fresh.empty()) continue;  // the same fix, already chosen for an earlier finding
    for (const Edit* e : fresh) {
      r.edits.push_back(*e);
      if (e->range.end != e->range.start) r.replaces_code = true;
    }
    r.titles.push_back(chosen->title);
  }
  std::stable_sort(r.edits.begin(), r.edits.end(),
                   [](const Edit& a, const Edit& b) { return a.range.start < b.range.start; });
  return r;
}

}  // namespace msprobe::analysis
