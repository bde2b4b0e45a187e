// A fresh parse of a large text in two parts, one on each core.
//
// The text is cut at the start of a line near its middle that begins a
// top-level statement which cannot continue the one before it (a def, a
// class, a decorator, an import). The second part is parsed on a
// SecondCore (tree-sitter's included ranges keep the positions of the whole
// text) and its facts built there, while this thread parses the first part
// and walks its statements; the second part's facts are then copied in
// (build_facts_in_parts). When both parts parse without a syntax error, the
// top-level statements are those of one parse of the whole text, and so are
// the facts (tests/unit/test_split_analysis.cpp checks every cut of the
// corpus). Otherwise the caller parses the whole text as usual: an error may
// come from the cut itself (inside a string or brackets, before an `else:`).
//
// No tree of the whole text exists afterwards. The next edit and the
// requests that need a tree want one: it is parsed from the first part's
// tree (PartsBuild::first_part), which spares that parse the first half.
// With `whole_tree`, the SecondCore starts that parse as soon as it has
// built its part, while this thread finishes the facts and the caller the
// rules (PartsBuild::whole_tree).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/second_core.h"

namespace msprobe::analysis {

// Below this size a second thread saves less than it costs to hand over.
inline constexpr std::size_t kSplitMinBytes = 8 * 1024;

// The byte to cut `text` at: the start of a line in the middle half of the
// text that begins with `def `, `class `, `async def `, `@`, `import ` or
// `from `, the nearest to the middle; nullopt when there is none.
std::optional<uint32_t> split_point(std::string_view text);

struct PartsBuild {
  FileFacts facts;
  // The first part's tree: a parse of the whole text with it as the old
  // tree reparses only the second part (about half a fresh parse).
  TreePtr first_part;
  double parse_ms = 0;         // this thread's parse of the first part
  double waited_ms = 0;        // waiting for the second part, after walking the first
  double second_parse_ms = 0;  // the second part on the other thread: its parse,
  double second_facts_ms = 0;  // and its facts
  // With `whole_tree`: the whole text's parse from `first_part`, running on
  // the SecondCore, which it holds until taken or destroyed.
  std::shared_ptr<WholeTreeParse> whole_tree;
};

// Parses `text` in two parts cut at `at` (the second on `second`) and builds
// their facts; nullopt when `second` is busy, a part ran out of time or was
// cancelled (`parser`'s budget and flag apply to both), or a part has a
// syntax error. With `whole_tree`, `text` must outlive PartsBuild::whole_tree.
std::optional<PartsBuild> build_in_parts(PythonParser& parser, SecondCore& second, std::string_view text, uint32_t at,
                                         bool loop_roles, bool whole_tree = false);

}  // namespace msprobe::analysis
