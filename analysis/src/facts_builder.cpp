// The single pass over the syntax tree that fills FileFacts. Each frame of the
// explicit stack carries the context (enclosing function, loop, statement)
// its node inherits, so no exit events are needed.
#include "facts_builder.h"

#include "derive.h"

#include <tree_sitter/api.h>

#include <cstring>
#include <map>
#include <utility>
#include <vector>

namespace msprobe::analysis {
namespace {

bool is(TSNode n, const char* type) { return std::strcmp(ts_node_type(n), type) == 0; }

TSNode field_child(TSNode n, TSFieldId id) { return ts_node_child_by_field_id(n, id); }

ByteRange range_of(TSNode n) { return {ts_node_start_byte(n), ts_node_end_byte(n)}; }

bool is_statement_type(const char* t) {
  static const char* kTypes[] = {"expression_statement", "if_statement", "for_statement", "while_statement",
                                 "try_statement", "with_statement", "function_definition", "class_definition",
                                 "decorated_definition", "return_statement", "pass_statement", "break_statement",
                                 "continue_statement", "raise_statement", "import_statement",
                                 "import_from_statement", "future_import_statement", "assert_statement",
                                 "global_statement", "nonlocal_statement", "delete_statement", "print_statement",
                                 "exec_statement", "type_alias_statement", "match_statement"};
  for (const char* k : kTypes) {
    if (std::strcmp(t, k) == 0) return true;
  }
  return false;
}

bool is_dotted(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = c == '.' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              static_cast<unsigned char>(c) >= 0x80;
    if (!ok) return false;
  }
  return s.front() != '.' && s.back() != '.';
}

// What the builder does with a node, looked up once per grammar symbol: the
// pass used to strcmp every node's type name against ~40 names.
enum class Kind : uint8_t {
  Other,
  Comment,
  Import,
  ImportFrom,  // import_from_statement, future_import_statement
  Call,
  Attribute,
  Identifier,
  DecoratedDefinition,
  FunctionDefinition,
  ClassDefinition,
  Loop,  // for_statement, while_statement
  With,
  Assignment,  // assignment, augmented_assignment
  NameContainer,  // dotted_name, aliased_import (only looked at as a parent)
  KeywordArgument,  // only looked at as a parent
};

struct NodeInfo {
  Kind kind = Kind::Other;
  bool statement = false;
};

class SymbolTable {
 public:
  explicit SymbolTable(const TSLanguage* lang) : info_(ts_language_symbol_count(lang)) {
    static const std::pair<const char*, Kind> kKinds[] = {
        {"comment", Kind::Comment},
        {"import_statement", Kind::Import},
        {"import_from_statement", Kind::ImportFrom},
        {"future_import_statement", Kind::ImportFrom},
        {"call", Kind::Call},
        {"attribute", Kind::Attribute},
        {"identifier", Kind::Identifier},
        {"decorated_definition", Kind::DecoratedDefinition},
        {"function_definition", Kind::FunctionDefinition},
        {"class_definition", Kind::ClassDefinition},
        {"for_statement", Kind::Loop},
        {"while_statement", Kind::Loop},
        {"with_statement", Kind::With},
        {"assignment", Kind::Assignment},
        {"augmented_assignment", Kind::Assignment},
        {"dotted_name", Kind::NameContainer},
        {"aliased_import", Kind::NameContainer},
        {"keyword_argument", Kind::KeywordArgument},
    };
    for (TSSymbol sym = 0; sym < info_.size(); ++sym) {
      // Named nodes only: an anonymous token never stands for these.
      if (ts_language_symbol_type(lang, sym) != TSSymbolTypeRegular) continue;
      const char* name = ts_language_symbol_name(lang, sym);
      for (const auto& [n, k] : kKinds) {
        if (std::strcmp(name, n) == 0) info_[sym].kind = k;
      }
      info_[sym].statement = is_statement_type(name);
    }
    auto id = [lang](const char* f) {
      return ts_language_field_id_for_name(lang, f, static_cast<uint32_t>(std::strlen(f)));
    };
    fields.alias = id("alias");
    fields.alternative = id("alternative");
    fields.arguments = id("arguments");
    fields.body = id("body");
    fields.condition = id("condition");
    fields.definition = id("definition");
    fields.function = id("function");
    fields.left = id("left");
    fields.module_name = id("module_name");
    fields.name = id("name");
    fields.right = id("right");
    fields.superclasses = id("superclasses");
    fields.value = id("value");
  }

  // ts_node_symbol gives the public symbol, whose entry carries the name's kind.
  const NodeInfo& of(TSNode n) const {
    TSSymbol sym = ts_node_symbol(n);
    return sym < info_.size() ? info_[sym] : kNone;
  }

  // ts_node_child_by_field_name looks the name up among all field names on
  // every call (8% of the pass): the ids are fixed per grammar.
  struct {
    TSFieldId alias = 0, alternative = 0, arguments = 0, body = 0, condition = 0, definition = 0, function = 0;
    TSFieldId left = 0, module_name = 0, name = 0, right = 0, superclasses = 0, value = 0;
  } fields;

 private:
  static inline const NodeInfo kNone{};
  std::vector<NodeInfo> info_;
};

const SymbolTable& symbols(const TSLanguage* lang) {
  static const SymbolTable table(lang);  // one grammar: Python
  return table;
}

struct Context {
  int function = -1;
  int loop = -1;
  int owner = -1;      // statement index of the compound statement whose block we are in
  int statement = -1;  // innermost statement
  std::string class_name;
  bool in_module_compound = false;  // inside try/if/with at module level
};

class Builder {
 public:
  Builder(std::string_view text, FileFacts& facts, const SymbolTable& syms) : text_(text), f_(facts), syms_(syms) {}

  void run(TSNode root) {
    // Pre-order walk with a tree cursor. Indexed access (ts_node_child(n, i))
    // and ts_node_parent both scan siblings from the start, which made the
    // pass quadratic in the number of top-level statements; the cursor walk is
    // linear and `path` gives each node its parent and inherited context.
    struct Frame {
      TSNode node;
      Context ctx;  // the context the node's children inherit
    };
    std::vector<Frame> path;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    path.push_back({root, visit(root, TSNode{}, 0, Context{})});
    for (;;) {
      bool entered = ts_tree_cursor_goto_first_child(&cursor);
      while (!entered) {
        if (path.size() == 1) break;  // back at the root: done
        path.pop_back();
        entered = ts_tree_cursor_goto_next_sibling(&cursor);
        if (!entered) ts_tree_cursor_goto_parent(&cursor);
      }
      if (!entered) break;
      TSNode node = ts_tree_cursor_current_node(&cursor);
      const Frame& parent = path.back();
      // The field matters only for a name directly under a call or keyword argument.
      TSFieldId field = 0;
      Kind pk = syms_.of(parent.node).kind;
      if (pk == Kind::Call || pk == Kind::KeywordArgument) field = ts_tree_cursor_current_field_id(&cursor);
      Context child = visit(node, parent.node, field, parent.ctx);
      path.push_back({node, std::move(child)});
    }
    ts_tree_cursor_delete(&cursor);
    // Loops learn their first and last body statement once all statements exist.
    // Statements are in source order, so a loop's own statements follow its
    // statement index and end before the first one past its range.
    for (std::size_t li = 0; li < f_.loops.size(); ++li) {
      Loop& loop = f_.loops[li];
      bool first = true;
      std::size_t from = loop_stmt_[li] >= 0 ? static_cast<std::size_t>(loop_stmt_[li]) + 1 : 0;
      for (std::size_t si = from; si < f_.statements.size(); ++si) {
        const Statement& st = f_.statements[si];
        if (loop_stmt_[li] >= 0 && st.range.start > loop.range.end) break;
        if (st.parent_block_owner != loop_stmt_[li]) continue;
        if (st.range.start < loop.body.start || st.range.end > loop.body.end) continue;  // the else block
        if (first) loop.body_first_stmt = static_cast<uint32_t>(si), first = false;
        loop.body_last_stmt = static_cast<uint32_t>(si);
      }
    }
    resolve_names();
    derive_msprobe(f_);
    derive_scenarios(f_);
    derive_loops(text_, f_);
  }

  // Names resolve after the pass: an import may come after its first use in
  // the text (inside a function defined earlier, say).
  void resolve_names() {
    for (Call& c : f_.calls) c.qualified = qualify(c.callee);
    for (Decorator& d : f_.decorators) d.qualified = qualify(d.callee);
    std::vector<NameUse> kept;
    for (NameUse& u : f_.name_uses) {
      u.qualified = qualify(u.text);
      // A bare imported module name (`torch`) alone carries no information.
      if (u.qualified.empty() || (u.text.find('.') == std::string::npos && u.qualified == u.text)) continue;
      kept.push_back(std::move(u));
    }
    f_.name_uses = std::move(kept);
  }

 private:
  std::string text(TSNode n) const {
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (s > text_.size() || e > text_.size() || e < s) return {};
    return std::string(text_.substr(s, e - s));
  }
  uint32_t line(TSNode n) const { return ts_node_start_point(n).row; }
  std::string qualify(const std::string& s) const { return is_dotted(s) ? f_.qualify(s) : std::string(); }

  Context visit(TSNode node, TSNode parent, TSFieldId field, const Context& ctx) {
    Context child = ctx;
    const char* type = ts_node_type(node);

    if (ts_node_is_missing(node)) {
      f_.syntax_errors.push_back({range_of(node), true, type});
      return child;
    }
    if (ts_node_is_error(node)) f_.syntax_errors.push_back({range_of(node), false, {}});

    const NodeInfo& info = syms_.of(node);
    if (info.statement) child = enter_statement(node, type, ctx);

    switch (info.kind) {
      case Kind::Comment: f_.comments.push_back({range_of(node), line(node), text(node)}); break;
      case Kind::Import: add_import(node, ctx, /*from=*/false); break;
      case Kind::ImportFrom: add_import(node, ctx, /*from=*/true); break;
      case Kind::Call: add_call(node, ctx); break;
      case Kind::Attribute:
      case Kind::Identifier: add_name_use(node, parent, field); break;
      case Kind::DecoratedDefinition: add_decorators(node); break;
      case Kind::FunctionDefinition:
        child.function = add_function(node, ctx);
        child.loop = -1;  // a loop around a def does not run the def's body
        break;
      case Kind::ClassDefinition:
        add_class(node);
        child.class_name = text(field_child(node, syms_.fields.name));
        child.function = -1;
        child.loop = -1;
        break;
      case Kind::Loop: child.loop = add_loop(node, ctx, child.statement); break;
      case Kind::With: add_with(node, ctx); break;
      case Kind::Assignment: add_assignment(node, ctx); break;
      default: break;
    }
    return child;
  }

  Context enter_statement(TSNode node, const char* type, const Context& ctx) {
    Statement st;
    st.range = range_of(node);
    st.line = line(node);
    st.end_line = ts_node_end_point(node).row;
    st.type = type;
    st.parent_block_owner = ctx.owner;
    st.function = ctx.function;
    st.loop = ctx.loop;
    st.indent = ts_node_start_point(node).column;
    st.is_exit = is(node, "return_statement") || is(node, "break_statement") || is(node, "continue_statement") ||
                 is(node, "raise_statement");
    int index = static_cast<int>(f_.statements.size());
    f_.statements.push_back(std::move(st));

    if (ctx.owner == -1 && ctx.function == -1) {
      if (index == 0 && is(node, "expression_statement")) {
        TSNode first = ts_node_named_child(node, 0);
        if (!ts_node_is_null(first) && (is(first, "string") || is(first, "concatenated_string"))) {
          f_.module_docstring = range_of(node);
          f_.has_docstring = true;
        }
      }
      if (is(node, "if_statement")) {
        std::string cond = text(field_child(node, syms_.fields.condition));
        if (cond.find("__name__") != std::string::npos && cond.find("__main__") != std::string::npos)
          f_.main_guard = index;
      }
    }
    Context child = ctx;
    child.statement = index;
    // Statements inside a compound statement's blocks belong to it.
    child.owner = index;
    if (ctx.function == -1 && ctx.owner == -1 &&
        (is(node, "try_statement") || is(node, "if_statement") || is(node, "with_statement")))
      child.in_module_compound = true;
    return child;
  }

  void add_import(TSNode node, const Context& ctx, bool from) {
    bool top = ctx.function == -1 && ctx.class_name.empty();
    bool future = is(node, "future_import_statement");
    std::string module;
    if (from) {
      TSNode m = field_child(node, syms_.fields.module_name);
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
      f_.imports.push_back(imp);
      if (!bound.empty() && !target.empty()) f_.aliases[bound] = target;
    };
    uint32_t n = ts_node_named_child_count(node);
    bool any = false;
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_named_child(node, i);
      const char* field = ts_node_field_name_for_named_child(node, i);
      if (!field || std::strcmp(field, "name") != 0) {
        if (is(c, "wildcard_import")) push(module, "*", "", "");
        continue;
      }
      any = true;
      std::string name, alias;
      if (is(c, "aliased_import")) {
        name = text(field_child(c, syms_.fields.name));
        alias = text(field_child(c, syms_.fields.alias));
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
    TSNode fn = field_child(node, syms_.fields.function);
    TSNode args = field_child(node, syms_.fields.arguments);
    c.callee = text(fn);
    c.range = range_of(node);
    c.line = line(node);
    c.callee_range = range_of(fn);
    c.args_range = ts_node_is_null(args) ? ByteRange{c.callee_range.end, c.range.end} : range_of(args);
    if (!ts_node_is_null(args) && is(args, "argument_list")) {
      uint32_t n = ts_node_named_child_count(args);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode a = ts_node_named_child(args, i);
        if (is(a, "comment")) continue;
        Argument arg;
        if (is(a, "keyword_argument")) {
          arg.keyword = text(field_child(a, syms_.fields.name));
          TSNode v = field_child(a, syms_.fields.value);
          arg.text = text(v);
          arg.range = range_of(v);
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
    auto it = pending_assignment_values_.find({ts_node_start_byte(node), ts_node_end_byte(node)});
    if (it != pending_assignment_values_.end()) f_.assignments[it->second].value_call = index;
  }

  // Records maximal dotted names that resolve through an import and are not
  // the callee of a call (calls are recorded separately). `field` is the
  // node's field in `parent` (from the cursor; no parent lookups).
  void add_name_use(TSNode node, TSNode parent, TSFieldId field) {
    if (!ts_node_is_null(parent)) {
      Kind pk = syms_.of(parent).kind;
      if (pk == Kind::Attribute) return;  // not maximal
      if (pk == Kind::Call && field == syms_.fields.function) return;
      if (pk == Kind::NameContainer) return;  // dotted_name, aliased_import
      if (pk == Kind::KeywordArgument && field == syms_.fields.name) return;
    }
    f_.name_uses.push_back({text(node), {}, range_of(node)});
  }

  void add_decorators(TSNode node) {
    TSNode def = field_child(node, syms_.fields.definition);
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
        expr = field_child(expr, syms_.fields.function);
      }
      dec.callee = text(expr);
      dec.function = is(def, "function_definition") ? function_index : -1;
      f_.decorators.push_back(std::move(dec));
    }
  }

  int add_function(TSNode node, const Context& ctx) {
    Function fn;
    fn.name = text(field_child(node, syms_.fields.name));
    fn.class_name = ctx.function == -1 ? ctx.class_name : std::string();
    fn.range = range_of(node);
    fn.body = range_of(field_child(node, syms_.fields.body));
    fn.line = line(node);
    fn.parent = ctx.function;
    f_.functions.push_back(std::move(fn));
    return static_cast<int>(f_.functions.size()) - 1;
  }

  void add_class(TSNode node) {
    ClassDef c;
    c.name = text(field_child(node, syms_.fields.name));
    TSNode sup = field_child(node, syms_.fields.superclasses);
    if (!ts_node_is_null(sup)) {
      uint32_t n = ts_node_named_child_count(sup);
      for (uint32_t i = 0; i < n; ++i) c.bases.push_back(text(ts_node_named_child(sup, i)));
    }
    c.range = range_of(node);
    c.line = line(node);
    f_.classes.push_back(std::move(c));
  }

  int add_loop(TSNode node, const Context& ctx, int statement_index) {
    Loop loop;
    loop.kind = is(node, "for_statement") ? LoopKind::For : LoopKind::While;
    loop.range = range_of(node);
    TSNode body = field_child(node, syms_.fields.body);
    loop.body = ts_node_is_null(body) ? ByteRange{loop.range.end, loop.range.end} : range_of(body);
    // The header ends at the ':' before the body.
    uint32_t header_end = loop.range.end;
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_child(node, i);
      if (is(c, ":")) {
        header_end = ts_node_end_byte(c);
        break;
      }
    }
    loop.header = {loop.range.start, header_end};
    if (loop.kind == LoopKind::For) {
      loop.target = text(field_child(node, syms_.fields.left));
      loop.iterable = text(field_child(node, syms_.fields.right));
    } else {
      loop.iterable = text(field_child(node, syms_.fields.condition));
    }
    loop.has_else = !ts_node_is_null(field_child(node, syms_.fields.alternative));
    loop.line = line(node);
    loop.parent = ctx.loop;
    loop.function = ctx.function;
    f_.loops.push_back(std::move(loop));
    loop_stmt_.push_back(statement_index);
    return static_cast<int>(f_.loops.size()) - 1;
  }

  void add_with(TSNode node, const Context& ctx) {
    WithBlock w;
    w.range = range_of(node);
    TSNode body = field_child(node, syms_.fields.body);
    w.body = ts_node_is_null(body) ? ByteRange{w.range.end, w.range.end} : range_of(body);
    w.function = ctx.function;
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode clause = ts_node_named_child(node, i);
      if (!is(clause, "with_clause")) continue;
      uint32_t k = ts_node_named_child_count(clause);
      for (uint32_t j = 0; j < k; ++j) {
        TSNode item = ts_node_named_child(clause, j);
        TSNode value = is(item, "with_item") ? field_child(item, syms_.fields.value) : item;
        if (!ts_node_is_null(value)) {
          if (is(value, "as_pattern")) value = ts_node_named_child(value, 0);
          w.items.push_back(text(value));
        }
      }
    }
    f_.with_blocks.push_back(std::move(w));
  }

  void add_assignment(TSNode node, const Context& ctx) {
    Assignment a;
    TSNode left = field_child(node, syms_.fields.left);
    TSNode right = field_child(node, syms_.fields.right);
    a.target = text(left);
    a.value = ts_node_is_null(right) ? std::string() : text(right);
    a.range = range_of(node);
    a.function = ctx.function;
    a.loop = ctx.loop;
    if (!ts_node_is_null(right) && is(right, "call"))
      pending_assignment_values_[{ts_node_start_byte(right), ts_node_end_byte(right)}] =
          static_cast<int>(f_.assignments.size());
    f_.assignments.push_back(std::move(a));
  }

  std::string_view text_;
  FileFacts& f_;
  const SymbolTable& syms_;
  std::vector<int> loop_stmt_;  // statement index of each loop
  std::map<std::pair<uint32_t, uint32_t>, int> pending_assignment_values_;
};

}  // namespace

std::string FileFacts::qualify(const std::string& dotted) const {
  std::size_t dot = dotted.find('.');
  std::string root = dotted.substr(0, dot);
  auto it = aliases.find(root);
  if (it == aliases.end()) return {};
  return dot == std::string::npos ? it->second : it->second + dotted.substr(dot);
}

FileFacts build_facts(const TreePtr& tree, std::string_view text) {
  FileFacts facts;
  if (!tree) return facts;
  Builder(text, facts, symbols(ts_tree_language(tree.get()))).run(ts_tree_root_node(tree.get()));
  // The server keeps the facts of every open document: return the vectors'
  // growth slack (a third of their memory on a typical script).
  facts.imports.shrink_to_fit();
  facts.calls.shrink_to_fit();
  facts.name_uses.shrink_to_fit();
  facts.decorators.shrink_to_fit();
  facts.comments.shrink_to_fit();
  facts.functions.shrink_to_fit();
  facts.classes.shrink_to_fit();
  facts.loops.shrink_to_fit();
  facts.statements.shrink_to_fit();
  facts.assignments.shrink_to_fit();
  facts.with_blocks.shrink_to_fit();
  facts.syntax_errors.shrink_to_fit();
  return facts;
}

}  // namespace msprobe::analysis
