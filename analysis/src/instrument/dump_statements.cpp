// Which statements are msProbe dump code.
#include "dump_statements.h"
#include "msprobe/analysis/text_match.h"

#include <algorithm>
#include <set>

namespace msprobe::analysis::instrument {
namespace {

std::string last_component(const std::string& q) {
  std::size_t dot = q.rfind('.');
  return dot == std::string::npos ? q : q.substr(dot + 1);
}

int statement_with_range(const FileFacts& f, ByteRange r) {
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    if (f.statements[i].range == r) return static_cast<int>(i);
  }
  return -1;
}

// The statement is exactly the call, or `target = <the call>`.
bool statement_is_call(const FileFacts& f, int stmt, int call) {
  const Statement& st = f.statements[static_cast<std::size_t>(stmt)];
  if (st.type != "expression_statement") return false;
  const Call& c = f.calls[static_cast<std::size_t>(call)];
  if (st.range == c.range) return true;
  for (const Assignment& a : f.assignments) {
    if (a.value_call == call && a.range == st.range) return true;
  }
  return false;
}

}  // namespace

bool is_dump_api_name(const std::string& name) {
  return name == "PrecisionDebugger" || name == "seed_all" || name == "module_dump" || name == "module_dump_end";
}

std::vector<DumpStatement> dump_statements(const Layout& layout, const FileFacts& f) {
  std::vector<DumpStatement> out;
  std::set<int> seen;
  auto add = [&](int stmt, MsprobeKind kind) -> DumpStatement* {
    if (stmt < 0 || !seen.insert(stmt).second) return nullptr;
    const Statement& st = f.statements[static_cast<std::size_t>(stmt)];
    DumpStatement d;
    d.statement = stmt;
    d.kind = kind;
    d.range = st.range;
    d.first_line = st.line;
    d.last_line = st.end_line;
    d.owns_lines = layout.owns_lines(st.range);
    out.push_back(d);
    return &out.back();
  };
  bool monitor = std::find(f.scenarios.begin(), f.scenarios.end(), Scenario::Monitor) != f.scenarios.end();
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Import) {
      int stmt = statement_with_range(f, u.range);
      if (stmt < 0) continue;
      std::vector<int> imports;
      bool mixed = false;
      for (std::size_t i = 0; i < f.imports.size(); ++i) {
        const Import& imp = f.imports[i];
        if (!(imp.range == u.range)) continue;
        imports.push_back(static_cast<int>(i));
        bool module_import = imp.name.empty();
        if (module_import ? (monitor || (imp.module != "msprobe" && imp.module != "msprobe.pytorch" &&
                                         imp.module != "msprobe.mindspore"))
                          : !is_dump_api_name(imp.name))
          mixed = true;
      }
      bool any_dump = std::any_of(imports.begin(), imports.end(), [&](int i) {
        const Import& imp = f.imports[static_cast<std::size_t>(i)];
        return imp.name.empty() ? !mixed : is_dump_api_name(imp.name);
      });
      if (!any_dump) continue;  // only TrainerMon and friends: not dump code
      if (DumpStatement* d = add(stmt, MsprobeKind::Import)) {
        d->mixed_import = mixed;
        d->imports = std::move(imports);
      }
      continue;
    }
    if (u.call < 0) continue;
    int stmt = f.calls[static_cast<std::size_t>(u.call)].statement;
    if (stmt >= 0 && statement_is_call(f, stmt, u.call)) add(stmt, u.kind);
  }
  // module_dump(...) / module_dump_end() are not calls on a debugger.
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& c = f.calls[i];
    if (!starts_with(c.qualified, "msprobe.")) continue;
    std::string name = last_component(c.qualified);
    if (name != "module_dump" && name != "module_dump_end") continue;
    if (c.statement >= 0 && statement_is_call(f, c.statement, static_cast<int>(i)))
      add(c.statement, MsprobeKind::Other);
  }
  std::sort(out.begin(), out.end(),
            [](const DumpStatement& a, const DumpStatement& b) { return a.range.start < b.range.start; });
  // `debugger.stop(); debugger.step()`: dump statements that share lines only
  // with each other own those lines together.
  std::string_view text = layout.source().view();
  for (std::size_t i = 0; i < out.size();) {
    std::size_t j = i;
    while (j + 1 < out.size() && out[j + 1].first_line == out[j].last_line) {
      std::string_view gap = text.substr(out[j].range.end, out[j + 1].range.start - out[j].range.end);
      if (gap.find_first_not_of(" \t;") != std::string_view::npos || std::count(gap.begin(), gap.end(), ';') != 1)
        break;
      ++j;
    }
    if (j > i && layout.starts_line(out[i].range.start) && layout.ends_line(out[j].range.end)) {
      for (std::size_t k = i; k <= j; ++k) {
        out[k].owns_lines = true;
        out[k].first_line = out[i].first_line;
        out[k].last_line = out[j].last_line;
      }
    }
    i = j + 1;
  }
  return out;
}

std::map<uint32_t, MsprobeKind> dump_kinds_by_start(const std::vector<DumpStatement>& stmts) {
  std::map<uint32_t, MsprobeKind> m;
  for (const DumpStatement& d : stmts) m[d.range.start] = d.kind;
  return m;
}

}  // namespace msprobe::analysis::instrument
