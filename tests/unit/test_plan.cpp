// DumpPlan must be exact: the code actions insert text at its lines and
// offsets. Lines here are 0-based, as in the plan.
#include <catch2/catch.hpp>

#include "facts_builder.h"
#include "msprobe/analysis/plan.h"
#include "msprobe/analysis/syntax.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;

namespace {

struct Planned {
  SourceText src;
  FileFacts facts;
  std::optional<DumpPlan> plan;
};

Planned plan_of(const std::string& code, std::optional<uint32_t> loop_line = std::nullopt) {
  Planned p{SourceText(code), {}, std::nullopt};
  test_support::UnboundedParser parser;
  TreePtr tree = parser.parse(code);
  REQUIRE(tree);
  p.facts = build_facts(tree, code);
  p.plan = plan_dump(p.src, p.facts, loop_line);
  return p;
}

const char* kLoop =
    "model = torch.nn.Linear(4, 4)\n"
    "opt = torch.optim.SGD(model.parameters())\n"
    "for x in data:\n"
    "    model(x).sum().backward()\n"
    "    opt.step()\n";

// Text from the plan's import offset to the end of that line.
std::string line_at(const SourceText& src, uint32_t offset) { return std::string(src.line_text(src.line_of(offset))); }

}  // namespace

TEST_CASE("the import block ends after multi-line imports and try/except import blocks") {
  auto p = plan_of(std::string("import torch\n"
                               "from torch.utils.data import (\n"
                               "    DataLoader,\n"
                               ")\n"
                               "try:\n"
                               "    import wandb\n"
                               "except ImportError:\n"
                               "    wandb = None\n") +
                   kLoop);
  REQUIRE(p.plan);
  CHECK(p.plan->import_after_line == 7);
  CHECK(p.plan->import_offset == p.src.line_start(8));
  CHECK(line_at(p.src, p.plan->import_offset) == "model = torch.nn.Linear(4, 4)");
}

TEST_CASE("the import block never goes before the docstring or __future__ imports") {
  auto docstring_only = plan_of(std::string("\"\"\"Train.\n\nMore.\n\"\"\"\n") + "import torch\n" + kLoop);
  REQUIRE(docstring_only.plan);
  CHECK(docstring_only.plan->import_after_line == 4);

  auto future = plan_of(std::string("#!/usr/bin/env python\n\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n") +
                        kLoop);
  REQUIRE(future.plan);
  CHECK(future.plan->import_after_line == 2);

  // No import at all: after the docstring.
  auto bare = plan_of(std::string("\"\"\"Doc.\"\"\"\n") + kLoop);
  REQUIRE(bare.plan);
  CHECK(bare.plan->import_after_stmt >= 0);
  CHECK(bare.plan->import_after_line == 0);
  CHECK(bare.plan->import_offset == bare.src.line_start(1));

  // Nothing but a shebang and a coding line: the top, below them.
  auto top = plan_of(std::string("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n") + kLoop);
  REQUIRE(top.plan);
  CHECK(top.plan->import_after_stmt == -1);
  CHECK(top.plan->import_offset == top.src.line_start(2));
}

TEST_CASE("imports under __main__, in defs and in classes do not move the import block") {
  auto p = plan_of(std::string("import torch\n") + kLoop +
                   "def later():\n"
                   "    import numpy\n"
                   "class A:\n"
                   "    import os\n"
                   "if __name__ == '__main__':\n"
                   "    import sys\n");
  REQUIRE(p.plan);
  CHECK(p.plan->import_after_line == 0);
}

TEST_CASE("start and stop/step go around the whole body; offsets are line starts") {
  auto p = plan_of(std::string("import torch\n") +
                   "model = torch.nn.Linear(4, 4)\n"
                   "opt = torch.optim.SGD(model.parameters())\n"
                   "for x in data:\n"          // 3
                   "    # fetch\n"             // 4
                   "    y = model(\n"          // 5
                   "        x)\n"              // 6
                   "    y.sum().backward()\n"  // 7
                   "    opt.step()\n"          // 8
                   "    log(y,\n"              // 9
                   "        1)  # done\n"      // 10
                   "    # trailing comment\n"  // 11
                   "print('end')");            // 12, no newline at the end
  REQUIRE(p.plan);
  CHECK(p.plan->start_before_line == 5);
  CHECK(p.plan->stop_step_after_line == 10);
  CHECK(p.plan->start_offset == p.src.line_start(5));
  CHECK(p.plan->stop_step_offset == p.src.line_start(11));
  CHECK(p.plan->body_indent == "    ");
  CHECK_FALSE(p.plan->body_on_header_line);

  auto eof = plan_of(std::string("import torch\n") + std::string(kLoop).substr(0, std::string(kLoop).size() - 1));
  REQUIRE(eof.plan);
  CHECK(eof.plan->stop_step_offset == eof.src.size());
}

TEST_CASE("tabs, CRLF and a body on the header line") {
  auto tabs = plan_of("import torch\nfor x in data:\n\tmodel(x).sum().backward()\n\topt.step()\n");
  REQUIRE(tabs.plan);
  CHECK(tabs.plan->body_indent == "\t");

  auto crlf = plan_of("import torch\r\nfor x in data:\r\n    model(x).sum().backward()\r\n    opt.step()\r\nend()\r\n");
  REQUIRE(crlf.plan);
  CHECK(crlf.plan->import_offset == 14);
  CHECK(crlf.plan->start_offset == crlf.src.line_start(2));
  CHECK(crlf.plan->stop_step_offset == crlf.src.line_start(4));

  auto inline_body = plan_of("import torch\n    \nfor x in data: model(x).sum().backward(); opt.step()\n");
  REQUIRE(inline_body.plan);
  CHECK(inline_body.plan->body_on_header_line);
  CHECK(inline_body.plan->body_indent == "    ");
}

TEST_CASE("early exits: this loop's continue/break, any return, never a nested def's") {
  auto p = plan_of(std::string("import torch\n") +
                   "def train(model, opt):\n"             // 1
                   "    for x in data:\n"                 // 2
                   "        x = x.float()\n"              // 3  (so the `if` below is no leading guard)
                   "        if skip(x): continue\n"       // 4
                   "        for y in x:\n"                // 5
                   "            if y is None:\n"          // 6
                   "                break\n"              // 7  inner loop's break
                   "            if y == 0:\n"             // 8
                   "                return\n"             // 9  leaves the iteration too
                   "        def closure():\n"             // 10
                   "            return model(x)\n"        // 11 a nested def's return
                   "        model(x).sum().backward()\n"  // 12
                   "        opt.step()\n"                 // 13
                   "        if done():\n"                 // 14
                   "            break\n"                  // 15
                   "        raise_if_nan()\n");           // 16
  REQUIRE(p.plan);
  std::vector<std::pair<uint32_t, std::string>> exits;
  for (const EarlyExit& e : p.plan->exits) exits.emplace_back(e.line, e.kind);
  CHECK(exits == std::vector<std::pair<uint32_t, std::string>>{{4, "continue"}, {9, "return"}, {15, "break"}});
  REQUIRE(p.plan->exits.size() == 3);
  CHECK(p.plan->exits[0].shares_line);
  CHECK(p.plan->exits[0].indent == "        ");
  CHECK_FALSE(p.plan->exits[2].shares_line);
  CHECK(p.plan->exits[2].indent == "            ");
  CHECK(p.plan->exits[2].offset == p.src.line_start(15));
  CHECK(p.plan->early_exits.size() == 3);
}

TEST_CASE("leading guards stay before start(), and their exits need no stop/step") {
  auto p = plan_of(std::string("import torch\n") +
                   "for step, x in enumerate(data):\n"  // 1
                   "    if step < resume_step:\n"       // 2  a guard
                   "        continue\n"                 // 3
                   "    if step >= max_steps:\n"        // 4  a guard, with a print
                   "        print('done')\n"            // 5
                   "        break\n"                    // 6
                   "    if x is None: continue\n"       // 7  still a guard
                   "    loss = model(x)\n"              // 8
                   "    loss.backward()\n"              // 9
                   "    opt.step()\n"                   // 10
                   "    if step % 10 == 0:\n"           // 11 after the work: an exit of the iteration
                   "        continue\n");               // 12
  REQUIRE(p.plan);
  CHECK(p.plan->start_before_line == 8);
  std::vector<uint32_t> lines;
  for (const EarlyExit& e : p.plan->exits) lines.push_back(e.line);
  CHECK(lines == std::vector<uint32_t>{12});

  // An `if` that does model work, or that is all the body holds, is no guard.
  auto q = plan_of(std::string("import torch\n") +
                   "for x in data:\n"                     // 1
                   "    if x is None:\n"                  // 2
                   "        model(x).sum().backward()\n"  // 3
                   "        continue\n"                   // 4
                   "    loss = model(x)\n"                // 5
                   "    loss.backward()\n"                // 6
                   "    opt.step()\n");                   // 7
  REQUIRE(q.plan);
  CHECK(q.plan->start_before_line == 2);
}

TEST_CASE("the import header ends at the first statement that is not an import or set-up") {
  auto p = plan_of(std::string("\"\"\"Doc.\"\"\"\n") +  // 0
                   "import os, sys\n"                   // 1
                   "sys.path.insert(0, os.getcwd())\n"  // 2  set-up between imports
                   "try:\n"                             // 3
                   "    import apex\n"                  // 4
                   "except ImportError:\n"              // 5
                   "    apex = None\n"                  // 6
                   "import torch\n"                     // 7
                   "os.environ['X'] = '1'\n"            // 8  set-up after the last import
                   "log = True\n"                       // 9  the header ends here
                   "if log:\n"                          // 10
                   "    import wandb\n"                 // 11 a conditional import further down
                   "for x in data:\n"                   // 12
                   "    loss = model(x)\n"              // 13
                   "    loss.backward()\n"              // 14
                   "    opt.step()\n"                   // 15
                   "import numpy\n");                   // 16 after code: not the header
  REQUIRE(p.plan);
  REQUIRE(p.plan->import_after_stmt >= 0);
  CHECK(p.plan->import_after_line == 7);
}

TEST_CASE("what the file already has is reported, so nothing is inserted twice") {
  auto p = plan_of(
      "import torch\n"
      "from msprobe.pytorch import PrecisionDebugger, seed_all\n"
      "class Runner:\n"
      "    def __init__(self):\n"
      "        self.debugger = PrecisionDebugger(config_path='./c.json')\n"
      "    def run(self, model, opt):\n"
      "        for x in data:\n"
      "            self.debugger.start(model)\n"
      "            model(x).sum().backward()\n"
      "            opt.step()\n"
      "            self.debugger.stop()\n");
  REQUIRE(p.plan);
  CHECK(p.plan->has_import);
  CHECK_FALSE(p.plan->has_seed_all);
  CHECK(p.plan->has_construct);
  CHECK(p.plan->has_start);
  CHECK(p.plan->has_stop);
  CHECK_FALSE(p.plan->has_step);
  CHECK(p.plan->debugger_name == "self.debugger");
  CHECK(p.plan->existing.size() == 4);  // import, construct, start, stop
  CHECK(p.plan->needed());

  // The classmethods through the class, with the debugger built in another file.
  auto cls = plan_of(
      "import torch\n"
      "from msprobe.pytorch import PrecisionDebugger\n"
      "for x in data:\n"
      "    PrecisionDebugger.start()\n"
      "    model(x).sum().backward()\n"
      "    opt.step()\n"
      "    PrecisionDebugger.stop()\n"
      "    PrecisionDebugger.step()\n");
  REQUIRE(cls.plan);
  CHECK(cls.plan->debugger_name == "PrecisionDebugger");
  CHECK_FALSE(cls.plan->needed());
}

TEST_CASE("offline vLLM: the debugger is built after LLM(...)") {
  auto p = plan_of(
      "from vllm import LLM\n"
      "def main():\n"
      "    llm = LLM(model='m',\n"
      "              enforce_eager=True)\n"
      "    for batch in batches:\n"
      "        outs = llm.generate(batch)\n");
  REQUIRE(p.plan);
  CHECK(p.plan->role == LoopRole::Inference);
  CHECK(p.plan->model.empty());  // an LLM object is not an nn.Module: start() takes no model
  CHECK(p.facts.loop_info[0].model == "llm");
  CHECK(p.plan->construct_after_line == 3);
  CHECK(p.plan->construct_indent == "    ");
  CHECK(p.plan->construct_offset == p.src.line_start(4));
}

TEST_CASE("scenarios the PyTorch dump does not cover need no insertion") {
  auto p = plan_of(std::string("import mindspore\nimport torch\n") + kLoop);
  REQUIRE(p.plan);
  CHECK_FALSE(p.plan->scenario_supported);
  CHECK_FALSE(p.plan->needed());
}

TEST_CASE("a chosen line plans that loop; no loop, no plan") {
  std::string code = std::string("import torch\n") + kLoop +
                     "with torch.no_grad():\n    for x in val:\n        model(x)\n";
  auto chosen = plan_of(code, 7);
  REQUIRE(chosen.plan);
  CHECK(chosen.plan->role == LoopRole::Eval);
  CHECK_FALSE(plan_of(code, 1).plan);
  CHECK_FALSE(plan_of("import torch\nx = 1\n").plan);
}

TEST_CASE("vLLM model runner anchors") {
  SourceText src(
      std::string("import torch\n"
                  "class GPUModelRunner:\n"         // 1
                  "    def __init__(self, cfg):\n"  // 2
                  "        \"\"\"Doc.\"\"\"\n"      // 3
                  "        self.cfg = cfg\n"        // 4
                  "    def load_model(self):\n"
                  "        self.model = get_model(self.cfg)\n"  // 6
                  "    @torch.inference_mode()\n"
                  "    def execute_model(self, out):\n"  // 8
                  "        if not out:\n"                // 9
                  "            return None\n"            // 10
                  "        def helper():\n"
                  "            return 1\n"                  // 12: not execute_model's
                  "        hidden = self.model(out.ids)\n"  // 13
                  "        return hidden\n"));              // 14
  test_support::UnboundedParser parser;
  TreePtr tree = parser.parse(src.view());
  FileFacts f = build_facts(tree, src.view());
  auto r = plan_runner(src, f);
  REQUIRE(r);
  CHECK(r->class_line == 1);
  CHECK(r->init_line == 2);
  CHECK(r->init_body_first_line == 4);
  CHECK(r->init_indent == "        ");
  CHECK(r->execute_line == 8);
  CHECK(r->execute_body_first_line == 9);
  CHECK(r->execute_body_last_line == 14);
  CHECK(r->return_lines == std::vector<uint32_t>{10, 14});
  CHECK(r->model == "self.model");
  CHECK(r->forward_lines == std::vector<uint32_t>{13});
}
