// Tolerance for half-typed code. tree-sitter's error recovery often swallows
// everything after an unclosed bracket into one ERROR node, so a user typing
// `model = nn.Linear(4, 4` above the training loop would lose the loop's
// facts. The repair neutralises the line where the first error starts (same
// length, so every byte offset stays valid) and parses again, a few times at
// most. Facts come from the repaired text; the syntax errors
// reported to the user still come from the real one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::analysis {

// Facts for `text`, whose tree is `tree`. When the tree has errors, facts
// are built from a repaired copy of the text if that parses better. Without
// errors, `previous` lends the facts of the statements an edit did not touch.
FileFacts build_tolerant_facts(PythonParser& parser, const TreePtr& tree, std::string_view text, bool loop_roles = true,
                               const PreviousFacts* previous = nullptr);

struct RepairedText {
  std::string text;
  TreePtr tree;
  int lines_neutralised = 0;
};

// The ERROR and MISSING nodes of a tree, as build_facts records them.
std::vector<SyntaxError> syntax_errors(const TreePtr& tree);

// The repaired text and tree, or nullopt when the tree has no error or no
// repair helped.
std::optional<RepairedText> repair(PythonParser& parser, const TreePtr& tree, std::string_view text);

}  // namespace msprobe::analysis
