// Syntax errors as the user should read them: one finding per problem, on
// the token that causes it, in the words Python itself uses where it can.
//
// tree-sitter reports an unclosed bracket as an ERROR node from the bracket to
// the end of the file with more ERROR nodes nested inside it, so the raw
// errors were several findings (up to the cap of 10) and one squiggle over
// the rest of the file. Here:
//   - errors inside an ERROR already reported are dropped;
//   - brackets are matched over the whole file (strings and comments
//     skipped), and a bracket problem inside a reported ERROR replaces it:
//     "'(' was never closed" on the bracket, "unmatched ')'", "closing ']'
//     does not match opening '('";
//   - a MISSING ')' with an unclosed '(' before it is reported on the '(';
//   - any other ERROR is reported on its first line only.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"

namespace msprobe::analysis {

std::vector<Finding> syntax_findings(std::string_view text, const std::vector<SyntaxError>& errors,
                                     std::size_t max_findings);

}  // namespace msprobe::analysis
