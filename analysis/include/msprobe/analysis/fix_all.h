// "Fix all": every finding's safe fix at once (source.fixAll.msprobe, and the
// CLI), without overlapping edits. A fix is applied whole or not at all.
#pragma once

#include <string>
#include <vector>

#include "msprobe/analysis/finding.h"

namespace msprobe::analysis {

struct FixAllResult {
  std::vector<Edit> edits;          // sorted, non-overlapping, duplicates dropped
  std::vector<std::string> titles;  // the fixes applied, in finding order
  bool replaces_code = false;       // some edit deletes or replaces text
};

// For each finding, its preferred safe fix (else its first safe fix); a fix
// whose edits overlap an already chosen one is skipped, and an edit identical
// to a chosen one (two findings, one shared fix) counts as applied.
FixAllResult fix_all(const std::vector<Finding>& findings);

}  // namespace msprobe::analysis
