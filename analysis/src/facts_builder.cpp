// The single pass over the syntax tree that fills FileFacts. A TSTreeCursor
// walks the tree (ts_node_child(i) is linear in i, so indexing children of a
// 10k-statement module would be quadratic); a stack of frames, one per depth,
// carries the context (enclosing function, loop, statement) each node
// inherits. Node types are compared by symbol id, not by string.
#include "facts_builder.h"

#include "derive.h"
#include "msprobe/analysis/text_match.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace msprobe::analysis {
namespace {

// The node types the builder reacts to.
enum class T : uint8_t {
  Other,
  Comment,
  Import,
  ImportFrom,
  FutureImport,
  Call,
  Attribute,
  Identifier,
  DecoratedDefinition,
  FunctionDefinition,
  ClassDefinition,
  For,
  While,
  With,
  Assignment,
  AugmentedAssignment,
  Return,
  Break,
  Continue,
  Raise,
  If,
  Try,
  ExpressionStatement,
  OtherStatement,  // a statement type with no further meaning here (pass, assert, ...)
  DottedName,
  AliasedImport,
  KeywordArgument,
  String,
};

struct TypeTable {
  std::vector<T> by_symbol;
  // Field ids, looked up once (ts_node_child_by_field_name compares the field
  // names as strings on every call).
  struct Fields {
    TSFieldId alias = 0, alternative = 0, arguments = 0, body = 0, condition = 0, definition = 0, function = 0,
              left = 0, module_name = 0, name = 0, parameters = 0, right = 0, superclasses = 0, value = 0;
  } field;
  TSFieldId function = 0, name = 0, arguments = 0;

  TypeTable() {
    const TSLanguage* lang = tree_sitter_python();
    static const std::pair<const char*, T> kNames[] = {
        {"comment", T::Comment},
        {"import_statement", T::Import},
        {"import_from_statement", T::ImportFrom},
        {"future_import_statement", T::FutureImport},
        {"call", T::Call},
        {"attribute", T::Attribute},
        {"identifier", T::Identifier},
        {"decorated_definition", T::DecoratedDefinition},
        {"function_definition", T::FunctionDefinition},
        {"class_definition", T::ClassDefinition},
        {"for_statement", T::For},
        {"while_statement", T::While},
        {"with_statement", T::With},
        {"assignment", T::Assignment},
        {"augmented_assignment", T::AugmentedAssignment},
        {"return_statement", T::Return},
        {"break_statement", T::Break},
        {"continue_statement", T::Continue},
        {"raise_statement", T::Raise},
        {"if_statement", T::If},
        {"try_statement", T::Try},
        {"expression_statement", T::ExpressionStatement},
        {"pass_statement", T::OtherStatement},
        {"assert_statement", T::OtherStatement},
        {"global_statement", T::OtherStatement},
        {"nonlocal_statement", T::OtherStatement},
        {"delete_statement", T::OtherStatement},
        {"print_statement", T::OtherStatement},
        {"exec_statement", T::OtherStatement},
        {"type_alias_statement", T::OtherStatement},
        {"match_statement", T::OtherStatement},
        {"dotted_name", T::DottedName},
        {"aliased_import", T::AliasedImport},
        {"keyword_argument", T::KeywordArgument},
        {"string", T::String},
    };
    uint32_t count = ts_language_symbol_count(lang);
    by_symbol.assign(count, T::Other);
    // Every symbol whose name matches (aliases included), named nodes only, so
    // the anonymous keyword tokens (`for`, `import`) never count as statements.
    for (uint32_t s = 0; s < count; ++s) {
      if (ts_language_symbol_type(lang, static_cast<TSSymbol>(s)) != TSSymbolTypeRegular) continue;
      const char* n = ts_language_symbol_name(lang, static_cast<TSSymbol>(s));
      for (const auto& [type_name, t] : kNames) {
        if (std::strcmp(n, type_name) == 0) by_symbol[s] = t;
      }
    }
    field.alias = ts_language_field_id_for_name(lang, "alias", 5);
    field.alternative = ts_language_field_id_for_name(lang, "alternative", 11);
    field.arguments = ts_language_field_id_for_name(lang, "arguments", 9);
    field.body = ts_language_field_id_for_name(lang, "body", 4);
    field.condition = ts_language_field_id_for_name(lang, "condition", 9);
    field.definition = ts_language_field_id_for_name(lang, "definition", 10);
    field.function = ts_language_field_id_for_name(lang, "function", 8);
    field.left = ts_language_field_id_for_name(lang, "left", 4);
    field.module_name = ts_language_field_id_for_name(lang, "module_name", 11);
    field.name = ts_language_field_id_for_name(lang, "name", 4);
    field.parameters = ts_language_field_id_for_name(lang, "parameters", 10);
    field.right = ts_language_field_id_for_name(lang, "right", 5);
    field.superclasses = ts_language_field_id_for_name(lang, "superclasses", 12);
    field.value = ts_language_field_id_for_name(lang, "value", 5);
    function = ts_language_field_id_for_name(lang, "function", 8);
    name = ts_language_field_id_for_name(lang, "name", 4);
    arguments = ts_language_field_id_for_name(lang, "arguments", 9);
  }
  T of(TSNode n) const {
    TSSymbol s = ts_node_symbol(n);
    return s < by_symbol.size() ? by_symbol[s] : T::Other;
  }
};

const TypeTable& types() {
  static const TypeTable table;
  return table;
}

bool is_statement(T t) {
  switch (t) {
    case T::Import:
    case T::ImportFrom:
    case T::FutureImport:
    case T::DecoratedDefinition:
    case T::FunctionDefinition:
    case T::ClassDefinition:
    case T::For:
    case T::While:
    case T::With:
    case T::Return:
    case T::Break:
    case T::Continue:
    case T::Raise:
    case T::If:
    case T::Try:
    case T::ExpressionStatement:
    case T::OtherStatement: return true;
    default: return false;
  }
}

bool is(TSNode n, const char* type) { return std::strcmp(ts_node_type(n), type) == 0; }

ByteRange range_of(TSNode n) { return {ts_node_start_byte(n), ts_node_end_byte(n)}; }

bool is_dotted(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = c == '.' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              static_cast<unsigned char>(c) >= 0x80;
    if (!ok) return false;
  }
  return s.front() != '.' && s.back() != '.';
}

uint64_t key(uint32_t start, uint32_t end) { return (static_cast<uint64_t>(start) << 32) | end; }

constexpr std::size_t idx(FactList l) { return static_cast<std::size_t>(l); }
constexpr std::size_t kLists = idx(FactList::Count);

struct Context {
  int function = -1;
  int loop = -1;
  int owner = -1;      // statement index of the compound statement whose block we are in
  int statement = -1;  // innermost statement
  int class_index = -1;
  int with_block = -1;              // innermost with statement in the current function
  bool in_module_compound = false;  // inside try/if/with at module level
};

struct Frame {
  TSNode node;
  Context ctx;  // the context this node's children inherit
  T type;
};

class Builder {
 public:
  Builder(std::string_view text, FileFacts& facts) : text_(text), f_(facts), t_(types()) {}

  void run(TSNode root, bool loop_roles, const PreviousFacts* previous) {
    // Only a tree without errors is split into reusable chunks: with errors,
    // a statement's subtree depends on the text around it.
    const bool clean = !ts_node_has_error(root);
    std::shared_ptr<FactChunks> chunks = clean ? std::make_shared<FactChunks>() : nullptr;
    // With a donor (PreviousFacts::donor), the same chunks are read from that
    // copy and their entries moved out, as from a second part's own facts.
    PreviousFacts from_donor;
    const PreviousFacts* lend = previous;
    if (previous && previous->donor && previous->facts && previous->donor->chunks == previous->facts->chunks) {
      from_donor = *previous;
      from_donor.facts = previous->donor;
      lend = &from_donor;
    }
    Reuse reuse(clean ? lend : nullptr, text_);
    reuse.owned = reuse.facts && lend != previous;
    if (reuse.facts) reserve_like(*reuse.facts);
    stats_ = {};
    const Frame root_frame{root, visit(root, Context{}, nullptr, nullptr, 0), t_.of(root)};
    top_level(root_frame, reuse, range_of(root), chunks.get());
    finish(reuse.facts, std::move(chunks), loop_roles);
  }

  // The text parsed in two parts (see build_facts_in_parts).
  bool run_in_parts(TSNode first, bool loop_roles, const std::function<const SecondPart*()>& second_part) {
    auto chunks = std::make_shared<FactChunks>();
    stats_ = {};
    const Frame root_frame{first, visit(first, Context{}, nullptr, nullptr, 0), t_.of(first)};
    top_level(root_frame, Reuse(nullptr, text_), range_of(first), chunks.get());
    const SecondPart* part = second_part();
    if (!part || !part->tree || !part->facts || !part->facts->chunks) return false;
    const TSNode second = ts_tree_root_node(part->tree.get());
    const ByteRange module{range_of(first).start, range_of(second).end};
    // Walked under the first part's root: their block is the whole module.
    for (Statement& st : f_.statements) {
      if (st.parent_block_owner < 0) st.block = module;
    }
    const PreviousFacts same_text{&*part->facts, text_};
    Reuse lent(&same_text, text_);
    lent.owned = true;
    reserve_more(*part->facts);
    const Frame second_frame{second, root_frame.ctx, t_.of(second)};
    top_level(second_frame, lent, module, chunks.get());
    finish(&*part->facts, chunks, loop_roles);
    // As in a fresh build: no chunk was reused from an earlier build of this text.
    for (FactChunk& c : chunks->chunks) c.reused_from = -1;
    return true;
  }

  FactsBuildStats stats() const { return stats_; }

 private:
  // A plain string literal holds nothing the facts need (no names, calls or
  // errors): its pieces are not visited. f-strings (interpolations) and
  // strings with a syntax error inside are.
  bool opaque(const Frame& fr) const {
    if (fr.type != T::String || ts_node_has_error(fr.node)) return false;
    uint32_t start = ts_node_start_byte(fr.node);
    for (uint32_t i = start; i < text_.size() && i < start + 3; ++i) {
      char c = text_[i];
      if (c == 'f' || c == 'F' || c == 't' || c == 'T') return false;  // f-string, template string
      if (c == '"' || c == '\'') break;
    }
    return true;
  }

  // The subtree of one top-level node, in pre-order; `field` is the node's
  // field in the module.
  void walk(TSNode node, TSFieldId field, const Frame& root_frame) {
    frames_.clear();
    frames_.push_back(root_frame);
    enter(node, field, frames_);
    TSTreeCursor cursor = ts_tree_cursor_new(node);  // cannot leave `node`
    for (;;) {
      if (!opaque(frames_.back()) && ts_tree_cursor_goto_first_child(&cursor)) {
        enter(cursor, frames_);
        continue;
      }
      bool moved = false;
      while (!moved) {
        if (ts_tree_cursor_goto_next_sibling(&cursor)) {
          frames_.pop_back();
          enter(cursor, frames_);
          moved = true;
        } else if (ts_tree_cursor_goto_parent(&cursor)) {
          frames_.pop_back();
        } else {
          break;
        }
      }
      if (!moved) break;
    }
    ts_tree_cursor_delete(&cursor);
  }

  void enter(TSTreeCursor& cursor, std::vector<Frame>& frames) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    T type = t_.of(node);
    // Only names look at their field (and the lookup scans the parent's field map).
    enter(node, type == T::Identifier || type == T::Attribute ? ts_tree_cursor_current_field_id(&cursor) : 0, frames);
  }

  void enter(TSNode node, TSFieldId field, std::vector<Frame>& frames) {
    const Frame& parent = frames.back();
    const Frame* grandparent = frames.size() >= 2 ? &frames[frames.size() - 2] : nullptr;
    T type = t_.of(node);
    if (type != T::Identifier && type != T::Attribute) field = 0;
    Context child = visit(node, parent.ctx, &parent, grandparent, field);
    frames.push_back({node, child, type});
  }

  // ----- reuse of a previous build's chunks -----

  std::array<uint32_t, kLists> sizes() const {
    std::array<uint32_t, kLists> n{};
    n[idx(FactList::Imports)] = static_cast<uint32_t>(f_.imports.size());
    n[idx(FactList::Calls)] = static_cast<uint32_t>(f_.calls.size());
    n[idx(FactList::Names)] = static_cast<uint32_t>(name_use_ranges_.size());
    n[idx(FactList::Decorators)] = static_cast<uint32_t>(f_.decorators.size());
    n[idx(FactList::Comments)] = static_cast<uint32_t>(f_.comments.size());
    n[idx(FactList::Functions)] = static_cast<uint32_t>(f_.functions.size());
    n[idx(FactList::Classes)] = static_cast<uint32_t>(f_.classes.size());
    n[idx(FactList::Loops)] = static_cast<uint32_t>(f_.loops.size());
    n[idx(FactList::Statements)] = static_cast<uint32_t>(f_.statements.size());
    n[idx(FactList::Assignments)] = static_cast<uint32_t>(f_.assignments.size());
    n[idx(FactList::WithBlocks)] = static_cast<uint32_t>(f_.with_blocks.size());
    n[idx(FactList::Returns)] = static_cast<uint32_t>(f_.returns.size());
    return n;
  }

  struct Reused {
    const FactChunk* chunk = nullptr;  // the previous build's chunk
    std::size_t index = 0;             // its index there
    int64_t bytes = 0;                 // new offset - old offset
    int64_t rows = 0;
  };

  // Which previous chunk, if any, holds the same text at the same column: one
  // wholly inside the common prefix of the two texts, or inside the common
  // suffix (moved by the change in length).
  class Reuse {
   public:
    Reuse(const PreviousFacts* previous, std::string_view text) {
      if (!previous || !previous->facts || !previous->facts->chunks) return;
      facts = previous->facts;
      chunks = previous->facts->chunks.get();
      std::string_view old = previous->text;
      std::size_t n = std::min(old.size(), text.size());
      prefix_ = old.data() == text.data() && old.size() == text.size() ? n : common_prefix(old, text, n);
      // The common suffix is measured on its own: where prefix and suffix
      // overlap (an insertion that repeats the text around it), a chunk in
      // either still has the same text as the previous one it maps to.
      suffix_start_ = text.size() - (prefix_ == n && old.size() == text.size() ? n : common_suffix(old, text, n));
      delta_ = static_cast<int64_t>(text.size()) - static_cast<int64_t>(old.size());
    }

    Reused find(const FactChunk& now) const {
      Reused r;
      if (!chunks) return r;
      int64_t delta;
      if (now.range.end <= prefix_) delta = 0;
      else if (now.range.start >= suffix_start_) delta = delta_;
      else return r;
      int64_t old_start = static_cast<int64_t>(now.range.start) - delta;
      auto it = std::lower_bound(
          chunks->chunks.begin(), chunks->chunks.end(), old_start,
          [](const FactChunk& c, int64_t start) { return static_cast<int64_t>(c.range.start) < start; });
      if (it == chunks->chunks.end() || static_cast<int64_t>(it->range.start) != old_start ||
          static_cast<int64_t>(it->range.end) != static_cast<int64_t>(now.range.end) - delta ||
          it->column != now.column)
        return r;
      r.chunk = &*it;
      r.index = static_cast<std::size_t>(it - chunks->chunks.begin());
      r.bytes = delta;
      r.rows = static_cast<int64_t>(now.row) - static_cast<int64_t>(it->row);
      return r;
    }

    const FileFacts* facts = nullptr;
    const FactChunks* chunks = nullptr;
    // The lent facts belong to this build (a text's second part, built for
    // it alone): their entries are moved out instead of copied, except the
    // imports and functions, which resolve_names still reads there.
    bool owned = false;

   private:
    // Bytes equal at the start (common_prefix) or the end (common_suffix) of
    // `a` and `b`, at most n; compared blockwise, then byte by byte.
    static std::size_t common_prefix(std::string_view a, std::string_view b, std::size_t n) {
      std::size_t i = 0;
      while (i < n) {
        std::size_t step = std::min<std::size_t>(4096, n - i);
        if (std::memcmp(a.data() + i, b.data() + i, step) != 0) break;
        i += step;
      }
      while (i < n && a[i] == b[i]) ++i;
      return i;
    }
    static std::size_t common_suffix(std::string_view a, std::string_view b, std::size_t n) {
      std::size_t i = 0;
      while (i < n) {
        std::size_t step = std::min<std::size_t>(4096, n - i);
        if (std::memcmp(a.data() + a.size() - i - step, b.data() + b.size() - i - step, step) != 0) break;
        i += step;
      }
      while (i < n && a[a.size() - 1 - i] == b[b.size() - 1 - i]) ++i;
      return i;
    }

    std::size_t prefix_ = 0;
    std::size_t suffix_start_ = 0;
    int64_t delta_ = 0;
  };

  // Appends the facts of a previous chunk, moved by `r.bytes` and `r.rows`,
  // with every index into the lists renumbered.
  // An edit changes the lists little: room for the previous build's facts
  // spares the copies the growth of each list (and its moves of strings).
  void reserve_like(const FileFacts& old) {
    auto room = [](auto& to, const auto& from) { to.reserve(from.size() + from.size() / 16 + 16); };
    room(f_.imports, old.imports);
    room(f_.calls, old.calls);
    room(f_.decorators, old.decorators);
    room(f_.comments, old.comments);
    room(f_.functions, old.functions);
    room(f_.classes, old.classes);
    room(f_.loops, old.loops);
    room(f_.statements, old.statements);
    room(f_.assignments, old.assignments);
    room(f_.with_blocks, old.with_blocks);
    room(f_.returns, old.returns);
  }

  // Room for `more` after what the lists hold already.
  void reserve_more(const FileFacts& more) {
    auto room = [](auto& to, const auto& from) { to.reserve(to.size() + from.size()); };
    room(f_.imports, more.imports);
    room(f_.calls, more.calls);
    room(f_.decorators, more.decorators);
    room(f_.comments, more.comments);
    room(f_.functions, more.functions);
    room(f_.classes, more.classes);
    room(f_.loops, more.loops);
    room(f_.statements, more.statements);
    room(f_.assignments, more.assignments);
    room(f_.with_blocks, more.with_blocks);
    room(f_.returns, more.returns);
  }

  void copy_chunk(const FileFacts& old, const FactChunks& oc, const Reused& r, ByteRange module, bool steal) {
    const FactChunk& c = *r.chunk;
    const bool last = r.index + 1 == oc.chunks.size();
    auto end_of = [&](FactList l, std::size_t size) {
      return last ? static_cast<uint32_t>(size) : oc.chunks[r.index + 1].begin[idx(l)];
    };
    std::array<int64_t, kLists> off{};
    const auto now = sizes();
    for (std::size_t l = 0; l < off.size(); ++l) off[l] = static_cast<int64_t>(now[l]) - c.begin[l];
    const int64_t db = r.bytes, dr = r.rows;
    auto at = [&](uint32_t x) { return static_cast<uint32_t>(static_cast<int64_t>(x) + db); };
    auto sh = [&](ByteRange x) { return ByteRange{at(x.start), at(x.end)}; };
    auto row = [&](uint32_t x) { return static_cast<uint32_t>(static_cast<int64_t>(x) + dr); };
    auto re = [&](int i, FactList l) { return i < 0 ? i : static_cast<int>(i + off[idx(l)]); };
    auto each = [&](FactList l, const auto& from, auto& to, auto&& fix, bool movable = true) {
      using Entry = std::decay_t<decltype(from[0])>;
      uint32_t b = c.begin[idx(l)], e = end_of(l, from.size());
      for (uint32_t i = b; i < e; ++i) {
        // Not const: `steal` says the lent facts are this build's own (Reuse::owned).
        if (steal && movable) to.push_back(std::move(const_cast<Entry&>(from[i])));
        else to.push_back(from[i]);
        fix(to.back());
      }
    };
    each(
        FactList::Imports, old.imports, f_.imports,
        [&](Import& x) {
          x.range = sh(x.range);
          x.line = row(x.line);
        },
        /*movable=*/false);
    each(FactList::Calls, old.calls, f_.calls, [&](Call& x) {
      x.range = sh(x.range);
      x.line = row(x.line);
      x.callee_range = sh(x.callee_range);
      x.args_range = sh(x.args_range);
      for (Argument& a : x.args) a.range = sh(a.range);
      x.function = re(x.function, FactList::Functions);
      x.loop = re(x.loop, FactList::Loops);
      x.statement = re(x.statement, FactList::Statements);
    });
    each(FactList::Names, oc.names, name_use_ranges_, [&](ByteRange& x) { x = sh(x); });
    each(FactList::Decorators, old.decorators, f_.decorators, [&](Decorator& x) {
      x.range = sh(x.range);
      x.function = re(x.function, FactList::Functions);
    });
    each(FactList::Comments, old.comments, f_.comments, [&](Comment& x) {
      x.range = sh(x.range);
      x.line = row(x.line);
    });
    each(
        FactList::Functions, old.functions, f_.functions,
        [&](Function& x) {
          x.range = sh(x.range);
          x.body = sh(x.body);
          x.line = row(x.line);
          x.parent = re(x.parent, FactList::Functions);
          x.statement = re(x.statement, FactList::Statements);
          x.class_index = re(x.class_index, FactList::Classes);
        },
        /*movable=*/false);
    each(FactList::Classes, old.classes, f_.classes, [&](ClassDef& x) {
      x.range = sh(x.range);
      x.body = sh(x.body);
      x.line = row(x.line);
    });
    each(FactList::Loops, old.loops, f_.loops, [&](Loop& x) {
      x.range = sh(x.range);
      x.header = sh(x.header);
      x.body = sh(x.body);
      x.line = row(x.line);
      x.parent = re(x.parent, FactList::Loops);
      x.function = re(x.function, FactList::Functions);
      x.statement = re(x.statement, FactList::Statements);
      x.with_block = re(x.with_block, FactList::WithBlocks);
      // 0 and 0: no body statement (statement 0 is a top-level one, never in a body).
      if (x.body_first_stmt != 0 || x.body_last_stmt != 0) {
        x.body_first_stmt = static_cast<uint32_t>(x.body_first_stmt + off[idx(FactList::Statements)]);
        x.body_last_stmt = static_cast<uint32_t>(x.body_last_stmt + off[idx(FactList::Statements)]);
      }
    });
    each(FactList::Statements, old.statements, f_.statements, [&](Statement& x) {
      x.range = sh(x.range);
      x.line = row(x.line);
      x.end_line = row(x.end_line);
      x.function = re(x.function, FactList::Functions);
      x.loop = re(x.loop, FactList::Loops);
      // A top-level statement's block is the module, whose extent the edit changed.
      x.block = x.parent_block_owner < 0 ? module : sh(x.block);
      x.parent_block_owner = re(x.parent_block_owner, FactList::Statements);
    });
    each(FactList::Assignments, old.assignments, f_.assignments, [&](Assignment& x) {
      x.range = sh(x.range);
      x.value_call = re(x.value_call, FactList::Calls);
      for (int& v : x.value_calls) v = re(v, FactList::Calls);
      x.function = re(x.function, FactList::Functions);
      x.loop = re(x.loop, FactList::Loops);
      x.statement = re(x.statement, FactList::Statements);
    });
    each(FactList::WithBlocks, old.with_blocks, f_.with_blocks, [&](WithBlock& x) {
      x.range = sh(x.range);
      x.body = sh(x.body);
      x.function = re(x.function, FactList::Functions);
      x.parent = re(x.parent, FactList::WithBlocks);
    });
    each(FactList::Returns, old.returns, f_.returns, [&](Return& x) {
      x.statement = re(x.statement, FactList::Statements);
      x.function = re(x.function, FactList::Functions);
      x.value_call = re(x.value_call, FactList::Calls);
    });
    stmt_loop_.resize(f_.statements.size(), -1);
    loop_has_body_.resize(f_.loops.size(), false);
  }

  // The top-level nodes under `root`, each walked or copied from `reuse`.
  void top_level(const Frame& root, const Reuse& reuse, ByteRange module, FactChunks* chunks) {
    TSTreeCursor top = ts_tree_cursor_new(root.node);
    if (!opaque(root) && ts_tree_cursor_goto_first_child(&top)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&top);
        FactChunk chunk;
        chunk.range = range_of(child);
        TSPoint at = ts_node_start_point(child);
        chunk.row = at.row;
        chunk.column = at.column;
        chunk.begin = sizes();
        if (const Reused r = reuse.find(chunk); r.chunk) {
          chunk.reused_from = static_cast<int32_t>(r.index);
          copy_chunk(*reuse.facts, *reuse.chunks, r, module, reuse.owned);
          if (is_statement(t_.of(child)) && chunk.begin[idx(FactList::Statements)] < f_.statements.size())
            note_module_statement(child, t_.of(child), static_cast<int>(chunk.begin[idx(FactList::Statements)]));
          ++stats_.reused;
        } else {
          walk(child, ts_tree_cursor_current_field_id(&top), root);
          ++stats_.walked;
        }
        if (chunks) chunks->chunks.push_back(chunk);
      } while (ts_tree_cursor_goto_next_sibling(&top));
    }
    ts_tree_cursor_delete(&top);
  }

  // After the walk: names resolved (`previous`: the facts the reused chunks
  // were copied from), then the derived facts.
  void finish(const FileFacts* previous, std::shared_ptr<FactChunks> chunks, bool loop_roles) {
    for (const Import& imp : f_.imports) {
      if (!imp.bound.empty() && !imp.target.empty()) f_.aliases[imp.bound] = imp.target;
    }
    resolve_names(previous, chunks.get());
    if (chunks) chunks->names = std::move(name_use_ranges_);
    f_.chunks = std::move(chunks);
    derive_msprobe(f_);
    derive_scenarios(f_);
    if (loop_roles) derive_loops(text_, f_);
  }

  // `from torch import compile` then `def compile(...)` at module level: the
  // def rebinds the name for the code after it, and for every function body
  // (they run after the module is loaded). Bound name -> start of that def.
  static std::map<std::string, uint32_t> shadowed_imports(const FileFacts& f) {
    std::map<std::string, uint32_t> shadowed_from;
    for (const Function& fn : f.functions) {
      if (fn.parent != -1 || fn.class_index != -1 || f.aliases.find(fn.name) == f.aliases.end()) continue;
      uint32_t last_import = 0;
      for (const Import& imp : f.imports) {
        if (imp.bound == fn.name && imp.top_level) last_import = std::max(last_import, imp.range.start);
      }
      if (fn.range.start > last_import) shadowed_from.emplace(fn.name, fn.range.start);
    }
    return shadowed_from;
  }

  // Names resolve after the pass: an import may come after its first use in
  // the text (inside a function defined earlier, say). `previous`: the facts
  // the reused chunks of `chunks` were copied from.
  void resolve_names(const FileFacts* previous, const FactChunks* chunks) {
    const std::map<std::string, uint32_t> shadowed_from = shadowed_imports(f_);
    auto resolve = [&](const std::string& callee, uint32_t at, int function) {
      if (!shadowed_from.empty()) {
        auto it = shadowed_from.find(callee.substr(0, callee.find('.')));
        if (it != shadowed_from.end() && (function >= 0 || at > it->second)) return std::string();
      }
      return qualify(callee);
    };
    // A copied call or decorator keeps the name it resolved to when the
    // imports resolve alike: the same aliases, and no def rebinding one of
    // them (whose reach depends on positions) in either build.
    const FactChunks* keeping = chunks && previous && shadowed_from.empty() && previous->aliases == f_.aliases &&
                                        shadowed_imports(*previous).empty()
                                    ? chunks
                                    : nullptr;
    // Calls `resolve_at(i)` for each entry of `list` not copied from a reused
    // chunk (each entry when nothing is kept); a chunk's entries run to the
    // next chunk's start, the last one's to the end, as copy_chunk reads them.
    auto each_to_resolve = [&](FactList list, std::size_t size, auto&& resolve_at) {
      std::size_t i = 0;
      for (std::size_t k = 0; keeping && k < keeping->chunks.size(); ++k) {
        if (keeping->chunks[k].reused_from < 0) continue;
        const std::size_t begin = keeping->chunks[k].begin[idx(list)];
        for (; i < begin; ++i) resolve_at(i);
        i = k + 1 < keeping->chunks.size() ? keeping->chunks[k + 1].begin[idx(list)] : size;
      }
      for (; i < size; ++i) resolve_at(i);
    };
    each_to_resolve(FactList::Calls, f_.calls.size(), [&](std::size_t i) {
      Call& c = f_.calls[i];
      c.qualified = resolve(c.callee, c.range.start, c.function);
    });
    each_to_resolve(FactList::Decorators, f_.decorators.size(), [&](std::size_t i) {
      Decorator& d = f_.decorators[i];
      d.qualified = resolve(d.callee, d.range.start, -1);
    });
    // The names the imports bind: most name uses start with none of them
    // and are passed over without a lookup.
    NameSieve roots;
    for (const auto& alias : f_.aliases) roots.add(alias.first);
    std::vector<NameUse> kept;
    for (const ByteRange& r : name_use_ranges_) {
      std::string_view t = text_.substr(r.start, r.end - r.start);
      // A bare imported module name (`torch`) alone carries no information.
      std::size_t dot = t.find('.');
      if (dot == std::string_view::npos || !roots.may_hold(t.substr(0, dot))) continue;
      if (!is_dotted(t) || f_.aliases.find(t.substr(0, dot)) == f_.aliases.end()) continue;
      NameUse u{std::string(t), {}, r};
      u.qualified = f_.qualify(u.text);
      kept.push_back(std::move(u));
    }
    f_.name_uses = std::move(kept);
  }

  std::string text(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (s > text_.size() || e > text_.size() || e < s) return {};
    return std::string(text_.substr(s, e - s));
  }
  uint32_t line(TSNode n) const { return ts_node_start_point(n).row; }
  std::string qualify(const std::string& s) const { return is_dotted(s) ? f_.qualify(s) : std::string(); }

  // `parent` and `grandparent` are the frames of the cursor path (null at the
  // root): ts_node_parent would search down from the root each time.
  Context visit(TSNode node, const Context& ctx, const Frame* parent, const Frame* grandparent, TSFieldId field) {
    Context child = ctx;
    if (ts_node_is_missing(node)) {
      f_.syntax_errors.push_back({range_of(node), true, ts_node_type(node)});
      return child;
    }
    if (ts_node_is_error(node)) f_.syntax_errors.push_back({range_of(node), false, {}});

    T type = t_.of(node);
    if (is_statement(type)) child = enter_statement(node, type, ctx, parent, grandparent);

    switch (type) {
      case T::Comment: f_.comments.push_back({range_of(node), line(node), text(node)}); break;
      case T::Import: add_import(node, ctx, /*from=*/false, /*future=*/false); break;
      case T::ImportFrom: add_import(node, ctx, /*from=*/true, /*future=*/false); break;
      case T::FutureImport: add_import(node, ctx, /*from=*/true, /*future=*/true); break;
      case T::Call: add_call(node, ctx); break;
      case T::Attribute:
      case T::Identifier: add_name_use(node, parent, field); break;
      case T::DecoratedDefinition: add_decorators(node); break;
      case T::FunctionDefinition:
        child.function = add_function(node, ctx, child.statement);
        child.loop = -1;  // a loop around a def does not run the def's body
        child.with_block = -1;
        break;
      case T::ClassDefinition:
        child.class_index = add_class(node);
        child.function = -1;
        child.loop = -1;
        child.with_block = -1;
        break;
      case T::For:
      case T::While: child.loop = add_loop(node, ctx, child.statement, type == T::For); break;
      case T::With: child.with_block = add_with(node, ctx); break;
      case T::Assignment:
      case T::AugmentedAssignment: add_assignment(node, ctx); break;
      case T::Return: add_return(node, ctx, child.statement); break;
      default: break;
    }
    return child;
  }

  Context enter_statement(TSNode node, T type, const Context& ctx, const Frame* parent, const Frame* grandparent) {
    Statement st;
    st.range = range_of(node);
    st.line = line(node);
    st.end_line = ts_node_end_point(node).row;
    st.type = ts_node_type(node);
    st.parent_block_owner = ctx.owner;
    st.function = ctx.function;
    st.loop = ctx.loop;
    st.indent = ts_node_start_point(node).column;
    st.is_exit = type == T::Return || type == T::Break || type == T::Continue || type == T::Raise;
    if (parent) {
      TSNode holder = parent->node;
      st.block = range_of(holder);
      if (!is(holder, "block")) st.block_clause = ts_node_type(holder);
      else st.block_clause = grandparent ? ts_node_type(grandparent->node) : "module";
    }
    int index = static_cast<int>(f_.statements.size());
    f_.statements.push_back(std::move(st));
    stmt_loop_.push_back(-1);

    // A loop learns its first and last body statement as they appear (the
    // statements of its `else` block lie outside its body range).
    if (ctx.owner >= 0) {
      int li = stmt_loop_[static_cast<std::size_t>(ctx.owner)];
      if (li >= 0) {
        Loop& loop = f_.loops[static_cast<std::size_t>(li)];
        const Statement& s = f_.statements.back();
        if (inside(s.range, loop.body)) {
          if (!loop_has_body_[static_cast<std::size_t>(li)]) {
            loop.body_first_stmt = static_cast<uint32_t>(index);
            loop_has_body_[static_cast<std::size_t>(li)] = true;
          }
          loop.body_last_stmt = static_cast<uint32_t>(index);
        }
      }
    }

    if (ctx.owner == -1 && ctx.function == -1) note_module_statement(node, type, index);
    Context child = ctx;
    child.statement = index;
    // Statements inside a compound statement's blocks belong to it.
    child.owner = index;
    if (ctx.function == -1 && ctx.owner == -1 && (type == T::Try || type == T::If || type == T::With))
      child.in_module_compound = true;
    return child;
  }

  // The module docstring and the `__main__` guard, from a module-level statement.
  void note_module_statement(TSNode node, T type, int index) {
    if (index == 0 && type == T::ExpressionStatement) {
      TSNode first = ts_node_named_child(node, 0);
      if (!ts_node_is_null(first) && (is(first, "string") || is(first, "concatenated_string"))) {
        f_.module_docstring = range_of(node);
        f_.has_docstring = true;
      }
    }
    if (type == T::If) {
      std::string cond = text(ts_node_child_by_field_id(node, t_.field.condition));
      if (cond.find("__name__") != std::string::npos && cond.find("__main__") != std::string::npos)
        f_.main_guard = index;
    }
  }

  void add_import(TSNode node, const Context& ctx, bool from, bool future) {
    bool top = ctx.function == -1 && ctx.class_index == -1;
    std::string module;
    if (from) {
      TSNode m = ts_node_child_by_field_id(node, t_.field.module_name);
      module = future ? "__future__" : text(m);
    }
    auto push = [&](const std::string& mod, const std::string& name, const std::string& bound,
                    const std::string& target) {
      Import imp;
      imp.module = mod;
      imp.name = name;
      imp.bound = bound;
      imp.target = target;
      imp.range = range_of(node);
      imp.line = line(node);
      imp.top_level = top;
      imp.conditional = ctx.in_module_compound;
      imp.is_future = future;
      f_.imports.push_back(imp);  // FileFacts::aliases: after the walk, in this order
    };
    uint32_t n = ts_node_named_child_count(node);
    bool any = false;
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_named_child(node, i);
      const char* fieldname = ts_node_field_name_for_named_child(node, i);
      if (!fieldname || std::strcmp(fieldname, "name") != 0) {
        if (is(c, "wildcard_import")) push(module, "*", "", "");
        continue;
      }
      any = true;
      std::string name, alias;
      if (is(c, "aliased_import")) {
        name = text(ts_node_child_by_field_id(c, t_.field.name));
        alias = text(ts_node_child_by_field_id(c, t_.field.alias));
      } else {
        name = text(c);
      }
      if (from) {
        std::string target = module.empty() || module[0] == '.' ? std::string() : module + "." + name;
        push(module, name, alias.empty() ? name : alias, target);
      } else if (!alias.empty()) {
        push(name, "", alias, name);
      } else {
        std::string root = name.substr(0, name.find('.'));
        push(name, "", root, root);
      }
    }
    if (!any && from) push(module, "", "", "");
  }

  void add_call(TSNode node, const Context& ctx) {
    Call c;
    TSNode fn = ts_node_child_by_field_id(node, t_.field.function);
    TSNode args = ts_node_child_by_field_id(node, t_.field.arguments);
    c.callee = text(fn);
    c.range = range_of(node);
    c.line = line(node);
    c.callee_range = ts_node_is_null(fn) ? ByteRange{c.range.start, c.range.start} : range_of(fn);
    c.args_range = ts_node_is_null(args) ? ByteRange{c.callee_range.end, c.range.end} : range_of(args);
    if (!ts_node_is_null(args) && is(args, "argument_list")) {
      uint32_t n = ts_node_named_child_count(args);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode a = ts_node_named_child(args, i);
        if (is(a, "comment")) continue;
        Argument arg;
        if (is(a, "keyword_argument")) {
          arg.keyword = text(ts_node_child_by_field_id(a, t_.field.name));
          TSNode v = ts_node_child_by_field_id(a, t_.field.value);
          arg.text = text(v);
          arg.range = ts_node_is_null(v) ? range_of(a) : range_of(v);
        } else {
          arg.text = text(a);
          arg.range = range_of(a);
        }
        c.args.push_back(std::move(arg));
      }
    }
    c.function = ctx.function;
    c.loop = ctx.loop;
    c.statement = ctx.statement;
    int index = static_cast<int>(f_.calls.size());
    f_.calls.push_back(std::move(c));
    auto it = pending_values_.find(key(ts_node_start_byte(node), ts_node_end_byte(node)));
    if (it != pending_values_.end()) {
      for (const Pending& p : it->second) {
        if (p.is_return) {
          f_.returns[static_cast<std::size_t>(p.index)].value_call = index;
        } else {
          Assignment& a = f_.assignments[static_cast<std::size_t>(p.index)];
          if (p.element < 0) a.value_call = index;
          if (p.element >= 0 && static_cast<std::size_t>(p.element) < a.value_calls.size())
            a.value_calls[static_cast<std::size_t>(p.element)] = index;
        }
      }
      pending_values_.erase(it);
    }
  }

  // Records the ranges of maximal dotted names that are not the callee of a
  // call (calls are recorded separately); they are kept after the pass only
  // when their root is bound by an import.
  void add_name_use(TSNode node, const Frame* parent, TSFieldId field) {
    if (parent) {
      switch (parent->type) {
        case T::Attribute:
        case T::DottedName:
        case T::AliasedImport: return;  // not maximal, or part of an import
        case T::Call:
          if (field == t_.function) return;
          break;
        case T::KeywordArgument:
          if (field == t_.name) return;
          break;
        default: break;
      }
    }
    name_use_ranges_.push_back(range_of(node));
  }

  void add_decorators(TSNode node) {
    TSNode def = ts_node_child_by_field_id(node, t_.field.definition);
    int function_index = static_cast<int>(f_.functions.size());  // the def is visited next
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode d = ts_node_named_child(node, i);
      if (!is(d, "decorator")) continue;
      TSNode expr = ts_node_named_child(d, 0);
      if (ts_node_is_null(expr)) continue;
      Decorator dec;
      dec.range = range_of(d);
      if (is(expr, "call")) {
        dec.called = true;
        expr = ts_node_child_by_field_id(expr, t_.field.function);
      }
      dec.callee = text(expr);
      dec.function = !ts_node_is_null(def) && is(def, "function_definition") ? function_index : -1;
      f_.decorators.push_back(std::move(dec));
    }
  }

  int add_function(TSNode node, const Context& ctx, int statement) {
    Function fn;
    fn.name = text(ts_node_child_by_field_id(node, t_.field.name));
    fn.class_name = ctx.function == -1 && ctx.class_index >= 0
                        ? f_.classes[static_cast<std::size_t>(ctx.class_index)].name
                        : std::string();
    fn.class_index = ctx.function == -1 ? ctx.class_index : -1;
    fn.range = range_of(node);
    TSNode body = ts_node_child_by_field_id(node, t_.field.body);
    fn.body = ts_node_is_null(body) ? ByteRange{fn.range.end, fn.range.end} : range_of(body);
    fn.line = line(node);
    fn.parent = ctx.function;
    fn.statement = statement;
    TSNode params = ts_node_child_by_field_id(node, t_.field.parameters);
    if (!ts_node_is_null(params)) {
      uint32_t n = ts_node_named_child_count(params);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode p = ts_node_named_child(params, i);
        std::string name;
        if (is(p, "identifier")) {
          name = text(p);
        } else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
          name = text(ts_node_child_by_field_id(p, t_.field.name));
        } else if (is(p, "typed_parameter")) {
          TSNode first = ts_node_named_child(p, 0);
          if (!ts_node_is_null(first) && is(first, "identifier")) name = text(first);
        }
        if (!name.empty()) fn.params.push_back(std::move(name));
      }
    }
    f_.functions.push_back(std::move(fn));
    return static_cast<int>(f_.functions.size()) - 1;
  }

  int add_class(TSNode node) {
    ClassDef c;
    c.name = text(ts_node_child_by_field_id(node, t_.field.name));
    TSNode sup = ts_node_child_by_field_id(node, t_.field.superclasses);
    if (!ts_node_is_null(sup)) {
      uint32_t n = ts_node_named_child_count(sup);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode b = ts_node_named_child(sup, i);
        if (is(b, "keyword_argument") || is(b, "comment")) continue;  // metaclass=...
        c.bases.push_back(text(b));
      }
    }
    c.range = range_of(node);
    TSNode body = ts_node_child_by_field_id(node, t_.field.body);
    c.body = ts_node_is_null(body) ? ByteRange{c.range.end, c.range.end} : range_of(body);
    c.line = line(node);
    f_.classes.push_back(std::move(c));
    return static_cast<int>(f_.classes.size()) - 1;
  }

  int add_loop(TSNode node, const Context& ctx, int statement_index, bool is_for) {
    Loop loop;
    loop.kind = is_for ? LoopKind::For : LoopKind::While;
    loop.range = range_of(node);
    TSNode body = ts_node_child_by_field_id(node, t_.field.body);
    loop.body = ts_node_is_null(body) ? ByteRange{loop.range.end, loop.range.end} : range_of(body);
    // The header ends at the ':' before the body.
    uint32_t header_end = ts_node_is_null(body) ? loop.range.end : loop.body.start;
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_child(node, i);
      if (is(c, ":")) {
        header_end = ts_node_end_byte(c);
        break;
      }
    }
    loop.header = {loop.range.start, header_end};
    if (is_for) {
      loop.target = text(ts_node_child_by_field_id(node, t_.field.left));
      loop.iterable = text(ts_node_child_by_field_id(node, t_.field.right));
    } else {
      loop.iterable = text(ts_node_child_by_field_id(node, t_.field.condition));
    }
    loop.has_else = !ts_node_is_null(ts_node_child_by_field_id(node, t_.field.alternative));
    loop.line = line(node);
    loop.parent = ctx.loop;
    loop.function = ctx.function;
    loop.statement = statement_index;
    loop.with_block = ctx.with_block;
    f_.loops.push_back(std::move(loop));
    loop_has_body_.push_back(false);
    int index = static_cast<int>(f_.loops.size()) - 1;
    if (statement_index >= 0) stmt_loop_[static_cast<std::size_t>(statement_index)] = index;
    return index;
  }

  int add_with(TSNode node, const Context& ctx) {
    WithBlock w;
    w.range = range_of(node);
    TSNode body = ts_node_child_by_field_id(node, t_.field.body);
    w.body = ts_node_is_null(body) ? ByteRange{w.range.end, w.range.end} : range_of(body);
    w.function = ctx.function;
    w.parent = ctx.with_block;
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode clause = ts_node_named_child(node, i);
      if (!is(clause, "with_clause")) continue;
      uint32_t k = ts_node_named_child_count(clause);
      for (uint32_t j = 0; j < k; ++j) {
        TSNode item = ts_node_named_child(clause, j);
        TSNode value = is(item, "with_item") ? ts_node_child_by_field_id(item, t_.field.value) : item;
        if (!ts_node_is_null(value)) {
          if (is(value, "as_pattern")) value = ts_node_named_child(value, 0);
          w.items.push_back(text(value));
        }
      }
    }
    f_.with_blocks.push_back(std::move(w));
    return static_cast<int>(f_.with_blocks.size()) - 1;
  }

  static bool is_sequence_pattern(TSNode n) {
    return is(n, "pattern_list") || is(n, "tuple_pattern") || is(n, "list_pattern") || is(n, "expression_list") ||
           is(n, "tuple") || is(n, "list");
  }

  void add_assignment(TSNode node, const Context& ctx) {
    Assignment a;
    TSNode left = ts_node_child_by_field_id(node, t_.field.left);
    TSNode right = ts_node_child_by_field_id(node, t_.field.right);
    a.target = text(left);
    a.value = ts_node_is_null(right) ? std::string() : text(right);
    a.range = range_of(node);
    a.function = ctx.function;
    a.loop = ctx.loop;
    a.statement = ctx.statement;
    int index = static_cast<int>(f_.assignments.size());
    if (!ts_node_is_null(left) && is_sequence_pattern(left)) {
      uint32_t n = ts_node_named_child_count(left);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode e = ts_node_named_child(left, i);
        if (!is(e, "comment")) a.targets.push_back(text(e));
      }
    } else {
      a.targets.push_back(a.target);
    }
    if (!ts_node_is_null(right) && (is(right, "expression_list") || is(right, "tuple"))) {
      uint32_t n = ts_node_named_child_count(right);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode e = ts_node_named_child(right, i);
        if (is(e, "comment")) continue;
        a.values.push_back(text(e));
        a.value_calls.push_back(-1);
        if (is(e, "call"))
          pending_values_[key(ts_node_start_byte(e), ts_node_end_byte(e))].push_back(
              {index, static_cast<int>(a.value_calls.size()) - 1, false});
      }
    } else {
      a.values.push_back(a.value);
      a.value_calls.push_back(-1);
      if (!ts_node_is_null(right) && is(right, "call")) {
        auto& p = pending_values_[key(ts_node_start_byte(right), ts_node_end_byte(right))];
        p.push_back({index, -1, false});
        p.push_back({index, 0, false});
      }
    }
    f_.assignments.push_back(std::move(a));
  }

  void add_return(TSNode node, const Context& ctx, int statement) {
    Return r;
    r.statement = statement;
    r.function = ctx.function;
    TSNode value = ts_node_named_child(node, 0);
    if (!ts_node_is_null(value) && !is(value, "comment")) {
      r.value = text(value);
      if (is(value, "call"))
        pending_values_[key(ts_node_start_byte(value), ts_node_end_byte(value))].push_back(
            {static_cast<int>(f_.returns.size()), -1, true});
    }
    f_.returns.push_back(std::move(r));
  }

  struct Pending {
    int index;    // assignment or return
    int element;  // assignment: -1 for value_call, else the tuple element
    bool is_return;
  };

  std::string_view text_;
  FileFacts& f_;
  const TypeTable& t_;
  std::vector<int> stmt_loop_;       // loop index of each statement that is a loop, else -1
  std::vector<bool> loop_has_body_;  // a body statement was seen
  std::vector<ByteRange> name_use_ranges_;
  std::unordered_map<uint64_t, std::vector<Pending>> pending_values_;
  std::vector<Frame> frames_;
  FactsBuildStats stats_;
};

thread_local FactsBuildStats g_last_stats;

}  // namespace

std::string FileFacts::qualify(const std::string& dotted) const {
  std::size_t dot = dotted.find('.');
  auto it = aliases.find(std::string_view(dotted).substr(0, dot));
  if (it == aliases.end()) return {};
  return dot == std::string::npos ? it->second : it->second + dotted.substr(dot);
}

void FileFacts::shrink_to_fit() {
  chunks = nullptr;
  auto fit = [](auto&... lists) { (lists.shrink_to_fit(), ...); };
  fit(imports, calls, name_uses, decorators, comments, functions, classes, loops, statements, assignments, with_blocks,
      syntax_errors, returns, msprobe, scenario_markers, scenarios, loop_info);
  for (Call& c : calls) c.args.shrink_to_fit();
}

FileFacts build_facts(const TreePtr& tree, std::string_view text, bool loop_roles, const PreviousFacts* previous) {
  FileFacts facts;
  if (!tree) return facts;
  Builder b(text, facts);
  b.run(ts_tree_root_node(tree.get()), loop_roles, previous);
  g_last_stats = b.stats();
  return facts;
}

std::optional<FileFacts> build_facts_in_parts(const TreePtr& first, std::string_view text, bool loop_roles,
                                              const std::function<const SecondPart*()>& second) {
  FileFacts facts;
  Builder b(text, facts);
  if (!first || !b.run_in_parts(ts_tree_root_node(first.get()), loop_roles, second)) return std::nullopt;
  g_last_stats = b.stats();
  return facts;
}

FactsBuildStats last_facts_build_stats() { return g_last_stats; }

}  // namespace msprobe::analysis
