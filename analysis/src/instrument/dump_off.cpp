// Turning the dump off: comment it out (and back in), or remove it. Both are
// exact inverses of what enable inserted, so round trips give the same bytes.
#include <algorithm>

#include "block_edits.h"
#include "context.h"
#include "msprobe/analysis/instrument.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
using namespace instrument;

namespace {

enum class LineMark { None, Disabled, Placeholder };

LineMark mark_of(const Layout& layout, uint32_t line) {
  std::string_view t = layout.source().line_text(line);
  t.remove_prefix(layout.bom_len(line));
  t.remove_prefix(std::min(t.size(), layout.indent_of(line).size()));
  if (starts_with(t, kDisabledPrefix)) return LineMark::Disabled;
  if (t == kDisabledPlaceholder) return LineMark::Placeholder;
  return LineMark::None;
}

// Lines commented out by disable_dump (and its placeholders), outside strings.
std::vector<std::pair<uint32_t, LineMark>> marked_lines(const Layout& layout, const Analysis& a) {
  std::vector<std::pair<uint32_t, LineMark>> out;
  for (uint32_t l = 0; l < layout.source().line_count(); ++l) {
    LineMark m = mark_of(layout, l);
    if (m != LineMark::None) out.push_back({l, m});
  }
  if (out.empty()) return out;  // the usual case: no need to walk the tree for strings
  std::set<uint32_t> strings;
  if (TreePtr tree = own_copy(a.tree)) strings = string_interior_lines(ts_tree_root_node(tree.get()));
  out.erase(std::remove_if(out.begin(), out.end(), [&](const auto& m) { return strings.count(m.first) > 0; }),
            out.end());
  return out;
}

std::string from_import_without_dump_names(const FileFacts& f, const DumpStatement& d) {
  std::string module, names;
  for (int i : d.imports) {
    const Import& imp = f.imports[static_cast<std::size_t>(i)];
    module = imp.module;
    if (imp.name.empty() || is_dump_api_name(imp.name)) continue;
    if (!names.empty()) names += ", ";
    names += imp.name;
    if (imp.bound != imp.name && !imp.bound.empty()) names += " as " + imp.bound;
  }
  return names.empty() ? std::string() : "from " + module + " import " + names;
}

}  // namespace

bool has_disabled_dump(const SourceText& src, const Analysis& a) {
  Layout layout(src, a.facts);
  return !marked_lines(layout, a).empty();
}

InstrumentResult disable_dump(const SourceText& src, const Analysis& a) {
  InstrumentResult r;
  if (std::string why = parse_refusal(a); !why.empty()) return r.error = why, r;
  EnableContext c(src, a);
  EditGroup g{"msProbe: comment out the dump", false, {}};
  std::set<uint32_t> commented;
  std::set<int> disabled;  // statement indexes
  // A dump call that shares its line with user code cannot be commented out
  // alone; left running while its import or debugger is commented out, it
  // would fail with a NameError. Refuse rather than leave a broken script.
  std::string shared;
  for (const DumpStatement& d : c.dumps) {
    if (d.owns_lines || d.mixed_import) continue;
    shared += (shared.empty() ? "" : ", ") + std::to_string(d.first_line + 1);
  }
  if (!shared.empty())
    return r.error = "msProbe code shares its line with other code (line " + shared +
                     "): commenting the rest out would leave it running without its debugger. Put each dump "
                     "statement on its own line, or use remove, which splits such lines",
           r;
  for (const DumpStatement& d : c.dumps) {
    if (d.mixed_import) {
      r.notes.push_back("line " + std::to_string(d.first_line + 1) +
                        ": the import also brings in names that are not the dump; left as is");
      continue;
    }
    disabled.insert(d.statement);
    for (uint32_t l = d.first_line; l <= d.last_line; ++l) commented.insert(l);
  }
  // A block left with nothing but comments gets a placeholder statement.
  std::vector<Edit> placeholders;
  std::vector<ByteRange> disabled_ranges;
  for (const DumpStatement& d : c.dumps) {
    if (disabled.count(d.statement)) disabled_ranges.push_back(d.range);
  }
  for (TSNode block : blocks_around(c.root, disabled_ranges)) {
    std::vector<TSNode> stmts = block_statements(block);
    if (stmts.empty()) continue;
    bool all = std::all_of(stmts.begin(), stmts.end(), [&](TSNode s) {
      const DumpStatement* d = c.dump_at(s);
      return d && disabled.count(d->statement);
    });
    if (!all) continue;
    uint32_t line = ts_node_start_point(stmts.front()).row;
    placeholders.push_back(c.layout.lines_before(line, c.layout.indent_of(line), {std::string(kDisabledPlaceholder)}));
  }
  for (uint32_t l : commented) {
    auto at = static_cast<uint32_t>(src.line_start(l) + c.layout.bom_len(l) + c.layout.indent_of(l).size());
    g.edits.push_back({{at, at}, std::string(kDisabledPrefix)});
  }
  for (Edit& e : placeholders) g.edits.push_back(std::move(e));
  if (!g.edits.empty()) r.groups.push_back(std::move(g));
  r.summary = r.groups.empty() ? "no msProbe dump line to comment out"
                               : "comment out " + std::to_string(disabled.size()) + " msProbe dump statement(s)";
  return r;
}

InstrumentResult reenable_dump(const SourceText& src, const Analysis& a) {
  InstrumentResult r;
  Layout layout(src, a.facts);
  EditGroup g{"msProbe: uncomment the dump", false, {}};
  std::set<uint32_t> placeholders;
  std::size_t n = 0;
  for (auto [line, mark] : marked_lines(layout, a)) {
    if (mark == LineMark::Placeholder) {
      placeholders.insert(line);
      continue;
    }
    auto at = static_cast<uint32_t>(src.line_start(line) + layout.bom_len(line) + layout.indent_of(line).size());
    g.edits.push_back({{at, static_cast<uint32_t>(at + kDisabledPrefix.size())}, ""});
    ++n;
  }
  for (Edit& e : delete_line_runs(layout, placeholders)) g.edits.push_back(std::move(e));
  if (!g.edits.empty()) r.groups.push_back(std::move(g));
  r.summary = r.groups.empty() ? "no commented-out msProbe dump line"
                               : "uncomment " + std::to_string(n) + " msProbe dump line(s)";
  return r;
}

InstrumentResult remove_dump(const SourceText& src, const Analysis& a) {
  InstrumentResult r;
  if (std::string why = parse_refusal(a); !why.empty()) return r.error = why, r;
  EnableContext c(src, a);
  const Layout& layout = c.layout;
  EditGroup g{"msProbe: remove the dump", true, {}};
  std::set<uint32_t> deleted;
  std::set<int> gone;  // statement indexes that disappear
  std::vector<Edit> edits;
  std::vector<ByteRange> inline_deletions;

  for (const DumpStatement& d : c.dumps) {
    if (d.mixed_import) {
      std::string kept = from_import_without_dump_names(c.f, d);
      if (kept.empty() || src.view().substr(d.range.start, 5) != "from ") {
        r.notes.push_back("line " + std::to_string(d.first_line + 1) + ": mixed import left as is");
        continue;
      }
      edits.push_back({d.range, kept});
      continue;
    }
    gone.insert(d.statement);
    if (d.owns_lines) {
      for (uint32_t l = d.first_line; l <= d.last_line; ++l) deleted.insert(l);
      continue;
    }
    // Shares its line: take the statement and one `;` separator with it,
    // preferably the one before it.
    std::string_view text = src.view();
    std::size_t before = d.range.start;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
    if (before > 0 && text[before - 1] == ';') {
      inline_deletions.push_back({static_cast<uint32_t>(before - 1), d.range.end});
      continue;
    }
    std::size_t after = d.range.end;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
    if (after < text.size() && text[after] == ';') {
      ++after;
      while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
      inline_deletions.push_back({d.range.start, static_cast<uint32_t>(after)});
      continue;
    }
    gone.erase(d.statement);
    edits.push_back({d.range, "pass"});  // the only statement after a `:`
  }
  // Where the blocks that can change are: around the statements that go and
  // around the lines disable left (the walks below skip every other subtree).
  std::vector<ByteRange> interest;
  for (const DumpStatement& d : c.dumps) {
    if (gone.count(d.statement)) interest.push_back(d.range);
  }
  for (auto [line, mark] : marked_lines(layout, a)) {
    deleted.insert(line);
    interest.push_back({static_cast<uint32_t>(src.line_start(line)), static_cast<uint32_t>(src.line_end(line))});
  }
  // Deletions on one line may touch (`a; dbg.stop(); dbg.step()`): merge them.
  std::sort(inline_deletions.begin(), inline_deletions.end(),
            [](ByteRange x, ByteRange y) { return x.start < y.start; });
  for (std::size_t i = 0; i < inline_deletions.size(); ++i) {
    ByteRange span = inline_deletions[i];
    while (i + 1 < inline_deletions.size() && inline_deletions[i + 1].start <= span.end)
      span.end = std::max(span.end, inline_deletions[++i].end);
    edits.push_back({span, ""});
  }

  // try/finally blocks whose finally holds only the dump: unwrap them.
  std::set<uint32_t> strings;                         // lines inside string literals of the unwrapped try bodies
  std::vector<std::pair<uint32_t, uint32_t>> dedent;  // line ranges
  std::set<uint32_t> unwrapped_try_starts;
  const std::vector<TSNode> blocks = blocks_around(c.root, interest);
  for (TSNode block : blocks) {
    for (TSNode s : block_statements(block)) {
      if (!node_is(s, "try_statement") || has_except_or_else(s)) continue;
      TSNode fin = finally_block(s);
      std::vector<TSNode> fin_stmts = block_statements(fin);
      if (fin_stmts.empty()) continue;
      bool only_dump = std::all_of(fin_stmts.begin(), fin_stmts.end(), [&](TSNode t) {
        const DumpStatement* d = c.dump_at(t);
        if (d) return gone.count(d->statement) && d->owns_lines;
        uint32_t row = ts_node_start_point(t).row;
        return mark_of(layout, row) == LineMark::Placeholder;
      });
      uint32_t try_line = ts_node_start_point(s).row;
      std::string_view try_text = src.line_text(try_line);
      try_text.remove_prefix(layout.indent_of(try_line).size());
      if (!only_dump || try_text != "try:") continue;
      TSNode clause = ts_node_parent(fin);
      uint32_t fin_line = ts_node_start_point(clause).row, fin_end = ts_node_end_point(clause).row;
      deleted.insert(try_line);
      for (uint32_t l = fin_line; l <= fin_end; ++l) deleted.insert(l);
      dedent.push_back({try_line + 1, fin_line - 1});
      unwrapped_try_starts.insert(ts_node_start_byte(s));
      strings.merge(string_interior_lines(s));
    }
  }
  for (auto [first, last] : dedent) {
    std::string_view outer = layout.indent_of(first - 1);
    std::string inner;
    for (uint32_t l = first; l <= last; ++l) {
      if (!layout.blank(l) && !strings.count(l)) {
        inner = std::string(layout.indent_of(l));
        break;
      }
    }
    if (inner.size() <= outer.size() || !starts_with(inner, outer)) continue;
    std::string unit = inner.substr(outer.size());
    for (Edit& e : dedent_lines(layout, first, last, unit, strings, deleted)) edits.push_back(std::move(e));
  }

  // `if <flag>:` alone on its lines, with no elif/else, whose condition has no
  // call in it (deleting it runs nothing less), and whose body is `block`.
  auto removable_flag_if = [&](TSNode ifs, TSNode block) {
    TSNode cond = ts_node_child_by_field_name(ifs, "condition", 9);
    if (ts_node_is_null(cond) || !ts_node_eq(flag_if_body(ifs), block)) return false;
    std::string_view text = node_text(src, cond);
    if (text.find('(') != std::string_view::npos || text.find(":=") != std::string_view::npos) return false;
    return layout.starts_line(ts_node_start_byte(ifs)) && ts_node_start_point(block).row > ts_node_start_point(ifs).row;
  };
  // A block whose statements all go keeps a `pass`.
  auto survives = [&](TSNode s, auto&& self) -> bool {
    const DumpStatement* d = c.dump_at(s);
    if (d && gone.count(d->statement)) return false;
    if (node_is(s, "pass_statement") && mark_of(layout, ts_node_start_point(s).row) == LineMark::Placeholder)
      return false;
    if (unwrapped_try_starts.count(ts_node_start_byte(s))) {
      std::vector<TSNode> inner = body_statements(s);
      return std::any_of(inner.begin(), inner.end(), [&](TSNode t) { return self(t, self); });
    }
    return true;
  };
  for (TSNode block : blocks) {
    std::vector<TSNode> stmts = block_statements(block);
    if (stmts.empty() || std::any_of(stmts.begin(), stmts.end(), [&](TSNode s) { return survives(s, survives); }))
      continue;
    TSNode parent = ts_node_parent(block);
    if (node_is(parent, "finally_clause")) continue;  // the whole clause goes
    if (node_is(parent, "try_statement") && unwrapped_try_starts.count(ts_node_start_byte(parent))) continue;
    // An `if FLAG:` that held nothing but the dump goes with it (enable puts
    // the calls it adds behind the flag of a flagged construction).
    if (node_is(parent, "if_statement") && removable_flag_if(parent, block)) {
      TSNode outer = ts_node_parent(parent);
      std::vector<TSNode> siblings = block_statements(outer);
      bool others = std::any_of(siblings.begin(), siblings.end(),
                                [&](TSNode t) { return !ts_node_eq(t, parent) && survives(t, survives); });
      if (others) {
        for (uint32_t l = ts_node_start_point(parent).row; l <= ts_node_end_point(parent).row; ++l) deleted.insert(l);
        continue;
      }
    }
    // Keep the first statement's lines as `pass`.
    TSNode first = stmts.front();
    uint32_t l0 = ts_node_start_point(first).row, l1 = ts_node_end_point(first).row;
    if (!deleted.count(l0)) continue;  // an inline statement already became `pass`
    for (uint32_t l = l0; l <= l1; ++l) deleted.erase(l);
    auto from = static_cast<uint32_t>(src.line_start(l0) + layout.indent_of(l0).size());
    edits.push_back({{from, static_cast<uint32_t>(src.line_end(l1))}, "pass"});
  }

  for (Edit& e : delete_line_runs(layout, deleted)) g.edits.push_back(std::move(e));
  for (Edit& e : edits) g.edits.push_back(std::move(e));
  if (!g.edits.empty()) r.groups.push_back(std::move(g));
  r.summary = r.groups.empty() ? "no msProbe dump code to remove" : "remove the msProbe dump code";
  return r;
}

}  // namespace msprobe::analysis
