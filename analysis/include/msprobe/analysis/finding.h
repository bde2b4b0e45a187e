// What a rule reports: plain structs in byte offsets, free of any LSP notion.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::analysis {

enum class Severity { Error = 1, Warning = 2, Info = 3, Hint = 4 };
const char* to_string(Severity s);

struct ByteRange {
  uint32_t start = 0;
  uint32_t end = 0;
  friend bool operator==(const ByteRange& a, const ByteRange& b) { return a.start == b.start && a.end == b.end; }
};

// `inner` lies within `outer` (either end may touch).
inline bool inside(ByteRange inner, ByteRange outer) { return inner.start >= outer.start && inner.end <= outer.end; }

// Replace bytes [range.start, range.end) of the file with `text`.
struct Edit {
  ByteRange range;
  std::string text;
};

enum class FixSafety { Safe, Unsafe };

struct Fix {
  std::string title;
  std::vector<Edit> edits;
  FixSafety safety = FixSafety::Safe;
  bool preferred = false;
};

struct Related {
  ByteRange range;
  std::string message;
};

enum class Tag { Unnecessary, Deprecated };

struct Finding {
  std::string code;  // "MSP101"; empty for syntax errors
  Severity severity = Severity::Warning;
  ByteRange range;
  std::string message;
  std::vector<Related> related;
  std::vector<Fix> fixes;
  std::vector<Tag> tags;
};

}  // namespace msprobe::analysis
