// Same-length repairs of the line where parsing first fails; see repair.h.
#include "repair.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <chrono>

#include "facts_builder.h"

namespace msprobe::analysis {
namespace {

constexpr int kMaxRounds = 6;

bool is_statement(TSNode n) {
  std::string_view t = ts_node_type(n);
  return (t.size() > 10 && t.substr(t.size() - 10) == "_statement") || t == "function_definition" ||
         t == "class_definition" || t == "decorated_definition";
}

// Where the first error (ERROR or MISSING node, in document order) should be
// repaired: the start of the innermost statement holding it, or the error
// itself when it sits directly in a block (`for x in data` without its colon
// is repaired at the `for`, an unclosed `f(a` at the start of its statement).
// An ERROR node often begins with statements that parsed fine (recovery can
// wrap everything from the top of the file): the trouble starts at its first
// child that is not a complete statement.
std::optional<uint32_t> first_error(const TreePtr& tree) {
  TSNode n = ts_tree_root_node(tree.get());
  if (!ts_node_has_error(n)) return std::nullopt;
  int64_t statement = -1;  // start of the innermost statement on the way down, -1 when none
  for (;;) {
    if (ts_node_is_missing(n)) return statement >= 0 ? static_cast<uint32_t>(statement) : ts_node_start_byte(n);
    bool in_error = ts_node_is_error(n);
    if (in_error && statement >= 0) return static_cast<uint32_t>(statement);  // an error inside a statement
    TSTreeCursor c = ts_tree_cursor_new(n);
    bool found = false;
    if (ts_tree_cursor_goto_first_child(&c)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&c);
        if (in_error) {  // an ERROR directly in a block: skip the statements that parsed
          std::string_view type = ts_node_type(child);
          if (type == "comment" || (is_statement(child) && !ts_node_has_error(child))) continue;
          if (!ts_node_has_error(child)) {
            ts_tree_cursor_delete(&c);
            return ts_node_start_byte(child);  // the first piece the parser could not place
          }
        } else if (!ts_node_has_error(child)) {
          continue;
        }
        n = child;
        found = true;
        break;
      } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    if (!found) return in_error || statement < 0 ? ts_node_start_byte(n) : static_cast<uint32_t>(statement);
    if (std::string_view(ts_node_type(n)) == "block") statement = -1;
    else if (is_statement(n)) statement = ts_node_start_byte(n);
  }
}

bool opens_block(std::string_view content) {
  static const std::string_view kKeywords[] = {"for ", "while ", "if ",     "elif ", "else",   "with ",
                                               "try",  "except", "finally", "def ",  "class ", "async "};
  for (std::string_view k : kKeywords) {
    if (content.substr(0, k.size()) == k) return true;
  }
  return false;
}

// Replaces the content of the line holding `at` (indentation kept): a block
// header becomes `if 1:` so its body still parses, anything else becomes
// blanks. Returns the changed byte range, or nullopt when nothing changed.
std::optional<std::pair<uint32_t, uint32_t>> neutralise_line(std::string& t, uint32_t at) {
  at = std::min<uint32_t>(at, static_cast<uint32_t>(t.size()));
  uint32_t start = at;
  while (start > 0 && t[start - 1] != '\n') --start;
  uint32_t end = at;
  while (end < t.size() && t[end] != '\n') ++end;
  if (end > start && t[end - 1] == '\r') --end;
  uint32_t content = start;
  while (content < end && (t[content] == ' ' || t[content] == '\t')) ++content;
  if (content == end) return std::nullopt;  // an empty line: nothing to neutralise
  std::string_view c(t.data() + content, end - content);
  std::string replacement(end - content, ' ');
  if (opens_block(c) && replacement.size() >= 5) replacement.replace(0, 5, "if 1:");
  if (std::string_view(replacement) == c) return std::nullopt;
  t.replace(content, end - content, replacement);
  return std::make_pair(content, end);
}

// All the reparses of one repair share one budget, the parser's own: a file
// that parses slowly (megabytes of binary garbage) must not cost a full budget
// per round. Restores the parser's timeout when the repair ends.
class SharedBudget {
 public:
  explicit SharedBudget(PythonParser& parser)
      : parser_(parser),
        saved_(parser.timeout_micros()),
        deadline_(std::chrono::steady_clock::now() + std::chrono::microseconds(saved_)) {}
  ~SharedBudget() { parser_.set_timeout_micros(saved_); }
  SharedBudget(const SharedBudget&) = delete;
  SharedBudget& operator=(const SharedBudget&) = delete;

  // Parses with what is left of the budget; null when it is spent.
  TreePtr parse(std::string_view text) {
    auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline_ - std::chrono::steady_clock::now());
    if (left.count() <= 0) return nullptr;
    parser_.set_timeout_micros(static_cast<uint64_t>(left.count()));
    return parser_.parse(text);
  }

 private:
  PythonParser& parser_;
  uint64_t saved_;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace

std::optional<RepairedText> repair(PythonParser& parser, const TreePtr& tree, std::string_view text) {
  if (!tree) return std::nullopt;
  std::optional<uint32_t> err = first_error(tree);
  if (!err) return std::nullopt;
  RepairedText r;
  r.text = std::string(text);
  r.tree = tree;
  uint32_t original = *err;
  SharedBudget budget(parser);
  bool stale = false;
  for (int round = 0; round < kMaxRounds && err; ++round) {
    auto changed = neutralise_line(r.text, *err);
    if (!changed) break;
    // A full parse: an incremental reparse reuses nodes built by error
    // recovery and can keep errors that a fresh parse of the same text has not.
    TreePtr next = budget.parse(r.text);
    if (!next) return std::nullopt;  // out of time: the unrepaired facts will do
    r.tree = std::move(next);
    ++r.lines_neutralised;
    std::optional<uint32_t> after = first_error(r.tree);
    stale = false;
    if (after && *after < changed->first) {
      // The trouble starts earlier (an unclosed bracket above the line where
      // parsing gave up): put the line back and repair the earlier one.
      r.text.replace(changed->first, changed->second - changed->first,
                     text.substr(changed->first, changed->second - changed->first));
      --r.lines_neutralised;
      stale = true;
    }
    err = after;
  }
  if (stale) {  // the last round put a line back: the tree must be the text's
    TreePtr next = budget.parse(r.text);
    if (!next) return std::nullopt;
    r.tree = std::move(next);
    err = first_error(r.tree);
  }
  // Keep the repair only if parsing now fails later in the file (or not at all).
  if (r.lines_neutralised == 0 || (err && *err <= original)) return std::nullopt;
  return r;
}

FileFacts build_tolerant_facts(PythonParser& parser, const TreePtr& tree, std::string_view text, bool loop_roles,
                               const PreviousFacts* previous) {
  if (!tree || !ts_node_has_error(ts_tree_root_node(tree.get()))) return build_facts(tree, text, loop_roles, previous);
  std::optional<RepairedText> fixed = repair(parser, tree, text);
  if (!fixed) return build_facts(tree, text, loop_roles);
  FileFacts better = build_facts(fixed->tree, fixed->text, loop_roles);
  better.syntax_errors = syntax_errors(tree);
  better.chunks = nullptr;  // they describe the repaired text, not this one
  return better;
}

std::vector<SyntaxError> syntax_errors(const TreePtr& tree) {
  // The builder's order (pre-order), visiting only subtrees that hold an error.
  std::vector<SyntaxError> out;
  if (!tree) return out;
  std::vector<TSNode> stack{ts_tree_root_node(tree.get())};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    ByteRange r{ts_node_start_byte(n), ts_node_end_byte(n)};
    if (ts_node_is_missing(n)) {
      out.push_back({r, true, ts_node_type(n)});
      continue;
    }
    if (ts_node_is_error(n)) out.push_back({r, false, {}});
    std::vector<TSNode> children;
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&c);
        if (ts_node_has_error(child)) children.push_back(child);
      } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
  return out;
}

}  // namespace msprobe::analysis
