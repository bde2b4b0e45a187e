// The raw facts of the single tree pass: imports and aliases, qualified
// calls, docstring, __main__ guard, defs, classes, assignments, returns.
#include <catch2/catch.hpp>

#include "bindings.h"
#include "facts_builder.h"
#include "msprobe/analysis/syntax.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;

namespace {

FileFacts facts_of(const std::string& code) {
  test_support::UnboundedParser parser;
  TreePtr tree = parser.parse(code);
  REQUIRE(tree);
  return build_facts(tree, code);
}

const Call* call(const FileFacts& f, const std::string& callee) {
  for (const Call& c : f.calls) {
    if (c.callee == callee) return &c;
  }
  return nullptr;
}

const Function* function(const FileFacts& f, const std::string& name) {
  for (const Function& fn : f.functions) {
    if (fn.name == name) return &fn;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("imports: aliases, from-imports, conditional blocks, relative and future imports") {
  FileFacts f = facts_of(
      "\"\"\"Doc.\"\"\"\n"
      "from __future__ import annotations\n"
      "import torch.nn.functional as F\n"
      "import os.path\n"
      "from torch import compile as tc, nn\n"
      "from . import local\n"
      "try:\n"
      "    import torch_npu\n"
      "except ImportError:\n"
      "    torch_npu = None\n"
      "if os.environ.get('X'):\n"
      "    from msprobe.pytorch import PrecisionDebugger as PD\n"
      "def f():\n"
      "    import numpy as np\n");
  CHECK(f.has_docstring);
  CHECK(f.aliases.at("F") == "torch.nn.functional");
  CHECK(f.aliases.at("os") == "os");
  CHECK(f.aliases.at("tc") == "torch.compile");
  CHECK(f.aliases.at("nn") == "torch.nn");
  CHECK(f.aliases.at("PD") == "msprobe.pytorch.PrecisionDebugger");
  CHECK(f.aliases.at("np") == "numpy");
  CHECK(f.aliases.count("local") == 0);  // relative: no qualified target
  bool future = false, npu_conditional = false, pd_conditional = false, np_top = true;
  for (const Import& i : f.imports) {
    if (i.is_future) future = true;
    if (i.bound == "torch_npu") npu_conditional = i.conditional && i.top_level;
    if (i.bound == "PD") pd_conditional = i.conditional;
    if (i.bound == "np") np_top = i.top_level;
  }
  CHECK(future);
  CHECK(npu_conditional);
  CHECK(pd_conditional);
  CHECK_FALSE(np_top);
  CHECK(f.qualify("F.relu") == "torch.nn.functional.relu");
  CHECK(f.qualify("model.forward").empty());
}

TEST_CASE("calls are qualified through aliases, also when the import comes later") {
  FileFacts f = facts_of(
      "def build(m):\n"
      "    return tc(m, mode='max-autotune')\n"
      "from torch import compile as tc\n"
      "import torch._dynamo as dynamo\n"
      "dynamo.reset()\n"
      "model(x)\n");
  REQUIRE(call(f, "tc"));
  CHECK(call(f, "tc")->qualified == "torch.compile");
  CHECK(call(f, "tc")->args.size() == 2);
  CHECK(call(f, "tc")->args[1].keyword == "mode");
  CHECK(call(f, "dynamo.reset")->qualified == "torch._dynamo.reset");
  CHECK(call(f, "model")->qualified.empty());
  CHECK(call(f, "tc")->function == 0);
}

TEST_CASE("the __main__ guard, defs, methods, nested defs and classes") {
  FileFacts f = facts_of(
      "import torch.nn as nn\n"
      "class Net(nn.Module, metaclass=Meta):\n"
      "    def __init__(self, dim: int = 4, *layers, **kw):\n"
      "        super().__init__()\n"
      "    @property\n"
      "    def size(self):\n"
      "        return 1\n"
      "def main(cfg, model=None):\n"
      "    def closure(x):\n"
      "        return model(x)\n"
      "    return closure\n"
      "if '__main__' == __name__:\n"
      "    main(None)\n");
  REQUIRE(f.classes.size() == 1);
  CHECK(f.classes[0].bases == std::vector<std::string>{"nn.Module"});
  const Function* init = function(f, "__init__");
  REQUIRE(init);
  CHECK(init->class_name == "Net");
  CHECK(init->class_index == 0);
  CHECK(init->params == std::vector<std::string>{"self", "dim"});
  const Function* size = function(f, "size");
  REQUIRE(size);
  CHECK(size->class_index == 0);
  CHECK(f.statements[static_cast<std::size_t>(size->statement)].type == "function_definition");
  const Function* closure = function(f, "closure");
  REQUIRE(closure);
  CHECK(f.functions[static_cast<std::size_t>(closure->parent)].name == "main");
  CHECK(closure->class_index == -1);
  CHECK(function(f, "main")->params == std::vector<std::string>{"cfg", "model"});
  REQUIRE(f.main_guard >= 0);
  CHECK(f.statements[static_cast<std::size_t>(f.main_guard)].line == 11);
  int returns_of_main = 0;
  for (const Return& r : f.returns) {
    if (r.function >= 0 && f.functions[static_cast<std::size_t>(r.function)].name == "main") {
      ++returns_of_main;
      CHECK(r.value == "closure");
    }
  }
  CHECK(returns_of_main == 1);
}

TEST_CASE("tuple assignments keep each element and its call") {
  FileFacts f = facts_of(
      "netG, netD = Generator(), Discriminator()\n"
      "engine, opt, _, _ = deepspeed.initialize(model=m)\n"
      "(batch,) = next(it)\n"
      "self.model: nn.Module = None\n");
  REQUIRE(f.assignments.size() == 4);
  const Assignment& gan = f.assignments[0];
  CHECK(gan.targets == std::vector<std::string>{"netG", "netD"});
  REQUIRE(gan.value_calls.size() == 2);
  CHECK(f.calls[static_cast<std::size_t>(gan.value_calls[0])].callee == "Generator");
  CHECK(f.calls[static_cast<std::size_t>(gan.value_calls[1])].callee == "Discriminator");
  CHECK(gan.value_call == -1);
  const Assignment& ds = f.assignments[1];
  CHECK(ds.targets.size() == 4);
  CHECK(f.calls[static_cast<std::size_t>(ds.value_call)].callee == "deepspeed.initialize");
  CHECK(f.assignments[2].targets == std::vector<std::string>{"batch"});
  CHECK(f.assignments[3].target == "self.model");
  CHECK(f.assignments[3].value == "None");
}

TEST_CASE("loops know their statement, body bounds, nesting and with blocks") {
  FileFacts f = facts_of(
      "with torch.no_grad():\n"
      "    for x in data:\n"
      "        y = 1\n"
      "        while y:\n"
      "            y -= 1\n"
      "    else:\n"
      "        done()\n");
  REQUIRE(f.loops.size() == 2);
  const Loop& outer = f.loops[0];
  CHECK(f.statements[static_cast<std::size_t>(outer.statement)].type == "for_statement");
  CHECK(f.statements[outer.body_first_stmt].line == 2);
  CHECK(f.statements[outer.body_last_stmt].line == 3);  // the while, not the else block
  CHECK(outer.has_else);
  CHECK(outer.with_block == 0);
  CHECK(f.with_blocks[0].items == std::vector<std::string>{"torch.no_grad()"});
  CHECK(f.loops[1].parent == 0);
}

TEST_CASE("assignments by target: per def and at module level, each in the order of the file", "[facts]") {
  const std::string code =
      "params = list(model.parameters())\n"
      "a, params = 1, 2\n"
      "def build(model):\n"
      "    params = model.parameters()\n"
      "    other = 3\n"
      "    params = [p for p in params]\n"
      "    return params\n"
      "def empty():\n"
      "    pass\n"
      "params += extra\n";
  FileFacts f = facts_of(code);
  const Function* build = function(f, "build");
  REQUIRE(build != nullptr);
  const int build_index = static_cast<int>(build - f.functions.data());
  AssignmentsByTarget by_target(f);
  auto refs = [&](std::string_view name, int fn) {
    std::vector<std::pair<std::string, int>> out;  // the assignment's text and the element's index
    for (const AssignmentsByTarget::Entry& e : by_target.of(name, fn)) {
      CHECK(e.target == name);
      const Assignment& a = f.assignments[static_cast<std::size_t>(e.ref.assignment)];
      out.emplace_back(std::string(code.substr(a.range.start, a.range.end - a.range.start)), e.ref.element);
    }
    return out;
  };
  using Refs = std::vector<std::pair<std::string, int>>;
  CHECK(refs("params", -1) ==
        Refs{{"params = list(model.parameters())", 0}, {"a, params = 1, 2", 1}, {"params += extra", 0}});
  CHECK(refs("params", build_index) == Refs{{"params = model.parameters()", 0}, {"params = [p for p in params]", 0}});
  CHECK(refs("other", build_index) == Refs{{"other = 3", 0}});
  CHECK(refs("other", -1).empty());
  CHECK(refs("a", -1) == Refs{{"a, params = 1, 2", 0}});
  CHECK(refs("missing", -1).empty());
  CHECK(refs("params", static_cast<int>(function(f, "empty") - f.functions.data())).empty());
}
