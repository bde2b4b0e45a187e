// Line layout and tree navigation for the dump-point edits.
#include "layout.h"
#include "msprobe/analysis/text_match.h"
#include "python_edits.h"

#include <algorithm>

#include <cstring>
#include <regex>

namespace msprobe::analysis::instrument {
Layout::Layout(const SourceText& source, const FileFacts& facts)
    : src_(source), eol_(line_break(source)), unit_(indent_unit(source, facts)) {}

std::string_view Layout::indent_of(uint32_t line) const { return line_indent(src_, line); }

bool Layout::blank(uint32_t line) const { return indent_of(line).size() == src_.line_text(line).size(); }

std::size_t Layout::after_line(uint32_t line) const {
  if (line + 1 >= src_.line_count()) return kNoOffset;
  return src_.line_start(line + 1);
}

std::size_t Layout::bom_len(uint32_t line) const { return bom_length(src_, line); }

bool Layout::starts_line(std::size_t offset) const { return starts_its_line(src_, offset); }

bool Layout::ends_line(std::size_t offset) const { return ends_its_line(src_, offset); }

bool Layout::owns_lines(ByteRange r) const { return analysis::owns_lines(src_, r); }

std::string Layout::text_of(std::string_view indent, const std::vector<std::string>& lines) const {
  std::string text;
  for (const std::string& l : lines) text += std::string(indent) + l + eol_;
  return text;
}

Edit Layout::lines_before(uint32_t line, std::string_view indent, const std::vector<std::string>& lines) const {
  return insert_before_line(src_, line, text_of(indent, lines));
}

Edit Layout::lines_after(uint32_t line, std::string_view indent, const std::vector<std::string>& lines) const {
  return insert_after_line(src_, line, text_of(indent, lines));
}

Edit Layout::delete_lines(uint32_t first, uint32_t last) const {
  std::size_t end = after_line(last);
  std::size_t begin = src_.line_start(first) + bom_len(first);  // a BOM stays where it is
  if (end != kNoOffset) return {{static_cast<uint32_t>(begin), static_cast<uint32_t>(end)}, ""};
  std::size_t start = first == 0 ? begin : src_.line_end(first - 1);
  return {{static_cast<uint32_t>(start), static_cast<uint32_t>(src_.size())}, ""};
}

uint32_t Layout::top_line() const { return first_code_line(src_); }

Edit Layout::lines_at_top(const std::vector<std::string>& lines) const {
  uint32_t line = top_line();
  return line == 0 ? lines_before(0, "", lines) : lines_after(line - 1, "", lines);
}

std::vector<Edit> delete_line_runs(const Layout& layout, const std::set<uint32_t>& lines) {
  std::vector<Edit> out;
  for (auto it = lines.begin(); it != lines.end();) {
    uint32_t first = *it, last = first;
    for (++it; it != lines.end() && *it == last + 1; ++it) last = *it;
    out.push_back(layout.delete_lines(first, last));
  }
  return out;
}

// ----- tree helpers -----

bool node_is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

ByteRange node_range(TSNode n) { return {ts_node_start_byte(n), ts_node_end_byte(n)}; }

TSNode find_node(TSNode root, ByteRange r, const char* type) {
  TSNode n = ts_node_descendant_for_byte_range(root, r.start, r.end);
  while (!ts_node_is_null(n)) {
    ByteRange nr = node_range(n);
    if (nr.start < r.start || nr.end > r.end) break;
    if (nr == r && node_is(n, type)) return n;
    n = ts_node_parent(n);
  }
  return TSNode{};
}

std::vector<TSNode> children_of(TSNode node, bool named_only) {
  std::vector<TSNode> out;
  if (ts_node_is_null(node)) return out;
  // A cursor steps to the next sibling in constant time; ts_node_child(n, i)
  // walks from the first child, which is quadratic over a module's statements.
  TSTreeCursor c = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode n = ts_tree_cursor_current_node(&c);
      if (!named_only || ts_node_is_named(n)) out.push_back(n);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

std::vector<TSNode> block_statements(TSNode block) {
  std::vector<TSNode> out;
  for (TSNode c : children_of(block, /*named_only=*/true)) {
    if (!node_is(c, "comment")) out.push_back(c);
  }
  return out;
}

std::vector<TSNode> body_statements(TSNode owner) {
  if (ts_node_is_null(owner)) return {};
  return block_statements(ts_node_child_by_field_name(owner, "body", 4));
}

TSNode prev_statement(TSNode stmt) {
  TSNode p = ts_node_prev_named_sibling(stmt);
  while (!ts_node_is_null(p) && node_is(p, "comment")) p = ts_node_prev_named_sibling(p);
  return p;
}

TSNode finally_block(TSNode try_stmt) {
  for (TSNode c : children_of(try_stmt, /*named_only=*/true)) {
    if (!node_is(c, "finally_clause")) continue;
    for (TSNode b : children_of(c, /*named_only=*/true)) {
      if (node_is(b, "block")) return b;
    }
  }
  return TSNode{};
}

bool has_except_or_else(TSNode try_stmt) {
  for (TSNode c : children_of(try_stmt, /*named_only=*/true)) {
    if (node_is(c, "except_clause") || node_is(c, "except_group_clause") || node_is(c, "else_clause")) return true;
  }
  return false;
}

TSNode flag_if_body(TSNode if_stmt) {
  if (!node_is(if_stmt, "if_statement") || !ts_node_is_null(ts_node_child_by_field_name(if_stmt, "alternative", 11)))
    return TSNode{};
  return ts_node_child_by_field_name(if_stmt, "consequence", 11);
}

std::string_view node_text(const SourceText& src, TSNode n) {
  return src.view().substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

namespace {

// Pre-order walk with one cursor; `fn` returns whether to descend into the node.
template <typename Fn>
void walk(TSNode node, Fn&& fn) {
  if (ts_node_is_null(node)) return;
  TSTreeCursor c = ts_tree_cursor_new(node);
  uint32_t depth = 0;  // below `node` (the cursor's own depth count walks its stack)
  for (;;) {
    if (fn(ts_tree_cursor_current_node(&c)) && ts_tree_cursor_goto_first_child(&c)) {
      ++depth;
      continue;
    }
    // Next sibling, else up until one has a next sibling; the walk ends back at `node`.
    bool moved = false;
    while (!moved && depth > 0) {
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        moved = true;
      } else {
        ts_tree_cursor_goto_parent(&c);
        --depth;
      }
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);
}

}  // namespace

std::set<uint32_t> string_interior_lines(TSNode node) {
  std::set<uint32_t> lines;
  walk(node, [&](TSNode n) {
    if (node_is(n, "string")) {
      uint32_t a = ts_node_start_point(n).row, b = ts_node_end_point(n).row;
      for (uint32_t l = a + 1; l <= b; ++l) lines.insert(l);
      return false;
    }
    return true;
  });
  return lines;
}

bool identifier_used(TSNode root, std::string_view text, std::string_view name) {
  bool found = false;
  walk(root, [&](TSNode n) {
    if (found) return false;
    if (node_is(n, "identifier")) {
      uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
      if (e <= text.size() && text.substr(s, e - s) == name) found = true;
      return false;
    }
    return true;
  });
  return found;
}

std::vector<TSNode> blocks_around(TSNode node, std::vector<ByteRange> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](ByteRange a, ByteRange b) { return a.start < b.start; });
  // Whether some range lies inside [start, end): the walk descends only there.
  auto holds_one = [&](uint32_t start, uint32_t end) {
    auto it = std::lower_bound(ranges.begin(), ranges.end(), start,
                               [](ByteRange r, uint32_t at) { return r.start < at; });
    return it != ranges.end() && it->start < end && it->end <= end;
  };
  std::vector<TSNode> out;
  walk(node, [&](TSNode n) {
    if (!holds_one(ts_node_start_byte(n), ts_node_end_byte(n))) return false;
    if (node_is(n, "block")) out.push_back(n);
    return true;
  });
  return out;
}

}  // namespace msprobe::analysis::instrument
