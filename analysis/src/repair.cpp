// Same-length repairs of the line where parsing first fails; see repair.h.
#include "repair.h"

#include <tree_sitter/api.h>

#include <algorithm>

#include "facts_builder.h"

namespace msprobe::analysis {
namespace {

constexpr int kMaxRounds = 6;

bool is_statement(TSNode n) {
  std::string_view t = ts_node_type(n);
  return (t.size() > 10 && t.substr(t.size() - 10) == "_statement") || t == "function_definition" ||
         t == "class_definition" || t == "decorated_definition";
}

// Where the first error (ERROR or MISSING node, in document order) should be
// repaired: the start of the innermost statement holding it, or the error
// itself when it sits directly in a block (`for x in data` without its colon
// is repaired at the `for`, an unclosed `f(a` at the start of its statement).
std::optional<uint32_t> first_error(const TreePtr& tree) {
  TSNode n = ts_tree_root_node(tree.get());
  if (!ts_node_has_error(n)) return std::nullopt;
  std::optional<uint32_t> statement;
  for (;;) {
    if (ts_node_is_error(n) || ts_node_is_missing(n)) return statement ? *statement : ts_node_start_byte(n);
    TSTreeCursor c = ts_tree_cursor_new(n);
    bool found = false;
    if (ts_tree_cursor_goto_first_child(&c)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&c);
        if (ts_node_has_error(child)) {
          n = child;
          found = true;
          break;
        }
      } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    if (!found) return statement ? *statement : ts_node_start_byte(n);
    if (std::string_view(ts_node_type(n)) == "block") statement.reset();
    else if (is_statement(n)) statement = ts_node_start_byte(n);
  }
}

bool opens_block(std::string_view content) {
  static const std::string_view kKeywords[] = {"for ", "while ", "if ", "elif ", "else", "with ", "try",
                                               "except", "finally", "def ", "class ", "async "};
  for (std::string_view k : kKeywords) {
    if (content.substr(0, k.size()) == k) return true;
  }
  return false;
}

// Replaces the content of the line holding `at` (indentation kept): a block
// header becomes `if 1:` so its body still parses, anything else becomes
// blanks. Returns the changed byte range, or nullopt when nothing changed.
std::optional<std::pair<uint32_t, uint32_t>> neutralise_line(std::string& t, uint32_t at) {
  at = std::min<uint32_t>(at, static_cast<uint32_t>(t.size()));
  uint32_t start = at;
  while (start > 0 && t[start - 1] != '\n') --start;
  uint32_t end = at;
  while (end < t.size() && t[end] != '\n') ++end;
  if (end > start && t[end - 1] == '\r') --end;
  uint32_t content = start;
  while (content < end && (t[content] == ' ' || t[content] == '\t')) ++content;
  if (content == end) return std::nullopt;  // an empty line: nothing to neutralise
  std::string_view c(t.data() + content, end - content);
  std::string replacement(end - content, ' ');
  if (opens_block(c) && replacement.size() >= 5) replacement.replace(0, 5, "if 1:");
  if (std::string_view(replacement) == c) return std::nullopt;
  t.replace(content, end - content, replacement);
  return std::make_pair(content, end);
}

BytePoint point_of(std::string_view t, uint32_t offset) {
  BytePoint p;
  p.row = static_cast<uint32_t>(std::count(t.begin(), t.begin() + offset, '\n'));
  std::size_t nl = t.rfind('\n', offset == 0 ? std::string_view::npos : offset - 1);
  p.column = offset - (nl == std::string_view::npos || offset == 0 ? 0 : static_cast<uint32_t>(nl + 1));
  return p;
}

}  // namespace

std::optional<RepairedText> repair(PythonParser& parser, const TreePtr& tree, std::string_view text) {
  if (!tree) return std::nullopt;
  std::optional<uint32_t> err = first_error(tree);
  if (!err) return std::nullopt;
  RepairedText r;
  r.text = std::string(text);
  r.tree = tree;
  uint32_t original = *err;
  for (int round = 0; round < kMaxRounds && err; ++round) {
    auto changed = neutralise_line(r.text, *err);
    if (!changed) break;
    ByteEdit e;
    e.start_byte = changed->first;
    e.old_end_byte = e.new_end_byte = changed->second;
    e.start_point = point_of(r.text, e.start_byte);
    e.old_end_point = e.new_end_point = point_of(r.text, e.old_end_byte);
    TreePtr next = parser.parse(r.text, edited_copy(r.tree, e));
    if (!next) return std::nullopt;  // out of time: the unrepaired facts will do
    r.tree = std::move(next);
    ++r.lines_neutralised;
    err = first_error(r.tree);
  }
  // Keep the repair only if parsing now fails later in the file (or not at all).
  if (err && *err <= original) return std::nullopt;
  return r;
}

FileFacts build_tolerant_facts(PythonParser& parser, const TreePtr& tree, std::string_view text) {
  FileFacts facts = build_facts(tree, text);
  if (facts.syntax_errors.empty()) return facts;
  std::optional<RepairedText> fixed = repair(parser, tree, text);
  if (!fixed) return facts;
  FileFacts better = build_facts(fixed->tree, fixed->text);
  better.syntax_errors = std::move(facts.syntax_errors);
  return better;
}

}  // namespace msprobe::analysis
