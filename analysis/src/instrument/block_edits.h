// Edits on whole blocks: wrapping statements in try/finally (the dump's
// stop()/step() on every exit) and re-indenting lines, with multi-line string
// contents left alone.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "layout.h"

namespace msprobe::analysis::instrument {

// Wraps the statements from `first` to `last` (siblings in one block, `first`
// starting its line) in `try:` ... `finally:` with `final_lines` in the
// finally block; `before_try` lines go before the `try:`. Lines in `skip`
// (being deleted by another edit) are not re-indented.
std::vector<Edit> wrap_try_finally(const Layout& layout, TSNode first, TSNode last,
                                   const std::vector<std::string>& before_try,
                                   const std::vector<std::string>& final_lines, const std::set<uint32_t>& skip = {});

// Adds `unit` at the start of lines [first, last], except blank lines, lines
// inside multi-line strings (`strings`) and lines in `skip`.
std::vector<Edit> indent_lines(const Layout& layout, uint32_t first, uint32_t last, const std::set<uint32_t>& strings,
                               const std::set<uint32_t>& skip);
// The inverse: removes `unit` from the start of those lines that have it.
std::vector<Edit> dedent_lines(const Layout& layout, uint32_t first, uint32_t last, const std::string& unit,
                               const std::set<uint32_t>& strings, const std::set<uint32_t>& skip);

// How many lines an edit list inserts or touches, to compare alternatives.
std::size_t edit_size(const SourceText& src, const std::vector<Edit>& edits);

}  // namespace msprobe::analysis::instrument
