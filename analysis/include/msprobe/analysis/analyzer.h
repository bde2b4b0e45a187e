// Entry point of the engine: parse, build facts, run the enabled rules, then
// apply suppressions (a separate last pass, as in ruff).
#pragma once

#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/source.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::analysis {

struct Analysis {
  TreePtr tree;  // null when parsing ran out of time
  FileFacts facts;
  std::vector<Finding> findings;  // sorted by position
  bool timed_out = false;
};

// `old_tree` must already carry the edits made since it was parsed.
Analysis analyze(PythonParser& parser, const SourceText& source, const AnalysisOptions& options,
                 const TreePtr& old_tree = nullptr);

// The rule and suppression passes alone, over facts already built.
std::vector<Finding> check_facts(const SourceText& source, const FileFacts& facts, const AnalysisOptions& options);

// Maximum number of syntax-error findings reported per file.
inline constexpr std::size_t kMaxSyntaxFindings = 10;

}  // namespace msprobe::analysis
