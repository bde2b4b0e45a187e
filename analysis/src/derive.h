// Derived facts: computed from the raw facts of the single tree pass.
#pragma once

#include <string_view>

#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {

void derive_msprobe(FileFacts& facts);
void derive_scenarios(FileFacts& facts);
void derive_loops(std::string_view text, FileFacts& facts);

}  // namespace msprobe::analysis
