// Line-level building blocks for fixes on Python source: whole-line moves and
// insertions that keep the file's indentation characters (spaces or tabs) and
// its line endings, and never leave a block empty.
#pragma once

#include <utility>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis {

// "\r\n" when the file uses CRLF, else "\n".
std::string line_break(const SourceText& src);

// The one place where line layout is read: rule fixes use these directly and
// the dump-point edits through instrument::Layout, which caches eol and unit.

// 3 on the first line of a file that starts with a UTF-8 BOM, else 0.
std::size_t bom_length(const SourceText& src, uint32_t line);
// Leading spaces/tabs (and form feeds) of a line, exactly as written.
std::string_view line_indent(const SourceText& src, uint32_t line);
std::string indent_of_line(const SourceText& src, uint32_t line);
// The first line after a shebang and a PEP 263 encoding cookie, which no
// inserted code may precede.
uint32_t first_code_line(const SourceText& src);
// Only indentation (and a BOM) before `offset` on its line.
bool starts_its_line(const SourceText& src, std::size_t offset);
// Only whitespace or a comment after `offset` on its line.
bool ends_its_line(const SourceText& src, std::size_t offset);
// Starts its first line and ends its last one (a trailing comment allowed).
bool owns_lines(const SourceText& src, ByteRange r);

// True when the statement starts its first line (only whitespace before it)
// and ends its last one (only whitespace or a comment after it).
bool owns_its_lines(const SourceText& src, const Statement& st);

// The lines a statement spans, from the start of its first line (after a BOM) to the start
// of the line after its last (or the end of the file).
ByteRange whole_lines(const SourceText& src, const Statement& st);

// The text of those lines, ending with a line break.
std::string lines_text(const SourceText& src, const Statement& st);

// Re-indents every line of `text` that starts with `from` to start with `to`
// instead; blank lines and lines outside the indentation are kept.
std::string reindent(std::string_view text, std::string_view from, std::string_view to);

// True when no other statement shares the statement's block.
bool alone_in_block(const FileFacts& f, int stmt);

// Deletes a statement's lines; a statement alone in its block becomes `pass`.
// nullopt when the statement shares a line with other code.
std::optional<Edit> remove_statement(const SourceText& src, const FileFacts& f, int stmt);

// Inserts `lines` (each already ending with a line break) after line `line`
// (a file without a final line break keeps ending without one), or before
// line `line` (after a BOM).
Edit insert_after_line(const SourceText& src, uint32_t line, const std::string& lines);
Edit insert_before_line(const SourceText& src, uint32_t line, const std::string& lines);

// Where new lines go and how they are indented.
struct InsertionPoint {
  uint32_t line = 0;
  bool after = false;  // after `line` rather than before it
  std::string indent;
};
Edit insert_lines(const SourceText& src, const InsertionPoint& at, const std::string& lines);

// Index of the statement after which module-level msProbe setup goes: the
// end of the import block (imports in try/if count whole, the main guard
// does not), then any module-level seed_all() right after it. -1 means the top
// of the file (no import and no docstring).
int module_setup_anchor(const FileFacts& f);

// Top-level statement that holds statement `i` (itself at top level).
int top_level_statement(const FileFacts& f, int i);

// True for a constant the code can evaluate anywhere: string, number,
// True/False/None, and lists/tuples of those.
bool is_constant_expression(std::string_view expr);

// Identifiers an expression reads (not attribute names, keywords or strings).
std::vector<std::string> names_read(std::string_view expr);

// Names a statement binds (assignment targets, for/with targets, imports, def
// and class names), including statements nested in it.
std::vector<std::string> names_bound(const SourceText& src, const FileFacts& f, int stmt);

// The edit that removes argument `index` of a call with its separating comma.
Edit remove_argument(const SourceText& src, const Call& call, std::size_t index);

// Byte offset where a keyword argument starts (its name), or the value's start.
uint32_t argument_start(const SourceText& src, const Call& call, std::size_t index);

// Where a new keyword argument goes in a call, and the text to insert there:
// "model=m" in "start()" or ", model=m" after existing arguments.
Edit append_argument(const SourceText& src, const Call& call, const std::string& arg);

// The first statement of a function body after its docstring (-1 if none).
int first_body_statement(const SourceText& src, const FileFacts& f, int function);

// The statements directly in a block (same block range), in order.
// Index range [first, last) of the statements that start inside `r` (binary
// search: statements are in source order).
std::pair<std::size_t, std::size_t> statements_within(const FileFacts& f, ByteRange r);
std::vector<int> statements_in_block(const FileFacts& f, ByteRange block);

// The indentation unit of the file: the first block indented relative to its
// header, else a tab when lines start with tabs, else four spaces.
std::string indent_unit(const SourceText& src, const FileFacts& f);

}  // namespace msprobe::analysis
