// How a file is laid out, for edits that must look as if the user wrote them:
// its line ending, its indentation unit, where lines and statements start and
// end (a view over python_edits.h, which rule fixes use too, with the line
// ending and unit computed once); and small tree-sitter helpers over statement
// nodes.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis::instrument {

inline constexpr std::size_t kNoOffset = static_cast<std::size_t>(-1);

class Layout {
 public:
  Layout(const SourceText& source, const FileFacts& facts);

  const SourceText& source() const { return src_; }
  const std::string& eol() const { return eol_; }
  const std::string& unit() const { return unit_; }

  // The spaces and tabs a line starts with.
  std::string_view indent_of(uint32_t line) const;
  bool blank(uint32_t line) const;  // only whitespace
  // Where the line after `line` starts; kNoOffset when `line` is the last line
  // of a file that does not end with a line break.
  std::size_t after_line(uint32_t line) const;
  // 3 on the first line of a file that starts with a UTF-8 BOM, else 0.
  std::size_t bom_len(uint32_t line) const;
  // Only indentation (and a BOM) before `offset` on its line.
  bool starts_line(std::size_t offset) const;
  // Only whitespace or a comment after `offset` on its line.
  bool ends_line(std::size_t offset) const;
  // A statement that has its lines to itself: it starts its first line and
  // ends its last one (a trailing comment is allowed).
  bool owns_lines(ByteRange r) const;

  // Inserts whole lines (text without indentation or line break) before
  // `line`, or after it, each prefixed with `indent`.
  Edit lines_before(uint32_t line, std::string_view indent, const std::vector<std::string>& lines) const;
  Edit lines_after(uint32_t line, std::string_view indent, const std::vector<std::string>& lines) const;
  // Deletes lines [first, last] (a run), including their line breaks.
  Edit delete_lines(uint32_t first, uint32_t last) const;
  // The first line after a shebang and an encoding cookie, which nothing may
  // precede; lines_at_top inserts there (after a BOM, too).
  uint32_t top_line() const;
  Edit lines_at_top(const std::vector<std::string>& lines) const;

 private:
  std::string text_of(std::string_view indent, const std::vector<std::string>& lines) const;

  const SourceText& src_;
  std::string eol_;
  std::string unit_;
};

// Deletes the runs of `lines` (sorted, unique), merged into as few edits as possible.
std::vector<Edit> delete_line_runs(const Layout& layout, const std::set<uint32_t>& lines);

// ----- tree helpers -----

bool node_is(TSNode n, const char* type);
ByteRange node_range(TSNode n);
// The node of `type` spanning exactly `r`, or a null node.
TSNode find_node(TSNode root, ByteRange r, const char* type);
// Named children of a block that are statements (comments skipped).
// The children of `node` in order (the named ones only, if asked), in linear time.
std::vector<TSNode> children_of(TSNode node, bool named_only);
std::vector<TSNode> block_statements(TSNode block);
// The statements of the body of `owner` (a def, a loop, a try); none when
// `owner` is a null node, as find_node gives for facts of a repaired copy of
// half-typed code.
std::vector<TSNode> body_statements(TSNode owner);
// The statement before `stmt` in its block, or a null node.
TSNode prev_statement(TSNode stmt);
// The finally clause's block of a try statement, or a null node.
TSNode finally_block(TSNode try_stmt);
bool has_except_or_else(TSNode try_stmt);
// The body of an `if` that has no elif/else clause (an `if FLAG:`), else a null node.
TSNode flag_if_body(TSNode if_stmt);
// The source text a node spans.
std::string_view node_text(const SourceText& src, TSNode n);
// Lines that lie inside a multi-line string (after the line it opens on):
// their leading whitespace is string content, never indentation.
std::set<uint32_t> string_interior_lines(TSNode node);
// Every identifier spelled `name` in the tree.
bool identifier_used(TSNode root, std::string_view text, std::string_view name);
// The blocks under `node` that hold at least one of `ranges` (in tree order),
// found without walking the subtrees that hold none.
std::vector<TSNode> blocks_around(TSNode node, std::vector<ByteRange> ranges);

}  // namespace msprobe::analysis::instrument
