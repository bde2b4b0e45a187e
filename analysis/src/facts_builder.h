// Builds FileFacts from a tree in one iterative pass (deeply nested input
// cannot overflow the stack).
#pragma once

#include <string_view>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::analysis {

// `loop_roles` false leaves FileFacts::loop_info empty: the project layer
// derives the roles itself, across files (project_view), and summaries need none.
FileFacts build_facts(const TreePtr& tree, std::string_view text, bool loop_roles = true);

}  // namespace msprobe::analysis
