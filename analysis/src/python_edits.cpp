// Line-level edits on Python source (see python_edits.h).
#include "python_edits.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }
// Indentation may hold form feeds too (Python resets the column at one).
bool is_indent(char c) { return is_space(c) || c == '\f'; }
bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool is_ident_char(char c) { return is_ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

bool is_python_keyword(const std::string& w) {
  static const char* kWords[] = {"and", "or",   "not",   "in",   "is",    "if",    "else", "lambda",
                                 "for", "True", "False", "None", "await", "yield", "async"};
  for (const char* k : kWords) {
    if (w == k) return true;
  }
  return false;
}

// Skips a string literal starting at s[i] (at its quote); returns the index past it.
std::size_t skip_string(std::string_view s, std::size_t i) {
  char q = s[i];
  bool triple = i + 2 < s.size() && s[i + 1] == q && s[i + 2] == q;
  std::size_t j = i + (triple ? 3 : 1);
  while (j < s.size()) {
    if (s[j] == '\\') {
      j += 2;
      continue;
    }
    if (s[j] == q) {
      if (!triple) return j + 1;
      if (j + 2 < s.size() && s[j + 1] == q && s[j + 2] == q) return j + 3;
    }
    ++j;
  }
  return s.size();
}

// Identifiers of an expression with the character before each one.
template <typename F>
void scan_identifiers(std::string_view s, F&& on_ident) {
  std::size_t i = 0;
  char prev = ' ';
  while (i < s.size()) {
    char c = s[i];
    if (c == '"' || c == '\'') {
      i = skip_string(s, i);
      prev = '"';
      continue;
    }
    if (is_ident_start(c)) {
      std::size_t j = i;
      while (j < s.size() && is_ident_char(s[j])) ++j;
      // A string prefix (r"..", f'..', b"..") is not a name.
      if (j < s.size() && (s[j] == '"' || s[j] == '\'') && j - i <= 2) {
        i = j;
        continue;
      }
      on_ident(std::string(s.substr(i, j - i)), prev, j < s.size() ? s[j] : '\0');
      prev = 'a';
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < s.size() && (is_ident_char(s[i]) || s[i] == '.')) ++i;
      prev = '0';
      continue;
    }
    if (!is_space(c) && c != '\n' && c != '\r') prev = c;
    ++i;
  }
}

}  // namespace

std::string line_break(const SourceText& src) { return src.uses_crlf() ? "\r\n" : "\n"; }

std::size_t bom_length(const SourceText& src, uint32_t line) {
  return line == 0 && src.view().substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

std::string_view line_indent(const SourceText& src, uint32_t line) {
  std::string_view t = src.line_text(line);
  std::size_t n = 0;
  while (n < t.size() && is_indent(t[n])) ++n;
  return t.substr(0, n);
}

std::string indent_of_line(const SourceText& src, uint32_t line) { return std::string(line_indent(src, line)); }

uint32_t first_code_line(const SourceText& src) {
  static const std::regex kCookie(R"(^[ \t\f]*#.*coding[:=][ \t]*[-\w.]+)");
  uint32_t line = 0;
  for (; line < 2 && line < src.line_count(); ++line) {
    std::string t(src.line_text(line).substr(bom_length(src, line)));
    bool shebang = line == 0 && t.compare(0, 2, "#!") == 0;
    if (!shebang && !std::regex_search(t, kCookie)) break;
  }
  return line;
}

bool starts_its_line(const SourceText& src, std::size_t offset) {
  uint32_t line = src.line_of(offset);
  std::size_t start = src.line_start(line) + bom_length(src, line);
  std::string_view t = src.view();
  for (std::size_t i = start; i < offset && i < t.size(); ++i) {
    if (!is_indent(t[i])) return false;
  }
  return true;
}

bool ends_its_line(const SourceText& src, std::size_t offset) {
  std::string_view t = src.view();
  std::size_t end = src.line_end(src.line_of(offset));
  for (std::size_t i = offset; i < end; ++i) {
    if (t[i] == '#') return true;
    if (!is_indent(t[i])) return false;
  }
  return true;
}

bool owns_lines(const SourceText& src, ByteRange r) {
  return starts_its_line(src, r.start) && ends_its_line(src, r.end);
}

bool owns_its_lines(const SourceText& src, const Statement& st) { return owns_lines(src, st.range); }

ByteRange whole_lines(const SourceText& src, const Statement& st) {
  uint32_t last = src.line_of(st.range.end);
  std::size_t end = last + 1 < src.line_count() ? src.line_start(last + 1) : src.size();
  return {static_cast<uint32_t>(src.line_start(st.line) + bom_length(src, st.line)), static_cast<uint32_t>(end)};
}

std::string lines_text(const SourceText& src, const Statement& st) {
  ByteRange r = whole_lines(src, st);
  std::string s(src.view().substr(r.start, r.end - r.start));
  if (s.empty() || (s.back() != '\n' && s.back() != '\r')) s += line_break(src);
  return s;
}

std::string reindent(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i;
    while (j < text.size() && text[j] != '\n' && text[j] != '\r') ++j;
    std::size_t k = j;
    if (k < text.size() && text[k] == '\r') ++k;
    if (k < text.size() && text[k] == '\n') ++k;
    std::string_view line = text.substr(i, j - i), brk = text.substr(j, k - j);
    bool blank = std::all_of(line.begin(), line.end(), is_space);
    if (!blank && line.substr(0, from.size()) == from) {
      out += to;
      out += line.substr(from.size());
    } else {
      out += line;
    }
    out += brk;
    i = k;
  }
  return out;
}

bool alone_in_block(const FileFacts& f, int stmt) {
  const Statement& st = f.statements[static_cast<std::size_t>(stmt)];
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    if (static_cast<int>(i) != stmt && f.statements[i].block == st.block) return false;
  }
  return true;
}

std::optional<Edit> remove_statement(const SourceText& src, const FileFacts& f, int stmt) {
  const Statement& st = f.statements[static_cast<std::size_t>(stmt)];
  if (!owns_its_lines(src, st)) return std::nullopt;
  if (alone_in_block(f, stmt)) return Edit{st.range, "pass"};
  return Edit{whole_lines(src, st), ""};
}

Edit insert_after_line(const SourceText& src, uint32_t line, const std::string& lines) {
  if (line + 1 < src.line_count()) {
    auto at = static_cast<uint32_t>(src.line_start(line + 1));
    return {{at, at}, lines};
  }
  // After the last line of a file without a final line break: the break goes
  // first, and the file still ends without one.
  auto at = static_cast<uint32_t>(src.size());
  std::string_view t = src.view();
  if (t.empty() || t.back() == '\n' || t.back() == '\r') return {{at, at}, lines};
  std::string text = lines;
  std::size_t cut = text.size();
  if (cut > 0 && text[cut - 1] == '\n') --cut;
  if (cut > 0 && text[cut - 1] == '\r') --cut;
  text.resize(cut);
  return {{at, at}, line_break(src) + text};
}

Edit insert_before_line(const SourceText& src, uint32_t line, const std::string& lines) {
  auto at = static_cast<uint32_t>(src.line_start(line) + bom_length(src, line));  // a BOM stays first
  return {{at, at}, lines};
}

Edit insert_lines(const SourceText& src, const InsertionPoint& at, const std::string& lines) {
  return at.after ? insert_after_line(src, at.line, lines) : insert_before_line(src, at.line, lines);
}

int top_level_statement(const FileFacts& f, int i) {
  while (i >= 0 && stmt(f, i).parent_block_owner != -1) i = stmt(f, i).parent_block_owner;
  return i;
}

int module_setup_anchor(const FileFacts& f) {
  auto is_import = [](std::string_view t) {
    return t == "import_statement" || t == "import_from_statement" || t == "future_import_statement";
  };
  int anchor = -1;
  for (std::size_t i = 0; i < f.statements.size(); ++i) {
    const Statement& st = f.statements[i];
    if (!is_import(st.type) || st.function != -1) continue;
    int top = top_level_statement(f, static_cast<int>(i));
    const Statement& t = f.statements[static_cast<std::size_t>(top)];
    if (top == f.main_guard) continue;
    if (t.type == "try_statement" || t.type == "if_statement" || is_import(t.type)) anchor = std::max(anchor, top);
  }
  if (anchor == -1 && f.has_docstring) {
    for (std::size_t i = 0; i < f.statements.size(); ++i) {
      if (f.statements[i].range == f.module_docstring) anchor = static_cast<int>(i);
    }
  }
  // Keep a module-level seed_all() that follows the imports first.
  for (;;) {
    int next = -1;
    uint32_t after = anchor < 0 ? 0 : f.statements[static_cast<std::size_t>(anchor)].range.end;
    for (std::size_t i = 0; i < f.statements.size(); ++i) {
      const Statement& st = f.statements[i];
      if (st.parent_block_owner == -1 && st.function == -1 && st.range.start >= after &&
          static_cast<int>(i) != anchor) {
        next = static_cast<int>(i);
        break;
      }
    }
    if (next < 0) break;
    bool seed = false;
    for (const MsprobeUse& u : f.msprobe) {
      if (u.kind == MsprobeKind::SeedAll && u.call >= 0 && f.calls[static_cast<std::size_t>(u.call)].statement == next)
        seed = true;
    }
    if (!seed) break;
    anchor = next;
  }
  return anchor;
}

bool is_constant_expression(std::string_view expr) {
  bool ok = !expr.empty();
  std::size_t i = 0;
  while (ok && i < expr.size()) {
    char c = expr[i];
    if (c == '"' || c == '\'') {
      i = skip_string(expr, i);
    } else if (is_ident_start(c)) {
      std::size_t j = i;
      while (j < expr.size() && is_ident_char(expr[j])) ++j;
      std::string w(expr.substr(i, j - i));
      if (j < expr.size() && (expr[j] == '"' || expr[j] == '\'')) {
        std::string lw = lowered(w);
        if (lw.find('f') != std::string::npos || lw.size() > 2) ok = false;  // f-strings read names
      } else if (w != "True" && w != "False" && w != "None") {
        ok = false;
      }
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < expr.size() && (is_ident_char(expr[i]) || expr[i] == '.')) ++i;
    } else if (is_space(c) || c == '\n' || c == '\r' ||
               std::string_view("[](),+-.:{}").find(c) != std::string_view::npos) {
      ++i;
    } else {
      ok = false;
    }
  }
  return ok;
}

std::vector<std::string> names_read(std::string_view expr) {
  std::vector<std::string> out;
  scan_identifiers(expr, [&](const std::string& w, char prev, char next) {
    if (prev == '.' || is_python_keyword(w)) return;
    (void)next;
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  });
  return out;
}

namespace {

// Plain names an assignment target binds: "a, (b, c)" -> a, b, c; "self.x" and
// "x[i]" bind no name.
void target_names(std::string_view target, std::vector<std::string>& out) {
  scan_identifiers(target, [&](const std::string& w, char prev, char next) {
    if (prev == '.' || next == '.' || next == '[' || is_python_keyword(w)) return;
    out.push_back(w);
  });
}

}  // namespace

std::vector<std::string> names_bound(const SourceText& src, const FileFacts& f, int stmt) {
  const Statement& st = f.statements[static_cast<std::size_t>(stmt)];
  std::vector<std::string> out;
  for (const Assignment& a : f.assignments) {
    if (inside(a.range, st.range)) target_names(a.target, out);
  }
  for (const Loop& l : f.loops) {
    if (inside(l.range, st.range)) target_names(l.target, out);
  }
  for (const Import& imp : f.imports) {
    if (inside(imp.range, st.range) && !imp.bound.empty()) out.push_back(imp.bound);
  }
  for (const Function& fn : f.functions) {
    if (inside(fn.range, st.range)) out.push_back(fn.name);
  }
  for (const ClassDef& c : f.classes) {
    if (inside(c.range, st.range)) out.push_back(c.name);
  }
  // `global x` / `nonlocal x` fix where x lives: nothing binding x may move above them.
  if (st.type == "global_statement" || st.type == "nonlocal_statement") {
    std::string_view text = src.view().substr(st.range.start, st.range.end - st.range.start);
    std::vector<std::string> words = names_read(
        text.substr(text.find(' ') == std::string_view::npos ? 0 : text.find(' ')));
    out.insert(out.end(), words.begin(), words.end());
  }
  static const std::regex kAs(R"(\bas\s+([A-Za-z_][A-Za-z0-9_]*))");
  for (const WithBlock& w : f.with_blocks) {
    if (!inside(w.range, st.range)) continue;
    std::string header(src.view().substr(w.range.start, w.body.start - w.range.start));
    for (std::sregex_iterator it(header.begin(), header.end(), kAs), end; it != end; ++it) out.push_back((*it)[1]);
  }
  return out;
}

uint32_t argument_start(const SourceText& src, const Call& call, std::size_t index) {
  const Argument& a = call.args[index];
  if (a.keyword.empty()) return a.range.start;
  std::string_view before = src.view().substr(call.args_range.start, a.range.start - call.args_range.start);
  std::size_t k = before.rfind(a.keyword);
  return k == std::string_view::npos ? a.range.start : static_cast<uint32_t>(call.args_range.start + k);
}

Edit remove_argument(const SourceText& src, const Call& call, std::size_t index) {
  const Argument& a = call.args[index];
  if (index > 0) return {{call.args[index - 1].range.end, a.range.end}, ""};
  if (call.args.size() > 1) return {{argument_start(src, call, 0), argument_start(src, call, 1)}, ""};
  // The only argument: empty the parentheses (a trailing comma goes too).
  std::string_view args = src.view().substr(call.args_range.start, call.args_range.end - call.args_range.start);
  if (args.size() >= 2 && args.front() == '(' && args.back() == ')')
    return {{call.args_range.start + 1, call.args_range.end - 1}, ""};
  return {{argument_start(src, call, 0), a.range.end}, ""};
}

Edit append_argument(const SourceText& src, const Call& call, const std::string& arg) {
  if (call.args.empty()) {
    // Right after "(", or (half-typed call) at the end of the callee.
    bool paren = call.args_range.start < src.size() && src.view()[call.args_range.start] == '(';
    uint32_t at = paren ? call.args_range.start + 1 : call.callee_range.end;
    return {{at, at}, paren ? arg : "(" + arg + ")"};
  }
  uint32_t at = call.args.back().range.end;
  return {{at, at}, ", " + arg};
}

std::pair<std::size_t, std::size_t> statements_within(const FileFacts& f, ByteRange r) {
  // Statements are in pre-order, so their start offsets never decrease.
  auto first = std::lower_bound(f.statements.begin(), f.statements.end(), r.start,
                                [](const Statement& s, uint32_t at) { return s.range.start < at; });
  auto last = std::lower_bound(first, f.statements.end(), r.end,
                               [](const Statement& s, uint32_t at) { return s.range.start < at; });
  return {static_cast<std::size_t>(first - f.statements.begin()),
          static_cast<std::size_t>(last - f.statements.begin())};
}

std::vector<int> statements_in_block(const FileFacts& f, ByteRange block) {
  std::vector<int> out;
  auto [first, last] = statements_within(f, block);
  for (std::size_t i = first; i < last; ++i) {
    if (f.statements[i].block == block) out.push_back(static_cast<int>(i));
  }
  return out;
}

int first_body_statement(const SourceText& src, const FileFacts& f, int function) {
  const Function& fn = f.functions[static_cast<std::size_t>(function)];
  std::vector<int> body = statements_in_block(f, fn.body);
  for (std::size_t k = 0; k < body.size(); ++k) {
    const Statement& st = f.statements[static_cast<std::size_t>(body[k])];
    if (k == 0 && st.type == "expression_statement") {
      std::string_view t = src.view().substr(st.range.start, st.range.end - st.range.start);
      std::size_t q = t.find_first_of("\"'");
      if (q != std::string_view::npos && q <= 2 &&
          std::all_of(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(q),
                      [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
        continue;  // the docstring
    }
    return body[k];
  }
  return -1;
}

std::string indent_unit(const SourceText& src, const FileFacts& f) {
  // How much a block's first statement is indented more than the statement
  // that owns the block, the first time the file does it.
  for (const Statement& st : f.statements) {
    if (st.parent_block_owner < 0) continue;
    const Statement& owner = f.statements[static_cast<std::size_t>(st.parent_block_owner)];
    if (st.line == owner.line || !starts_its_line(src, st.range.start) || !starts_its_line(src, owner.range.start))
      continue;
    std::string_view inner = line_indent(src, st.line), outer = line_indent(src, owner.line);
    if (inner.size() > outer.size() && inner.substr(0, outer.size()) == outer)
      return std::string(inner.substr(outer.size()));
  }
  for (uint32_t l = 0; l < src.line_count(); ++l) {
    if (!src.line_text(l).empty() && src.line_text(l)[0] == '\t') return "\t";
  }
  return "    ";
}

}  // namespace msprobe::analysis
