// Fuzzes incremental parsing: a base text and a sequence of edits, both taken
// from the input. After every edit the incrementally reparsed tree (the old
// tree edited, as the server does it) must equal a fresh parse of the same
// text whenever that fresh parse is error-free, and the findings must then be
// the same too (code, range, message). Trees with syntax errors are compared
// only for sanity: tree-sitter's error recovery may legitimately differ
// between an incremental and a fresh parse. The incremental analysis is lent
// the previous one's facts, as the server does: whenever the fresh parse is
// error-free, every fact (dump_facts) must equal the fresh build's too (every
// other edit takes the reused facts apart from a copy, PreviousFacts::donor). With
// the top bit of the first byte set, both analyse the text as the one file of
// a project, the incremental one lent the previous summary too (its call
// effects are partly kept): their summaries must then have the same fingerprint.
//
// Input: [2 bytes base length][base][edits...], each edit
//   [2 bytes position][1 byte: deleted length (low 3 bits), insert kind][insert bytes...]
#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/project.h"

using namespace msprobe::analysis;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

const char* const kTokens[] = {"torch.compile(",
                               ")",
                               "\n",
                               "    ",
                               ":",
                               "(",
                               "#",
                               "é",
                               "模",
                               "😀",
                               "\r\n",
                               "for x in loader:\n    ",
                               "loss.backward()\n",
                               "optimizer.step()\n",
                               "debugger.start()\n",
                               "@torch.compile\n",
                               "def f():\n",
                               "\"\"\"",
                               "'",
                               "\\"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 2 || size > 4096) return 0;
  std::size_t base_len = (static_cast<std::size_t>(data[0]) << 8 | data[1]) % 1024;
  std::size_t pos = 2;
  base_len = std::min(base_len, size - pos);
  SourceText text(std::string(reinterpret_cast<const char*>(data + pos), base_len));
  pos += base_len;

  static PythonParser inc_parser, full_parser;
  AnalysisOptions options;
  std::optional<ProjectInput> project;
  if (data[0] & 0x80) {
    Analysis first = begin_analysis(full_parser, text);
    if (!first.summary) return 0;
    project = ProjectInput{
        std::make_shared<const ProjectSnapshot>(
            "/p", std::map<std::string, std::shared_ptr<const ModuleSummary>>{{"t.py", first.summary}},
            std::vector<std::string>{""}),
        "t.py"};
  }
  const ProjectInput* in = project ? &*project : nullptr;
  Analysis previous = analyze(inc_parser, text, options, nullptr, in);
  if (!previous.tree) return 0;
  for (int step = 0; step < 8 && pos + 3 <= size; ++step) {
    std::size_t at = (static_cast<std::size_t>(data[pos]) << 8 | data[pos + 1]) % (text.size() + 1);
    uint8_t op = data[pos + 2];
    pos += 3;
    std::size_t del = op & 7;
    std::string insert;
    uint8_t kind = op >> 3;
    if (kind < sizeof(kTokens) / sizeof(*kTokens)) {
      insert = kTokens[kind];
    } else {
      std::size_t n = std::min<std::size_t>(kind % 8, size - pos);
      insert.assign(reinterpret_cast<const char*>(data + pos), n);
      pos += n;
    }
    const std::string old_text = text.text();
    ByteEdit e = text.replace(at, std::min(at + del, text.size()), insert);
    PreviousFacts lend{&previous.facts, old_text, previous.summary.get()};
    // Every other edit lends a copy to move the reused entries out of, as an
    // edit of a large text with a second core does (PreviousFacts::donor).
    FileFacts donor;
    if (step % 2 == 1) {
      donor = previous.facts;
      lend.donor = &donor;
    }
    Analysis inc = analyze(inc_parser, text, options, edited_copy(previous.tree, e), in, &lend);
    Analysis full = analyze(full_parser, text, options, nullptr, in);
    if (!inc.tree || !full.tree) return 0;  // out of time: nothing to compare
    require(ts_node_end_byte(ts_tree_root_node(inc.tree.get())) <= text.size());
    if (!ts_node_has_error(ts_tree_root_node(full.tree.get()))) {
      require(tree_sexp(inc.tree) == tree_sexp(full.tree));
      require(dump_facts(inc.facts) == dump_facts(full.facts));
      require(!in ||
              (inc.summary && full.summary && summary_fingerprint(*inc.summary) == summary_fingerprint(*full.summary)));
      require(inc.findings.size() == full.findings.size());
      for (std::size_t i = 0; i < inc.findings.size(); ++i) {
        require(inc.findings[i].code == full.findings[i].code);
        require(inc.findings[i].range == full.findings[i].range);
        require(inc.findings[i].message == full.findings[i].message);
      }
    }
    previous = std::move(inc);
  }
  return 0;
}
