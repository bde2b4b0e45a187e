// Derived facts: computed from the raw facts of the single tree pass.
#pragma once

#include <string_view>

#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {

void derive_msprobe(FileFacts& facts);
void derive_scenarios(FileFacts& facts);
struct ModuleEffects;
// `effects`, when given, are the file's call effects already built over
// these facts (a summary's): they are not built again.
void derive_loops(std::string_view text, FileFacts& facts, const ModuleEffects* effects = nullptr);

class Bindings;
class EffectSolver;
// derive_loops over call effects folded by `solver` (built over this file's
// effects, possibly following calls into other modules); `names` are the
// file's bindings, built over `facts`.
void derive_loops_with(std::string_view text, FileFacts& facts, EffectSolver& solver, const Bindings& names);

}  // namespace msprobe::analysis
