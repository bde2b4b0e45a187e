// Builds FileFacts from a tree in one iterative pass (deeply nested input
// cannot overflow the stack).
#pragma once

#include <string_view>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::analysis {

FileFacts build_facts(const TreePtr& tree, std::string_view text);

}  // namespace msprobe::analysis
