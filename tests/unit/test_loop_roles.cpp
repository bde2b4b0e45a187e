// Loop roles on the shapes of issue #3 that the corpus does not cover one by
// one: each snippet is summarised as "line:role(model) f=forward lines
// b=backward s=step e=epoch loop", all 1-based, one loop per entry.
#include <catch2/catch.hpp>

#include <sstream>

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

std::string lines(const SourceText& src, const std::vector<ByteRange>& ranges) {
  std::ostringstream s;
  uint32_t prev = 0;
  bool first = true;
  for (const ByteRange& r : ranges) {
    uint32_t l = src.line_of(r.start) + 1;
    if (!first && l == prev) continue;
    s << (first ? "" : ",") << l;
    prev = l;
    first = false;
  }
  return s.str();
}

std::string roles(const std::string& code) {
  FileFacts f = facts_of(code);
  SourceText src(code);
  std::ostringstream s;
  for (const LoopInfo& info : f.loop_info) {
    const Loop& l = f.loops[static_cast<std::size_t>(info.loop)];
    if (s.tellp() > 0) s << " | ";
    s << l.line + 1 << ":" << to_string(info.role) << "(" << info.model << ")";
    if (!info.forward.empty()) s << " f=" << lines(src, info.forward);
    if (!info.backward.empty()) s << " b=" << lines(src, info.backward);
    if (!info.step.empty()) s << " s=" << lines(src, info.step);
    if (info.epoch_loop >= 0) s << " e=" << f.loops[static_cast<std::size_t>(info.epoch_loop)].line + 1;
  }
  return s.str();
}

const char* kHeader =
    "import torch\n"                                        // 1
    "import torch.nn as nn\n"                               // 2
    "model = nn.Linear(4, 4)\n"                             // 3
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n";  // 4

}  // namespace

TEST_CASE("for, while True and itertools.count train loops") {
  CHECK(roles(std::string(kHeader) + "for x in data:\n"             // 5
                                     "    loss = model(x).sum()\n"  // 6
                                     "    loss.backward()\n"        // 7
                                     "    opt.step()\n") ==         // 8
        "5:train(model) f=6 b=7 s=8");
  CHECK(roles(std::string(kHeader) + "while True:\n"  // 5
                                     "    loss = model(next(it)).sum()\n"
                                     "    loss.backward()\n"
                                     "    opt.step()\n"
                                     "    if done():\n"
                                     "        break\n") == "5:train(model) f=6 b=7 s=8");
  CHECK(roles(std::string(kHeader) + "import itertools\n"                // 5
                                     "for step in itertools.count():\n"  // 6
                                     "    model(x).sum().backward()\n"   // 7
                                     "    opt.step()\n") == "6:train(model) f=7 b=7 s=8");
}

TEST_CASE("nested epoch loops and gradient accumulation") {
  CHECK(roles(std::string(kHeader) + "for epoch in range(3):\n"             // 5
                                     "    for x in data:\n"                 // 6
                                     "        model(x).sum().backward()\n"  // 7
                                     "        opt.step()\n"                 // 8
                                     "    for x in val:\n"                  // 9
                                     "        with torch.no_grad():\n"      // 10
                                     "            model(x)\n") ==           // 11
        "6:train(model) f=7 b=7 s=8 e=5 | 9:eval(model) f=11 e=5");
  // Inner micro-batch loop: backward only; the outer loop steps.
  CHECK(roles(std::string(kHeader) + "for group in groups:\n"               // 5
                                     "    for x in group:\n"                // 6
                                     "        model(x).sum().backward()\n"  // 7
                                     "    opt.step()\n") == "5:train(model) f=7 b=7 s=8");
}

TEST_CASE("helpers, closures and methods called from the loop") {
  CHECK(roles(std::string(kHeader) + "def train_step(net, batch):\n"      // 5
                                     "    net(batch).sum().backward()\n"  // 6
                                     "    opt.step()\n"                   // 7
                                     "for b in data:\n"                   // 8
                                     "    train_step(model, b)\n") == "8:train(model) f=9 b=9 s=9");
  CHECK(roles(std::string(kHeader) + "def outer():\n"                   // 5
                                     "    def closure():\n"             // 6
                                     "        loss = model(x).sum()\n"  // 7
                                     "        loss.backward()\n"        // 8
                                     "        return loss\n"            // 9
                                     "    for i in range(3):\n"         // 10
                                     "        opt.step(closure)\n") == "10:train(model) f=11 b=11 s=11");
  CHECK(roles("import torch\n"
              "class Trainer:\n"                                                 // 2
              "    def __init__(self, model):\n"                                 // 3
              "        self.model = model\n"                                     // 4
              "        self.optimizer = torch.optim.Adam(model.parameters())\n"  // 5
              "    def step(self, x):\n"                                         // 6
              "        self.model(x).sum().backward()\n"                         // 7
              "        self.optimizer.step()\n"                                  // 8
              "    def fit(self, data):\n"                                       // 9
              "        for x in data:\n"                                         // 10
              "            self.step(x)\n") == "10:train(self.model) f=11 b=11 s=11");
}

TEST_CASE("AMP, Accelerate and DeepSpeed idioms") {
  CHECK(roles(std::string(kHeader) + "scaler = torch.cuda.amp.GradScaler()\n"  // 5
                                     "for x in data:\n"                        // 6
                                     "    with torch.autocast('cuda'):\n"      // 7
                                     "        loss = model(x).sum()\n"         // 8
                                     "    scaler.scale(loss).backward()\n"     // 9
                                     "    scaler.step(opt)\n"                  // 10
                                     "    scaler.update()\n") == "6:train(model) f=8 b=9 s=10");
  CHECK(roles("import deepspeed\n"
              "engine, optimizer, _, _ = deepspeed.initialize(model=net, model_parameters=p)\n"  // 2
              "for x in loader:\n"                                                               // 3
              "    loss = engine(x)\n"                                                           // 4
              "    engine.backward(loss)\n"                                                      // 5
              "    engine.step()\n") == "3:train(engine) f=4 b=5 s=6");
  CHECK(roles(std::string(kHeader) + "from accelerate import Accelerator\n"            // 5
                                     "accelerator = Accelerator()\n"                   // 6
                                     "model, opt = accelerator.prepare(model, opt)\n"  // 7
                                     "for x in data:\n"                                // 8
                                     "    accelerator.backward(model(x).sum())\n"      // 9
                                     "    opt.step()\n") == "8:train(model) f=9 b=9 s=10");
}

TEST_CASE("several optimizers, no optimizer, generation") {
  CHECK(roles("import torch\n"
              "G, D = make_g(), make_d()\n"
              "opt_g = torch.optim.Adam(G.parameters())\n"  // 3
              "opt_d = torch.optim.Adam(D.parameters())\n"  // 4
              "netG, netD = G, D\n"                         // 5
              "for x in data:\n"                            // 6
              "    netD(netG(z)).sum().backward()\n"        // 7
              "    opt_d.step()\n"                          // 8
              "    opt_g.step()\n") == "6:train(netD) f=7 b=7 s=8,9");
  CHECK(roles("import torch\n"
              "model = load()\n"
              "with torch.inference_mode():\n"  // 3
              "    for x in data:\n"            // 4
              "        y = model(x)\n") == "4:inference(model) f=5");
  CHECK(roles("from transformers import AutoModelForCausalLM\n"
              "lm = AutoModelForCausalLM.from_pretrained('gpt2')\n"
              "for prompt in prompts:\n"  // 3
              "    out = lm.generate(prompt)\n") == "3:inference(lm) f=4");
}

TEST_CASE("traps are not optimizer steps or forwards") {
  // env.step, scheduler.step, debugger.step; a loop inside nn.Module.forward.
  CHECK(roles(std::string(kHeader) + "import gym\n"                                       // 5
                                     "from msprobe.pytorch import PrecisionDebugger\n"    // 6
                                     "env = gym.make('CartPole-v1')\n"                    // 7
                                     "sched = torch.optim.lr_scheduler.StepLR(opt, 1)\n"  // 8
                                     "debugger = PrecisionDebugger()\n"                   // 9
                                     "for t in range(10):\n"                              // 10
                                     "    a = model(s)\n"                                 // 11
                                     "    s, r = env.step(a)\n"                           // 12
                                     "    sched.step()\n"                                 // 13
                                     "    debugger.step()\n") ==                          // 14
        "10:inference(model) f=11");
  CHECK(roles("import torch.nn as nn\n"
              "class Deep(nn.Module):\n"
              "    def forward(self, x):\n"
              "        for layer in self.layers:\n"
              "            x = layer(x)\n"
              "        return x\n"
              "def prefetch(loader, q):\n"
              "    for batch in loader:\n"
              "        q.put([t.to('cuda') for t in batch])\n") == "");
  // A variable named like an optimizer but holding a scheduler.
  CHECK(roles(std::string(kHeader) + "opt_sched = torch.optim.lr_scheduler.LambdaLR(opt, f)\n"  // 5
                                     "for x in data:\n"                                         // 6
                                     "    model(x).sum().backward()\n"                          // 7
                                     "    opt_sched.step()\n") == "");
}

TEST_CASE("epoch loop calling a train function is not listed") {
  CHECK(roles(std::string(kHeader) + "def train_one(loader):\n"             // 5
                                     "    for x in loader:\n"               // 6
                                     "        model(x).sum().backward()\n"  // 7
                                     "        opt.step()\n"                 // 8
                                     "for epoch in range(5):\n"             // 9
                                     "    train_one(data)\n"                // 10
                                     "    sched.step()\n") == "6:train(model) f=7 b=7 s=8");
}

TEST_CASE("warm-up loops need a real loop after them") {
  std::string warm = std::string(kHeader) +
                     "# warm up the allocator\n"        // 5
                     "for _ in range(3):\n"             // 6
                     "    model(x).sum().backward()\n"  // 7
                     "    opt.step()\n";                // 8
  CHECK(roles(warm) == "6:train(model) f=7 b=7 s=8");
  CHECK(roles(warm + "\nfor x in data:\n"  // 10
                     "    model(x).sum().backward()\n"
                     "    opt.step()\n") == "6:warmup(model) f=7 b=7 s=8 | 10:train(model) f=11 b=11 s=12");
  // A header that mentions warm-up steps, followed only by an eval loop: a train loop.
  CHECK(roles(std::string(kHeader) + "for step in range(warmup_steps + total_steps):\n"  // 5
                                     "    model(x).sum().backward()\n"                   // 6
                                     "    opt.step()\n"                                  // 7
                                     "with torch.no_grad():\n"                           // 8
                                     "    for x in val:\n"                               // 9
                                     "        model(x)\n") == "5:train(model) f=6 b=6 s=7 | 9:eval(model) f=10");
  // Unmarked: a few throw-away repetitions (`for _ in range(5)`) before the
  // generation loop are its warm-up, not the loop to dump.
  std::string runs = std::string(kHeader) +
                     "with torch.inference_mode():\n"           // 5
                     "    for _ in range(5):\n"                 // 6
                     "        model(x)\n"                       // 7
                     "    for prompt in prompts:\n"             // 8
                     "        out = model.generate(prompt)\n";  // 9
  CHECK(roles(runs) == "6:warmup(model) f=7 | 8:inference(model) f=9");
  // Alone, or with a large count, the same loop is the real one.
  CHECK(roles(std::string(kHeader) + "for _ in range(5):\n    model(x)\n") == "5:inference(model) f=6");
  CHECK(roles(std::string(kHeader) + "for _ in range(1000):\n    model(x).sum().backward()\n    opt.step()\n"
                                     "for x in data:\n    model(x).sum().backward()\n    opt.step()\n") ==
        "5:train(model) f=6 b=6 s=7 | 8:train(model) f=9 b=9 s=10");
}

TEST_CASE("a forward inside an imported helper: the model handed to it") {
  std::string code = std::string(kHeader) +
                     "from team_lib import compute_loss\n"      // 5
                     "for batch in data:\n"                     // 6
                     "    print(model)\n"                       // 7
                     "    loss = compute_loss(model, batch)\n"  // 8
                     "    loss.backward()\n"                    // 9
                     "    opt.step()\n";                        // 10
  CHECK(roles(code) == "6:train(model) f=8 b=9 s=10");
  // A model call of its own wins over a call it is handed to.
  CHECK(roles(std::string(kHeader) + "from team_lib import log_model\nfor x in data:\n    log_model(model)\n"
                                     "    model(x).sum().backward()\n    opt.step()\n") ==
        "6:train(model) f=8 b=8 s=9");
}
