// Builds FileFacts from a tree in one iterative pass (deeply nested input
// cannot overflow the stack), one top-level statement after the other.
//
// Incremental facts: the facts of a top-level statement depend only on its own
// text and where it starts (the module-level context is the same for every
// one). After an edit, a statement whose text lies wholly before or after the
// changed bytes and that starts at the same column is not walked again: its
// facts are copied from the previous build, byte ranges and lines shifted,
// indices renumbered. Names are then resolved and the derived facts (msProbe
// uses, scenarios, loop roles) computed over the whole file, as in a fresh
// build, so the result equals a fresh build (tests/unit/test_incremental_facts.cpp,
// fuzz_incremental).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::analysis {

// The vectors of FileFacts the walk fills, in this order in FactChunk::begin.
enum class FactList : uint8_t {
  Imports,
  Calls,
  Names,  // FactChunks::names (before resolution)
  Decorators,
  Comments,
  Functions,
  Classes,
  Loops,
  Statements,
  Assignments,
  WithBlocks,
  Returns,
  Count
};

struct FactChunk {
  ByteRange range;  // the top-level node (a statement or a comment)
  uint32_t row = 0;
  uint32_t column = 0;
  // First index of the chunk's entries in each list; the next chunk's begin
  // (or the list's size) ends them.
  std::array<uint32_t, static_cast<std::size_t>(FactList::Count)> begin{};
  // The previous build's chunk whose facts were copied here (the lists line up
  // one to one), -1 when the statement was walked.
  int32_t reused_from = -1;
};

struct FactChunks {
  std::vector<FactChunk> chunks;  // source order
  // Dotted names used as values, before resolution (FileFacts::name_uses
  // keeps only those whose root is imported).
  std::vector<ByteRange> names;
};

// `loop_roles` false leaves FileFacts::loop_info empty: the project layer
// derives the roles itself, across files (project_view), and summaries need none.
// With `previous`, unchanged top-level statements reuse its facts.
FileFacts build_facts(const TreePtr& tree, std::string_view text, bool loop_roles = true,
                      const PreviousFacts* previous = nullptr);

// A text parsed in two parts (split_analysis.cpp): the second part's tree
// and build_facts over that tree alone.
struct SecondPart {
  TreePtr tree;
  std::optional<FileFacts> facts;
};

// The facts of a text parsed in two parts at the start of a top-level
// statement, each part without syntax errors: the statements of `first` are
// walked, then those of the second part (which `second()` waits for, built
// meanwhile on another thread; null when it failed) are copied. Equals
// build_facts over one tree of the whole text; nullopt when the second part
// failed.
std::optional<FileFacts> build_facts_in_parts(const TreePtr& first, std::string_view text, bool loop_roles,
                                              const std::function<const SecondPart*()>& second);

// Counters of the last build on this thread (for tests and the benchmark):
// top-level statements walked and reused.
struct FactsBuildStats {
  std::size_t walked = 0;
  std::size_t reused = 0;
};
FactsBuildStats last_facts_build_stats();

}  // namespace msprobe::analysis
