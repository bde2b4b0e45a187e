#include "syntax_findings.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace msprobe::analysis {
namespace {

struct BracketProblem {
  uint32_t at = 0;  // the bracket's byte offset
  std::string message;
  char opener = 0;  // for "never closed": the bracket, else 0
  bool used = false;
};

char closer_of(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

std::string quoted(char c) { return std::string("'") + c + "'"; }

// Offset just past the string literal whose quote is at `i` (unterminated:
// the end of its line, or of the text for a triple-quoted one, and
// `*terminated` false).
std::size_t skip_string(std::string_view t, std::size_t i, bool* terminated = nullptr) {
  const char q = t[i];
  const bool triple = i + 2 < t.size() && t[i + 1] == q && t[i + 2] == q;
  std::size_t j = i + (triple ? 3 : 1);
  if (terminated) *terminated = false;
  while (j < t.size()) {
    char c = t[j];
    if (c == '\\') {
      j += 2;
      continue;
    }
    if (!triple && c == '\n') return j;
    if (c == q && (!triple || (j + 2 < t.size() && t[j + 1] == q && t[j + 2] == q))) {
      if (terminated) *terminated = true;
      return j + (triple ? 3 : 1);
    }
    ++j;
  }
  return t.size();
}

bool is_triple_quote(std::string_view t, std::size_t i) {
  return i + 2 < t.size() && t[i + 1] == t[i] && t[i + 2] == t[i];
}

struct UnterminatedString {
  std::string message;  // empty: the ERROR does not start at one
  uint32_t end = 0;     // where the string runs to: its line's end, or the text's (triple-quoted)
};

// An ERROR that starts at a string literal running to the end of its line
// (or of the file, triple-quoted).
UnterminatedString unterminated_string(std::string_view t, uint32_t start) {
  std::size_t i = start;
  while (i < t.size() && i < start + 3u && std::isalpha(static_cast<unsigned char>(t[i]))) ++i;  // r, b, f, rb...
  if (i >= t.size() || (t[i] != '\'' && t[i] != '"')) return {};
  bool terminated = true;
  const std::size_t end = skip_string(t, i, &terminated);
  if (terminated) return {};
  return {is_triple_quote(t, i) ? "Syntax error: unterminated triple-quoted string literal"
                                : "Syntax error: unterminated string literal",
          static_cast<uint32_t>(end)};
}

// `for x in data` / `def f()` / `else` ... without the colon: the offset of
// the header's last character, else -1.
long missing_colon(std::string_view t, uint32_t start) {
  static const char* const kCompound[] = {"for",   "while", "if",  "elif",   "else",    "def",
                                          "class", "with",  "try", "except", "finally", "async"};
  std::size_t nl = t.find('\n', start);
  std::string_view line = t.substr(start, (nl == std::string_view::npos ? t.size() : nl) - start);
  if (line.find('#') != std::string_view::npos || line.find('\'') != std::string_view::npos ||
      line.find('"') != std::string_view::npos)
    return -1;  // comments and strings: not worth guessing
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  if (line.empty() || line.back() == ':' || line.back() == '\\') return -1;
  std::size_t word_end = 0;
  while (word_end < line.size() && (std::isalnum(static_cast<unsigned char>(line[word_end])) || line[word_end] == '_'))
    ++word_end;
  std::string_view word = line.substr(0, word_end);
  bool compound = false;
  for (const char* k : kCompound) compound = compound || word == k;
  if (!compound) return -1;
  int depth = 0;
  for (char c : line) depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
  if (depth != 0) return -1;
  return static_cast<long>(start + line.size() - 1);
}

// Python's tokenizer view of the brackets: every one that is never closed,
// closes nothing, or closes the wrong kind.
std::vector<BracketProblem> bracket_problems(std::string_view t) {
  std::vector<BracketProblem> out;
  std::vector<std::pair<char, uint32_t>> open;
  std::size_t i = 0;
  while (i < t.size()) {
    char c = t[i];
    if (c == '#') {
      std::size_t nl = t.find('\n', i);
      i = nl == std::string_view::npos ? t.size() : nl;
      continue;
    }
    if (c == '\'' || c == '"') {
      i = skip_string(t, i);
      continue;
    }
    const auto at = static_cast<uint32_t>(i);
    if (c == '(' || c == '[' || c == '{') {
      open.emplace_back(c, at);
    } else if (c == ')' || c == ']' || c == '}') {
      if (open.empty()) {
        out.push_back({at, "Syntax error: unmatched " + quoted(c)});
      } else {
        if (closer_of(open.back().first) != c)
          out.push_back(
              {at, "Syntax error: closing " + quoted(c) + " does not match opening " + quoted(open.back().first)});
        open.pop_back();
      }
    }
    ++i;
  }
  for (const auto& [ch, at] : open) out.push_back({at, "Syntax error: " + quoted(ch) + " was never closed", ch});
  std::sort(out.begin(), out.end(), [](const BracketProblem& a, const BracketProblem& b) { return a.at < b.at; });
  return out;
}

Finding error_at(ByteRange range, std::string message) {
  Finding f;
  f.severity = Severity::Error;
  f.range = range;
  f.message = std::move(message);
  return f;
}

// The first line of `r` (at least one byte when the text has one there).
ByteRange first_line(std::string_view t, ByteRange r) {
  std::size_t nl = t.find('\n', r.start);
  uint32_t end = nl == std::string_view::npos ? r.end : std::min<uint32_t>(r.end, static_cast<uint32_t>(nl));
  if (end <= r.start && r.start < t.size() && t[r.start] != '\n') end = r.start + 1;
  return {r.start, std::max(end, r.start)};
}

}  // namespace

std::vector<Finding> syntax_findings(std::string_view text, const std::vector<SyntaxError>& raw,
                                     std::size_t max_findings) {
  std::vector<SyntaxError> errors = raw;
  std::stable_sort(errors.begin(), errors.end(), [](const SyntaxError& a, const SyntaxError& b) {
    return a.range.start != b.range.start ? a.range.start < b.range.start : a.range.end > b.range.end;
  });
  // Drop what lies inside an ERROR already kept.
  std::vector<const SyntaxError*> kept;
  uint32_t covered_until = 0;
  for (const SyntaxError& e : errors) {
    if (e.range.start < covered_until && e.range.end <= covered_until) continue;
    kept.push_back(&e);
    if (!e.missing) covered_until = std::max(covered_until, e.range.end);
  }
  std::vector<BracketProblem> brackets;
  if (!kept.empty()) brackets = bracket_problems(text);

  std::vector<Finding> out;
  uint32_t string_until = 0;  // the extent of an unterminated string reported: nothing more inside it
  for (const SyntaxError* e : kept) {
    if (out.size() >= max_findings) break;
    if (e->range.start < string_until) continue;
    if (e->missing) {
      // MISSING ')' : the unclosed '(' before it says more.
      std::string_view want = e->expected;
      BracketProblem* opener = nullptr;
      for (BracketProblem& b : brackets) {
        if (b.at >= e->range.start) break;
        if (!b.used && b.opener && want.size() == 1 && closer_of(b.opener) == want[0]) opener = &b;
      }
      if (opener) {
        opener->used = true;
        out.push_back(error_at({opener->at, opener->at + 1}, opener->message));
      } else {
        out.push_back(error_at(e->range, "Syntax error: missing '" + e->expected + "'"));
      }
      continue;
    }
    bool explained = false;
    for (BracketProblem& b : brackets) {
      if (b.at < e->range.start || b.at >= e->range.end || b.used) continue;
      b.used = true;
      explained = true;
      if (out.size() < max_findings) out.push_back(error_at({b.at, b.at + 1}, b.message));
    }
    if (explained) continue;
    if (UnterminatedString s = unterminated_string(text, e->range.start); !s.message.empty()) {
      out.push_back(error_at(first_line(text, e->range), s.message));
      string_until = s.end;
    } else if (long colon = missing_colon(text, e->range.start); colon >= 0) {
      const auto at = static_cast<uint32_t>(colon);
      out.push_back(error_at({at, at + 1}, "Syntax error: expected ':'"));
    } else {
      out.push_back(error_at(first_line(text, e->range), "Syntax error"));
    }
  }
  if (out.size() > max_findings) out.resize(max_findings);
  return out;
}

}  // namespace msprobe::analysis
