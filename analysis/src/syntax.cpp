// tree-sitter glue: the Python language, parse budget and cancellation.
#include "msprobe/analysis/syntax.h"

#include <tree_sitter/api.h>

#include <chrono>
#include <stdexcept>

extern "C" const TSLanguage* tree_sitter_python(void);
// tree-sitter's current free(), for the strings it returns (ts_node_string).
extern "C" void (*ts_current_free)(void*);

namespace msprobe::analysis {
namespace {

struct ParseBudget {
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel;
};

bool progress_callback(TSParseState* state) {
  auto* budget = static_cast<ParseBudget*>(state->payload);
  if (budget->cancel && budget->cancel->load(std::memory_order_relaxed)) return true;
  return std::chrono::steady_clock::now() > budget->deadline;
}

}  // namespace

void TreeDeleter::operator()(TSTree* t) const { ts_tree_delete(t); }

TreePtr edited_copy(const TreePtr& tree, const ByteEdit& e) {
  if (!tree) return nullptr;
  TSTree* copy = ts_tree_copy(tree.get());
  TSInputEdit edit{e.start_byte,
                   e.old_end_byte,
                   e.new_end_byte,
                   {e.start_point.row, e.start_point.column},
                   {e.old_end_point.row, e.old_end_point.column},
                   {e.new_end_point.row, e.new_end_point.column}};
  ts_tree_edit(copy, &edit);
  return TreePtr(copy, TreeDeleter{});
}

std::string tree_sexp(const TreePtr& tree) {
  if (!tree) return {};
  char* s = ts_node_string(ts_tree_root_node(tree.get()));
  std::string out(s);
  ts_current_free(s);
  return out;
}

PythonParser::PythonParser() : parser_(ts_parser_new()) {
  if (!ts_parser_set_language(parser_, tree_sitter_python())) {
    ts_parser_delete(parser_);
    throw std::runtime_error("tree-sitter runtime cannot load the Python grammar (ABI mismatch)");
  }
}

PythonParser::~PythonParser() { ts_parser_delete(parser_); }

TreePtr PythonParser::parse(std::string_view text, const TreePtr& old_tree) {
  ParseBudget budget{std::chrono::steady_clock::now() + std::chrono::microseconds(timeout_micros_), cancel_};
  TSParseOptions options{};
  options.payload = &budget;
  options.progress_callback = &progress_callback;
  TSInput input{};
  struct Src {
    std::string_view text;
  } src{text};
  input.payload = &src;
  input.read = [](void* payload, uint32_t byte, TSPoint, uint32_t* bytes_read) -> const char* {
    auto* s = static_cast<Src*>(payload);
    if (byte >= s->text.size()) {
      *bytes_read = 0;
      return "";
    }
    *bytes_read = static_cast<uint32_t>(s->text.size() - byte);
    return s->text.data() + byte;
  };
  input.encoding = TSInputEncodingUTF8;
  TSTree* tree = ts_parser_parse_with_options(parser_, old_tree.get(), input, options);
  if (!tree) ts_parser_reset(parser_);
  return TreePtr(tree, TreeDeleter{});
}

TreePtr PythonParser::parse_part(std::string_view text, uint32_t begin, uint32_t begin_row, uint32_t end,
                                 uint32_t end_row) {
  TSRange range{{begin_row, 0}, {end_row, 0}, begin, end};
  if (end >= text.size()) range.end_point = {UINT32_MAX, UINT32_MAX}, range.end_byte = UINT32_MAX;
  if (!ts_parser_set_included_ranges(parser_, &range, 1)) return nullptr;
  TreePtr tree = parse(text);
  ts_parser_set_included_ranges(parser_, nullptr, 0);  // the whole text again
  return tree;
}

}  // namespace msprobe::analysis
