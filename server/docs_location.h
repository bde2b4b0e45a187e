// Where the files msprobe-lsp ships beside its binary are on this machine: the
// rule reference (docs/rules.md) and the msProbe reference it links to, for
// the diagnostics' codeDescription and the hover links when
// msprobe.docsBaseUrl is not set, and the Python runner of `verify`.
#pragma once

#include <string>
#include <vector>

namespace msprobe::server {

// The places looked at for a shipped file, in order: beside the executable
// (the VS Code extension ships its files next to its bundled server), the
// install prefix (<prefix>/<share_dir>/<name> for <prefix>/bin/msprobe-lsp),
// and the source tree the binary was built from (<source_dir>/<name>).
std::vector<std::string> shipped_file_candidates(const std::string& exe_path, const std::string& name,
                                                 const std::string& share_dir, const std::string& source_dir);
// The first candidate that exists for the running executable, or "".
std::string find_shipped_file(const std::string& name, const std::string& share_dir, const std::string& source_dir);

// rules.md: beside the binary, <prefix>/share/doc/msprobe-lsp/, the source docs/.
std::vector<std::string> rules_doc_candidates(const std::string& exe_path);

// file:// URI of rules.md for the running executable, "" when there is none
// (diagnostics then carry no link). Computed once.
const std::string& rules_doc_uri();

// file:// URI of msprobe-reference.md, found like rules.md; "" when there is none.
const std::string& reference_doc_uri();

// msprobe_verify_runner.py: beside the binary, <prefix>/share/msprobe-lsp/, the
// source server/python/; "" when there is none.
std::string verify_runner_path();

}  // namespace msprobe::server
