// Citations of the internal msprobe-facts notes become links into the shipped msprobe-reference.md.
#include <catch2/catch.hpp>

#include "doc_links.h"
#include "docs_location.h"

using namespace msprobe::server;

TEST_CASE("doc links: citations become links to the reference's anchors") {
  const std::string u = "msprobe-reference.md";
  CHECK(
      link_reference_citations("## Source\nmsprobe-facts §1.3 (rule 6) and §2.2.\n", u) ==
      "## Source\nmsProbe reference [§1.3](msprobe-reference.md#s1-3) (rule 6) and [§2.2](msprobe-reference.md#s2-2).\n");
  // A bare section number continuing a citation, a top-level section, and a sentence's full stop.
  CHECK(link_reference_citations("not hooked (§3.2). See §8 item 2.", u) ==
        "not hooked ([§3.2](msprobe-reference.md#s3-2)). See [§8](msprobe-reference.md#s8) item 2.");
  // Code blocks are left alone; so is a § without a number.
  std::string code = "```python\nx = '§1.1'  # msprobe-facts\n```\n§ alone\n";
  CHECK(link_reference_citations(code, u) == code);
  // Without a reference to link to, the numbers stay as text, still under the user-facing name.
  CHECK(link_reference_citations("(msprobe-facts §6)", "") == "(msProbe reference §6)");
}

TEST_CASE("doc links: the reference sits next to rules.md, wherever that is") {
  CHECK(reference_doc_url("https://example.org/msprobe/rules.md") ==
        "https://example.org/msprobe/msprobe-reference.md");
  CHECK(reference_doc_url("https://example.org/msprobe/rules.md#top") ==
        "https://example.org/msprobe/msprobe-reference.md");
  // Not configured: the file shipped with the binary (the source tree's copy for the tests).
  CHECK(reference_doc_url("") == reference_doc_uri());
  CHECK(reference_doc_uri().rfind("file://", 0) == 0);
  CHECK(reference_doc_uri().find("docs/msprobe-reference.md") != std::string::npos);
}
