// Where the rule reference (docs/rules.md) is on this machine, for the
// diagnostics' codeDescription links when msprobe.docsBaseUrl is not set.
#pragma once

#include <string>
#include <vector>

namespace msprobe::server {

// The places looked at, in order: beside the executable (the VS Code
// extension ships rules.md next to its bundled server), the install prefix
// (<prefix>/share/doc/msprobe-lsp/rules.md for <prefix>/bin/msprobe-lsp), and
// the source tree the binary was built from.
std::vector<std::string> rules_doc_candidates(const std::string& exe_path);

// file:// URI of the first candidate that exists for the running executable,
// "" when there is none (diagnostics then carry no link). Computed once.
const std::string& rules_doc_uri();

}  // namespace msprobe::server
