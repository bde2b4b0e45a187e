// Line index and encoding conversions. Lines end at "\n", "\r\n" or a lone
// "\r", as the LSP specification says. Invalid UTF-8 bytes count as one
// character each, so conversions never fail on odd input.
#include "msprobe/analysis/source.h"

#include <algorithm>

namespace msprobe::analysis {
namespace {

// Length of the UTF-8 sequence starting at s[i] (1 for an invalid byte).
std::size_t seq_len(std::string_view s, std::size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  if (i + n > s.size()) return 1;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

std::size_t units_of(std::size_t len, Encoding enc) {
  switch (enc) {
    case Encoding::Utf8: return len;
    case Encoding::Utf16: return len == 4 ? 2 : 1;
    case Encoding::Utf32: return 1;
  }
  return len;
}

}  // namespace

std::size_t count_units(std::string_view utf8, Encoding enc) {
  if (enc == Encoding::Utf8) return utf8.size();
  std::size_t units = 0;
  for (std::size_t i = 0; i < utf8.size();) {
    std::size_t n = seq_len(utf8, i);
    units += units_of(n, enc);
    i += n;
  }
  return units;
}

void SourceText::reindex() {
  line_starts_.clear();
  line_starts_.push_back(0);
  const std::size_t n = text_.size();
  for (std::size_t i = 0; i < n; ++i) {
    char c = text_[i];
    if (c == '\n') {
      line_starts_.push_back(i + 1);
    } else if (c == '\r') {
      if (i + 1 < n && text_[i + 1] == '\n') ++i;
      line_starts_.push_back(i + 1);
    }
  }
}

std::size_t SourceText::line_start(uint32_t line) const {
  if (line >= line_starts_.size()) return line_starts_.back();
  return line_starts_[line];
}

std::size_t SourceText::line_end(uint32_t line) const {
  if (line >= line_starts_.size()) return text_.size();
  std::size_t end = line + 1 < line_starts_.size() ? line_starts_[line + 1] : text_.size();
  std::size_t start = line_starts_[line];
  if (end > start && text_[end - 1] == '\n') --end;
  if (end > start && text_[end - 1] == '\r') --end;
  return end;
}

std::string_view SourceText::line_text(uint32_t line) const {
  std::size_t s = line_start(line);
  return std::string_view(text_).substr(s, line_end(line) - s);
}

uint32_t SourceText::line_of(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return static_cast<uint32_t>((it - line_starts_.begin()) - 1);
}

LineCol SourceText::position(std::size_t offset, Encoding enc) const {
  offset = std::min(offset, text_.size());
  uint32_t line = line_of(offset);
  std::size_t start = line_starts_[line];
  std::size_t end = std::max(start, std::min(offset, line_end(line)));
  return {line, static_cast<uint32_t>(count_units(std::string_view(text_).substr(start, end - start), enc))};
}

std::size_t SourceText::offset(LineCol pos, Encoding enc) const {
  if (pos.line >= line_starts_.size()) return text_.size();
  std::size_t i = line_starts_[pos.line];
  const std::size_t end = line_end(pos.line);
  std::string_view s(text_);
  std::size_t units = 0;
  while (i < end) {
    std::size_t n = seq_len(s, i);
    std::size_t u = units_of(n, enc);
    if (units + u > pos.column) break;  // the column falls inside (or at) this character
    units += u;
    i += n;
  }
  return std::min(i, end);
}

BytePoint SourceText::point(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  uint32_t line = line_of(offset);
  return {line, static_cast<uint32_t>(offset - line_starts_[line])};
}

ByteEdit SourceText::replace(std::size_t start, std::size_t end, std::string_view replacement) {
  start = std::min(start, text_.size());
  end = std::clamp(end, start, text_.size());
  ByteEdit e;
  e.start_byte = static_cast<uint32_t>(start);
  e.old_end_byte = static_cast<uint32_t>(end);
  e.new_end_byte = static_cast<uint32_t>(start + replacement.size());
  e.start_point = point(start);
  e.old_end_point = point(end);
  reindex_edit(start, end, replacement);
  e.new_end_point = point(e.new_end_byte);
  return e;
}

// Replaces the text and updates the line index around the edit only, so a
// flood of small edits to a large file costs O(edit + lines after it) each
// instead of a full rescan. Whether a line starts after byte i depends only on
// bytes i and i + 1 ("\r\n" is one break), so: keep the starts up to the line
// before the edit (the byte before it may be a "\r" the edit joins to a
// "\n"), rescan from there to the end of the new text, and shift the starts
// that follow the replaced range.
void SourceText::reindex_edit(std::size_t start, std::size_t end, std::string_view replacement) {
  const std::size_t new_end = start + replacement.size();
  const std::size_t keep = std::max<std::size_t>(line_of(start), 1);
  const std::size_t scan_from = line_starts_[keep - 1];
  auto tail_begin = std::upper_bound(line_starts_.begin(), line_starts_.end(), end);
  std::vector<std::size_t> tail(tail_begin, line_starts_.end());
  for (std::size_t& t : tail) t = t - end + new_end;
  line_starts_.resize(keep);
  text_.replace(start, end - start, replacement.data(), replacement.size());
  const std::size_t n = text_.size();
  for (std::size_t i = scan_from; i < new_end; ++i) {
    char c = text_[i];
    if (c == '\n' || (c == '\r' && (i + 1 >= n || text_[i + 1] != '\n'))) line_starts_.push_back(i + 1);
  }
  line_starts_.insert(line_starts_.end(), tail.begin(), tail.end());
}

bool SourceText::uses_crlf() const {
  std::size_t nl = text_.find('\n');
  return nl != std::string::npos && nl > 0 && text_[nl - 1] == '\r';
}

}  // namespace msprobe::analysis
