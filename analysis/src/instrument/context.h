// What the dump-point edits are computed from: the file, its analysis, its
// layout and its dump statements, with lookups by syntax node.
#pragma once

#include <string>
#include <vector>

#include "dump_statements.h"
#include "layout.h"
#include "msprobe/analysis/analyzer.h"

namespace msprobe::analysis::instrument {

// Facts the enable edits are computed from, shared with the vLLM runner.
// A copy of a tree for this thread: the server's analysis worker may be
// editing its own copy of the same tree meanwhile (tree-sitter shares
// subtrees between copies and copies on write).
inline TreePtr own_copy(const TreePtr& tree) {
  return tree ? TreePtr(ts_tree_copy(tree.get()), TreeDeleter{}) : nullptr;
}

struct EnableContext {
  const SourceText& src;
  const Analysis& analysis;
  const FileFacts& f;
  Layout layout;
  TreePtr tree;
  TSNode root;
  std::vector<DumpStatement> dumps;

  EnableContext(const SourceText& s, const Analysis& a)
      : src(s),
        analysis(a),
        f(a.facts),
        layout(s, a.facts),
        tree(own_copy(a.tree)),
        root(ts_tree_root_node(tree.get())),
        dumps(dump_statements(layout, a.facts)) {}

  const DumpStatement* dump_at(TSNode n) const {
    ByteRange r = node_range(n);
    for (const DumpStatement& d : dumps) {
      if (d.range == r) return &d;
    }
    return nullptr;
  }
  MsprobeKind kind_of(TSNode n) const {
    const DumpStatement* d = dump_at(n);
    return d ? d->kind : MsprobeKind::Other;
  }
  // The 8.x forward_backward_dump_end() counts as stop() (it is its alias).
  bool is_kind(TSNode n, MsprobeKind k) const {
    const DumpStatement* d = dump_at(n);
    return d && (d->kind == k || (k == MsprobeKind::Stop && d->kind == MsprobeKind::ForwardBackwardDumpEnd));
  }
  // A direct try statement whose finally block calls stop() and step().
  bool finally_covers(const std::vector<TSNode>& stmts) const {
    for (TSNode s : stmts) {
      if (!node_is(s, "try_statement")) continue;
      bool stop = false, step = false;
      for (TSNode t : block_statements(finally_block(s))) {
        stop = stop || is_kind(t, MsprobeKind::Stop);
        step = step || is_kind(t, MsprobeKind::Step);
      }
      if (stop && step) return true;
    }
    return false;
  }
};

// A double-quoted Python string literal.
std::string python_string(const std::string& s);

// Why edits on this analysis are refused ("" when they are not).
std::string parse_refusal(const Analysis& a);

}  // namespace msprobe::analysis::instrument
