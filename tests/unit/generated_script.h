// A generated training script of about `lines` lines, shared by the engine's
// timing figures (test_engine_timing.cpp, hidden) and the work-scaling test
// (tests/scaling): module classes, step helpers, train/eval loops and the
// traps a rule must not take for training (scheduler.step, a nested loop).
#pragma once

#include <sstream>
#include <string>

namespace test_support {

// About `lines` lines of realistic training code: imports, module classes,
// helpers, train/eval loops with helpers, traps (scheduler.step, env.step).
inline std::string generated_script(int lines) {
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

}  // namespace test_support
