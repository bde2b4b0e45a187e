// try/finally wrapping and re-indentation.
#include "block_edits.h"

#include <algorithm>

namespace msprobe::analysis::instrument {

std::vector<Edit> indent_lines(const Layout& layout, uint32_t first, uint32_t last, const std::set<uint32_t>& strings,
                               const std::set<uint32_t>& skip) {
  std::vector<Edit> out;
  const SourceText& src = layout.source();
  for (uint32_t l = first; l <= last && l < src.line_count(); ++l) {
    if (layout.blank(l) || strings.count(l) || skip.count(l)) continue;
    auto at = static_cast<uint32_t>(src.line_start(l));
    out.push_back({{at, at}, layout.unit()});
  }
  return out;
}

std::vector<Edit> dedent_lines(const Layout& layout, uint32_t first, uint32_t last, const std::string& unit,
                               const std::set<uint32_t>& strings, const std::set<uint32_t>& skip) {
  std::vector<Edit> out;
  const SourceText& src = layout.source();
  if (unit.empty()) return out;
  for (uint32_t l = first; l <= last && l < src.line_count(); ++l) {
    if (layout.blank(l) || strings.count(l) || skip.count(l)) continue;
    if (src.line_text(l).substr(0, unit.size()) != unit) continue;
    auto at = static_cast<uint32_t>(src.line_start(l));
    out.push_back({{at, static_cast<uint32_t>(at + unit.size())}, ""});
  }
  return out;
}

std::vector<Edit> wrap_try_finally(const Layout& layout, TSNode first, TSNode last,
                                   const std::vector<std::string>& before_try,
                                   const std::vector<std::string>& final_lines, const std::set<uint32_t>& skip) {
  std::vector<Edit> out;
  uint32_t first_line = ts_node_start_point(first).row, last_line = ts_node_end_point(last).row;
  std::string indent(layout.indent_of(first_line));
  std::vector<std::string> head = before_try;
  head.push_back("try:");
  out.push_back(layout.lines_before(first_line, indent, head));
  // The statements' own lines, and any comment lines between them.
  TSNode parent = ts_node_parent(first);
  std::set<uint32_t> strings = string_interior_lines(ts_node_is_null(parent) ? first : parent);
  for (Edit& e : indent_lines(layout, first_line, last_line, strings, skip)) out.push_back(std::move(e));
  std::vector<std::string> tail{indent + "finally:"};
  for (const std::string& l : final_lines) tail.push_back(indent + layout.unit() + l);
  out.push_back(layout.lines_after(last_line, "", tail));
  return out;
}

std::size_t edit_size(const SourceText& src, const std::vector<Edit>& edits) {
  // Lines a reviewer sees change: inserted lines, and existing lines touched.
  std::set<uint32_t> touched;
  std::size_t inserted = 0;
  for (const Edit& e : edits) {
    std::size_t breaks = static_cast<std::size_t>(std::count(e.text.begin(), e.text.end(), '\n'));
    inserted += breaks;
    bool whole_lines = breaks > 0 && e.range.start == e.range.end;
    if (!whole_lines) {
      for (uint32_t l = src.line_of(e.range.start); l <= src.line_of(e.range.end); ++l) touched.insert(l);
    }
  }
  return inserted + touched.size();
}

}  // namespace msprobe::analysis::instrument
