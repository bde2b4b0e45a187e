// SourceText: the text of one file plus its line index. Converts between byte
// offsets and (line, column) in UTF-8 bytes, UTF-16 code units or code points,
// and applies range edits, reporting what changed for an incremental reparse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::analysis {

enum class Encoding { Utf8, Utf16, Utf32 };

struct LineCol {
  uint32_t line = 0;
  uint32_t column = 0;  // in units of the chosen Encoding
  friend bool operator==(const LineCol& a, const LineCol& b) { return a.line == b.line && a.column == b.column; }
};

// Row/column in bytes, as tree-sitter counts them.
struct BytePoint {
  uint32_t row = 0;
  uint32_t column = 0;
};

// What an edit changed, in the terms tree-sitter's ts_tree_edit wants.
struct ByteEdit {
  uint32_t start_byte = 0, old_end_byte = 0, new_end_byte = 0;
  BytePoint start_point, old_end_point, new_end_point;
};

class SourceText {
 public:
  SourceText() { reindex(); }
  explicit SourceText(std::string text) : text_(std::move(text)) { reindex(); }

  const std::string& text() const { return text_; }
  std::string_view view() const { return text_; }
  std::size_t size() const { return text_.size(); }

  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  // Byte offset where `line` starts (clamped to the last line).
  std::size_t line_start(uint32_t line) const;
  // Byte offset just past the content of `line`, before its line break.
  std::size_t line_end(uint32_t line) const;
  std::string_view line_text(uint32_t line) const;
  uint32_t line_of(std::size_t offset) const;

  LineCol position(std::size_t offset, Encoding enc) const;
  // Clamps: a column past the line end maps to the line end, a line past the
  // end to the end of the text; a column inside a multi-unit character snaps
  // to that character's start.
  std::size_t offset(LineCol pos, Encoding enc) const;
  BytePoint point(std::size_t offset) const;

  // Replaces bytes [start, end) with `replacement` (clamped to the text).
  ByteEdit replace(std::size_t start, std::size_t end, std::string_view replacement);

  // True when the text uses "\r\n" for its first line break.
  bool uses_crlf() const;

 private:
  void reindex();
  void reindex_edit(std::size_t start, std::size_t end, std::string_view replacement);
  std::string text_;
  std::vector<std::size_t> line_starts_;  // always starts with 0
};

// Number of units of `enc` in a UTF-8 byte range (invalid bytes count as one unit each).
std::size_t count_units(std::string_view utf8, Encoding enc);

}  // namespace msprobe::analysis
