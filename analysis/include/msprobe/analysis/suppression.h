// Suppression comments: `# msprobe: ignore[MSP101]` and `# noqa: MSP101` on a
// line, `# msprobe: ignore-file[MSP101]` for the whole file. Unused ones are
// reported as MSP001.
#pragma once

#include <string>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis {

struct Suppression {
  enum class Scope { Line, File };
  Scope scope = Scope::Line;
  uint32_t line = 0;
  std::vector<std::string> codes;  // empty: every code (a bare `# noqa`)
  ByteRange comment;
  bool from_noqa = false;
};

std::vector<Suppression> parse_suppressions(const FileFacts& facts);

// Removes suppressed findings and appends MSP001 for suppressions that matched nothing.
void apply_suppressions(const SourceText& source, const FileFacts& facts, const AnalysisOptions& options,
                        std::vector<Finding>& findings);

}  // namespace msprobe::analysis
