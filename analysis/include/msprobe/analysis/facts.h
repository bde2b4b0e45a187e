// FileFacts: everything the rules need to know about one Python file, built in
// a single pass over the syntax tree. Rules read these; they never walk nodes.
// All ranges are byte offsets into the file; lines are 0-based.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/finding.h"

namespace msprobe::analysis {

// One name bound by an import statement.
struct Import {
  std::string module;  // "torch.nn" for `from torch.nn import functional as F`, "torch" for `import torch`
  std::string name;    // imported member ("functional"); empty for `import x`
  std::string bound;   // the local name it binds ("F", "torch", "np")
  std::string target;  // the qualified name the local name stands for ("torch.nn.functional")
  ByteRange range;     // the whole import statement
  uint32_t line = 0;
  bool top_level = true;     // at module level (possibly inside try/if)
  bool conditional = false;  // inside try/if/with at module level
  bool is_future = false;    // from __future__ import ...
};

struct Argument {
  std::string keyword;  // empty for positional
  std::string text;     // source text of the value
  ByteRange range;      // the value
};

struct Call {
  std::string callee;     // source text of the function expression ("self.model", "torch.compile")
  std::string qualified;  // resolved through imports ("torch.compile"); empty when the root is not imported
  ByteRange range;        // the whole call
  uint32_t line = 0;
  ByteRange callee_range;
  ByteRange args_range;  // the parenthesised argument list
  std::vector<Argument> args;
  int function = -1;   // index into FileFacts::functions of the innermost enclosing def, -1 at module level
  int loop = -1;       // index into FileFacts::loops of the innermost enclosing loop, -1 if none
  int statement = -1;  // index into FileFacts::statements of the enclosing simple statement
};

// A dotted name used as a value (not called), e.g. `torch._dynamo.config.x = 1`.
struct NameUse {
  std::string text;
  std::string qualified;
  ByteRange range;
};

struct Decorator {
  std::string callee;  // "torch.compile" in `@torch.compile(mode="x")`
  std::string qualified;
  ByteRange range;      // the decorator line without the leading '@'... including it
  bool called = false;  // written with arguments
  int function = -1;    // the function it decorates
};

struct Comment {
  ByteRange range;
  uint32_t line = 0;
  std::string text;
};

struct Function {
  std::string name;
  std::string class_name;  // enclosing class, if a method
  ByteRange range;         // whole definition (decorators excluded)
  ByteRange body;
  uint32_t line = 0;
  int parent = -1;                  // enclosing function
  std::vector<std::string> params;  // parameter names in order ("self" included), without * / ** / defaults
  int statement = -1;    // index into statements of the function_definition (its body statements are owned by it)
  int class_index = -1;  // index into classes when a method
};

struct ClassDef {
  std::string name;
  std::vector<std::string> bases;  // source text of base expressions
  ByteRange range;
  uint32_t line = 0;
  ByteRange body;
};

enum class LoopKind { For, While };

struct Loop {
  LoopKind kind = LoopKind::For;
  ByteRange range;       // whole statement
  ByteRange header;      // `for x in y:` up to the colon
  ByteRange body;        // the block
  std::string target;    // for-loop target text ("data, label")
  std::string iterable;  // for-loop iterable text, or while condition text
  uint32_t line = 0;
  int parent = -1;               // enclosing loop
  int function = -1;             // enclosing function
  uint32_t body_first_stmt = 0;  // index into statements
  uint32_t body_last_stmt = 0;
  bool has_else = false;
  int statement = -1;   // index into statements of the loop statement itself
  int with_block = -1;  // innermost `with` statement around the loop, in the same def
};

enum class StatementKind { Simple, Compound };

// Every statement in the file, in source order, with its nesting.
struct Statement {
  ByteRange range;
  uint32_t line = 0;      // first line
  uint32_t end_line = 0;  // last line
  // tree-sitter node type ("expression_statement", "if_statement", ...): the
  // grammar's static name, valid for the life of the program.
  std::string_view type;
  int parent_block_owner = -1;  // index of the compound statement whose block holds this one, -1 at module level
  int function = -1;
  int loop = -1;         // innermost enclosing loop
  uint32_t indent = 0;   // column (bytes) where it starts
  bool is_exit = false;  // return / break / continue / raise
  // The block (or the module) that directly holds the statement, and the node
  // type that owns that block: "module", "if_statement", "else_clause",
  // "try_statement" (the try body), "except_clause", "finally_clause",
  // "for_statement", "with_statement", "function_definition", ...
  ByteRange block;
  std::string_view block_clause;  // a static name too
};

struct Assignment {
  std::string target;   // source text of the left side
  std::string value;    // source text of the right side
  int value_call = -1;  // index into calls when the right side is a call
  ByteRange range;
  int function = -1;
  int loop = -1;
  // Tuple unpacking (`a, b = f()`, `g, d = G(), D()`): the element targets,
  // and for a tuple on the right its element texts and calls (-1 when not a call).
  // For a plain assignment: targets = {target}, values = {value}, value_calls = {value_call}.
  std::vector<std::string> targets;
  std::vector<std::string> values;
  std::vector<int> value_calls;
  int statement = -1;  // index into statements
};

// `return <value>` inside a def.
struct Return {
  int statement = -1;
  int function = -1;
  std::string value;    // empty for a bare return
  int value_call = -1;  // index into calls when the value is a call
};

// `with a(), b as c:` — the context managers and the block they guard.
struct WithBlock {
  ByteRange range;
  ByteRange body;
  std::vector<std::string> items;  // source text of each context expression ("torch.no_grad()")
  int function = -1;
  int parent = -1;  // enclosing with statement in the same def
};

struct SyntaxError {
  ByteRange range;
  bool missing = false;  // a MISSING node (e.g. ')'), else an ERROR node
  std::string expected;  // for missing nodes: what was expected
};

// ----- Derived facts (computed from the raw ones above, see derive_*.cpp) -----

enum class MsprobeKind { Import, SeedAll, Construct, Start, Stop, Step, ForwardBackwardDumpEnd, Other };
const char* to_string(MsprobeKind k);

// One use of msProbe's API.
struct MsprobeUse {
  MsprobeKind kind = MsprobeKind::Other;
  ByteRange range;  // the call (or the import statement)
  uint32_t line = 0;
  int call = -1;            // index into FileFacts::calls (-1 for imports)
  int import = -1;          // index into FileFacts::imports
  std::string receiver;     // "debugger" in debugger.start(); "PrecisionDebugger" for classmethod use
  std::string bound_to;     // for Construct: the name it is assigned to ("debugger", "self.debugger")
  std::string framework;    // "pytorch" or "mindspore" (from the import path)
  std::string method;       // the called name: "start", "forward_backward_dump_end", "save", "PrecisionDebugger", ...
  std::string config_path;  // Construct: source text of the config_path argument (first positional or keyword)
  ByteRange config_path_range;
  std::string model_arg;  // Start: source text of the model argument, empty when none
  int function = -1;      // enclosing def
  int loop = -1;          // innermost enclosing loop
};

enum class Scenario { PytorchEager, MindSpore, MSAdapter, Torchair, Aclgraph, Verl, VllmRunner, VllmOffline, Monitor };
const char* to_string(Scenario s);

struct ScenarioMarker {
  Scenario scenario = Scenario::PytorchEager;
  ByteRange range;
  uint32_t line = 0;
  std::string evidence;  // "import mindspore", "torchair.get_npu_backend(...)"
};

enum class LoopRole { None, Train, Eval, Inference, Warmup };
const char* to_string(LoopRole r);

// A loop's place in the script: what it runs per iteration.
struct LoopInfo {
  int loop = -1;  // index into FileFacts::loops
  LoopRole role = LoopRole::None;
  std::string model;               // expression called for the forward ("model", "self.model", "engine")
  int epoch_loop = -1;             // enclosing loop over epochs, if any
  std::vector<ByteRange> forward;  // sites in the body (a helper's call site when it happens in a helper)
  std::vector<ByteRange> backward;
  std::vector<ByteRange> step;  // optimizer steps
  // Every distinct model expression called for a forward, in source order
  // (GANs: {"netG", "netD"}); `model` is the first.
  std::vector<std::string> models;
  // Train loops: the models an optimizer of the file trains and whose forward
  // runs with grad, in `models` order (they come first there). A GAN trains
  // two: start() gets both.
  std::vector<std::string> trained;
  int function = -1;        // enclosing def of the loop
  bool generation = false;  // forward through `.generate(...)` (LLM/HF generation)
  bool no_grad = false;     // under torch.no_grad()/inference_mode() (with block or decorator)
  std::string reason;       // one line on why the role was given
  // `model` is an nn.Module that start(model=...) accepts; false for a vLLM
  // LLM object (start() without a model, or the runner's module) and when
  // there is no eager model (a graph replay).
  bool model_is_module = true;
  // The forward is a call the model is handed to (an imported helper such as
  // compute_loss(model, batch)), not a call of the model itself.
  bool forward_through_call = false;
};

// Where each top-level statement's facts lie in FileFacts' vectors, so the
// facts of the statements an edit did not touch can be reused (facts_builder.cpp).
struct FactChunks;

struct FileFacts {
  std::vector<Import> imports;
  std::vector<Call> calls;
  std::vector<NameUse> name_uses;
  std::vector<Decorator> decorators;
  std::vector<Comment> comments;
  std::vector<Function> functions;
  std::vector<ClassDef> classes;
  std::vector<Loop> loops;
  std::vector<Statement> statements;
  std::vector<Assignment> assignments;
  std::vector<WithBlock> with_blocks;
  std::vector<SyntaxError> syntax_errors;
  std::vector<Return> returns;
  // local name -> qualified target, from imports anywhere in the file
  std::map<std::string, std::string, std::less<>> aliases;  // looked up by string_view too
  std::vector<MsprobeUse> msprobe;
  std::vector<ScenarioMarker> scenario_markers;
  std::vector<Scenario> scenarios;  // distinct, in enum order; PytorchEager when plain torch
  std::vector<LoopInfo> loop_info;  // one per loop with a role, in source order

  ByteRange module_docstring;  // empty range when absent
  bool has_docstring = false;
  int main_guard = -1;  // statement index of `if __name__ == "__main__":`

  // Set when the tree had no syntax error: what a later build after an edit
  // may reuse. Null otherwise.
  std::shared_ptr<const FactChunks> chunks;

  // Resolves a dotted expression through the import aliases; empty if its
  // root name is not bound by an import.
  std::string qualify(const std::string& dotted) const;

  // For facts kept a while and not edited again (`check` keeps a project's
  // facts until every summary is known): drops `chunks` and gives back the
  // room the lists grew into. Every fact stays as it was.
  void shrink_to_fit();
};

// Statement `i` of `f` (an index the facts hold, never -1).
inline const Statement& stmt(const FileFacts& f, int i) { return f.statements[static_cast<std::size_t>(i)]; }

// Every fact as canonical text, one per line: equal facts, equal dumps.
std::string dump_facts(const FileFacts& facts);

// The facts an edit started from, and their text: the facts of the top-level
// statements the edit did not touch are reused, not rebuilt.
struct ModuleSummary;

struct PreviousFacts {
  const FileFacts* facts = nullptr;
  std::string_view text;
  // The module summary built over `facts`, if any: in a project, the call
  // effects of statements the edit left alone are taken from it.
  const ModuleSummary* summary = nullptr;
  // A copy of `*facts` that this build may take apart: the entries of the
  // statements it reuses are moved out of it instead of copied from `facts`
  // (analyze() makes the copy on the second core while the edit is reparsed).
  // Its chunks must be those of `facts`; null: copy from `facts`.
  FileFacts* donor = nullptr;
};

}  // namespace msprobe::analysis
