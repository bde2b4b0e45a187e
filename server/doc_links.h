// The rule docs cite their facts as "msprobe-facts §1.3", the project's
// internal notes, which users do not have. Rendered for users (docs/rules.md,
// hover), each citation becomes a link into docs/msprobe-reference.md, which
// ships next to rules.md and keeps the same section numbers (anchors s1-3).
#pragma once

#include <string>
#include <string_view>

namespace msprobe::server {

// Rewrites the citations of `markdown` (outside code blocks): "msprobe-facts"
// becomes "msProbe reference" and every "§A.B" a link "[§A.B](URL#sA-B)" (also
// the bare ones that continue a citation, "(§3.2)"). An empty `reference_url`
// leaves the section numbers as plain text.
std::string link_reference_citations(std::string_view markdown, const std::string& reference_url);

// Where msprobe-reference.md is for a docsBaseUrl setting (its sibling:
// ".../rules.md" -> ".../msprobe-reference.md"), else the file shipped with the
// binary; "" when there is neither.
std::string reference_doc_url(const std::string& docs_base_url);

}  // namespace msprobe::server
