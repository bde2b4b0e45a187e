// Cost of the engine on a large generated script: the tree-sitter parse alone
// versus the whole analysis (parse + facts + derived facts + plan + rules).
// The budget is "a few ms for 10k lines, facts at most ~1.5x the parse".
// The measurement is a hidden test ("[.bench]"): run it with
//   build/tests/unit_tests "[bench]" -s
// The visible test only guards against a quadratic blow-up.
#include <catch2/catch.hpp>

#include <algorithm>
#include <ctime>
#include <iostream>
#include <sstream>

#include "facts_builder.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/plan.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;

namespace {

// About `lines` lines of realistic training code: imports, module classes,
// helpers, train/eval loops with helpers, traps (scheduler.step, env.step).
std::string generated_script(int lines) {
  std::ostringstream s;
  s << "\"\"\"Generated benchmark script.\"\"\"\n"
       "import argparse\nimport logging\n\nimport torch\nimport torch.nn as nn\n"
       "import torch.nn.functional as F\nfrom torch.utils.data import DataLoader, TensorDataset\n\n"
       "logger = logging.getLogger(__name__)\n\n";
  int n = 0;
  int written = 11;
  while (written < lines) {
    s << "\n\nclass Block" << n << "(nn.Module):\n"
      << "    def __init__(self, dim=64):\n"
      << "        super().__init__()\n"
      << "        self.fc1 = nn.Linear(dim, 2 * dim)\n"
      << "        self.fc2 = nn.Linear(2 * dim, dim)\n"
      << "        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(3)])\n\n"
      << "    def forward(self, x):\n"
      << "        for layer in self.layers:\n"
      << "            x = x + F.relu(layer(x))\n"
      << "        return self.fc2(F.gelu(self.fc1(x)))\n\n\n"
      << "def train_step" << n << "(model, batch, optimizer, scheduler):\n"
      << "    x, y = batch\n"
      << "    optimizer.zero_grad()\n"
      << "    loss = F.mse_loss(model(x), y)\n"
      << "    loss.backward()\n"
      << "    optimizer.step()\n"
      << "    scheduler.step()\n"
      << "    return loss.item()\n\n\n"
      << "def evaluate" << n << "(model, loader):\n"
      << "    model.eval()\n"
      << "    total = 0.0\n"
      << "    with torch.no_grad():\n"
      << "        for x, y in loader:\n"
      << "            total += F.mse_loss(model(x), y).item()\n"
      << "    return total\n\n\n"
      << "def run" << n << "(epochs=2):\n"
      << "    data = TensorDataset(torch.randn(256, 64), torch.randn(256, 64))\n"
      << "    loader = DataLoader(data, batch_size=32, shuffle=True)\n"
      << "    model = Block" << n << "()\n"
      << "    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)\n"
      << "    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)\n"
      << "    for epoch in range(epochs):\n"
      << "        model.train()\n"
      << "        for i, batch in enumerate(loader):\n"
      << "            loss = train_step" << n << "(model, batch, optimizer, scheduler)\n"
      << "            if i % 10 == 0:\n"
      << "                logger.info(\"epoch %d step %d loss %.4f\", epoch, i, loss)\n"
      << "            if loss != loss:\n"
      << "                break\n"
      << "        for x, y in loader:\n"
      << "            out = model(x)\n"
      << "            err = F.l1_loss(out, y)\n"
      << "            err.backward()\n"
      << "            optimizer.step()\n"
      << "            optimizer.zero_grad()\n"
      << "        acc = evaluate" << n << "(model, loader)\n"
      << "        logger.info(\"epoch %d eval %.4f\", epoch, acc)\n"
      << "    return model\n";
    written += 54;
    ++n;
  }
  s << "\n\nif __name__ == \"__main__\":\n    run0()\n";
  return s.str();
}

// CPU time of this thread: the machine running the tests is often busy, and
// wall-clock time would measure the other jobs too.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

template <class F>
double median_ms(int reps, F&& fn) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    double a = thread_cpu_ms();
    fn();
    t.push_back(thread_cpu_ms() - a);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

TEST_CASE("engine timing on a 10k-line script", "[.bench]") {
  std::string text = generated_script(10000);
  SourceText src(text);
  test_support::UnboundedParser parser;
  TreePtr tree = parser.parse(src.view());
  REQUIRE(tree);
  double parse = median_ms(15, [&] { (void)parser.parse(src.view()); });
  double facts = median_ms(15, [&] { (void)build_facts(tree, src.view()); });
  FileFacts f = build_facts(tree, src.view());
  double plan = median_ms(15, [&] { (void)plan_dump(src, f); });
  AnalysisOptions options;
  double rules = median_ms(15, [&] { (void)check_facts(src, f, options); });
  double all = median_ms(15, [&] { (void)analyze(parser, src, options); });
  // The same file being edited: an unclosed bracket near the top (the repair reparses).
  std::string broken_text = text;
  broken_text.insert(broken_text.find("logger = "), "config = dict(lr=1e-3,\n");
  SourceText broken(broken_text);
  double repaired = median_ms(15, [&] { (void)analyze(parser, broken, options); });
  double broken_parse = median_ms(15, [&] { (void)parser.parse(broken.view()); });
  TreePtr broken_tree = parser.parse(broken.view());
  double broken_facts = median_ms(15, [&] { (void)build_facts(broken_tree, broken.view()); });
  std::cout << "lines " << src.line_count() << ", bytes " << src.size() << ", calls " << f.calls.size() << ", loops "
            << f.loops.size() << ", loop roles " << f.loop_info.size() << "\n"
            << "parse            " << parse << " ms\n"
            << "facts (derived)  " << facts << " ms (" << facts / parse << "x parse)\n"
            << "plan             " << plan << " ms\n"
            << "rules            " << rules << " ms\n"
            << "analyze (all)    " << all << " ms (" << all / parse << "x parse)\n"
            << "analyze, broken  " << repaired << " ms (unclosed bracket near the top, repaired; its parse alone "
            << broken_parse << " ms, facts of the unrepaired tree " << broken_facts << " ms)\n";
  SUCCEED();
}

TEST_CASE("facts stay linear in the size of the file") {
  // 4x the text must not cost 16x: a quadratic pass shows up here long before
  // it hurts a user. Generous factors keep the test stable on a loaded machine.
  std::string small = generated_script(2500), large = generated_script(10000);
  test_support::UnboundedParser parser;
  SourceText s1(small), s2(large);
  TreePtr t1 = parser.parse(s1.view()), t2 = parser.parse(s2.view());
  REQUIRE(t1);
  REQUIRE(t2);
  double a = median_ms(5, [&] { (void)build_facts(t1, s1.view()); });
  double b = median_ms(5, [&] { (void)build_facts(t2, s2.view()); });
  INFO("2.5k lines: " << a << " ms, 10k lines: " << b << " ms");
  CHECK(b < 10 * a + 5.0);
}
