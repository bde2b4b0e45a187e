// RAII ownership of tree-sitter handles and a Python parser with a time bound.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "msprobe/analysis/source.h"

struct TSParser;
struct TSTree;

namespace msprobe::analysis {

struct TreeDeleter {
  void operator()(TSTree* t) const;
};
// Trees are immutable once parsed; sharing one between the worker and a
// request is safe, so ownership is shared.
using TreePtr = std::shared_ptr<TSTree>;

// Applies an edit to a copy of `tree` so it can seed an incremental reparse.
TreePtr edited_copy(const TreePtr& tree, const ByteEdit& edit);

// The tree as an S-expression (tree-sitter's ts_node_string), "" for none:
// two trees are the same when their S-expressions are.
std::string tree_sexp(const TreePtr& tree);

class PythonParser {
 public:
  PythonParser();
  ~PythonParser();
  PythonParser(const PythonParser&) = delete;
  PythonParser& operator=(const PythonParser&) = delete;

  // Parses `text`, reusing `old_tree` (already edited) when given. Returns
  // null when the time budget ran out or `cancel` was set.
  TreePtr parse(std::string_view text, const TreePtr& old_tree = nullptr);
  // Parses only the bytes [begin, end) of `text` (a fresh parse), as if the
  // rest were not there; the tree's positions are those of the whole text.
  // `begin` starts line `begin_row` at column 0, and `end` is text.size() or
  // the start of a line. Used to parse a text in two parts on two threads
  // (split_analysis.h).
  TreePtr parse_part(std::string_view text, uint32_t begin, uint32_t begin_row, uint32_t end, uint32_t end_row);

  void set_timeout_micros(uint64_t micros) { timeout_micros_ = micros; }
  uint64_t timeout_micros() const { return timeout_micros_; }
  void set_cancel_flag(const std::atomic<bool>* flag) { cancel_ = flag; }
  const std::atomic<bool>* cancel_flag() const { return cancel_; }

 private:
  TSParser* parser_;
  uint64_t timeout_micros_ = 2'000'000;
  const std::atomic<bool>* cancel_ = nullptr;
};

}  // namespace msprobe::analysis
