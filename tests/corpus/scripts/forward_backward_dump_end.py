"""Old msProbe snippet: ``forward_backward_dump_end()`` ends the dump window.
The method was removed in 26.x; ``stop()`` replaces it."""
import argparse
import logging

import torch
import torch.nn as nn
from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all(seed=42)
debugger = PrecisionDebugger(config_path="./config.json", task="statistics", level="L1")
logger = logging.getLogger("fbde")


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(in_features=8, out_features=4)
        self.linear2 = nn.Linear(in_features=4, out_features=2)

    def forward(self, x):
        return self.linear2(torch.relu(self.linear1(x)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=10)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    model = Model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for i in range(args.iters):
        x = torch.randn(10, 8)
        target = torch.randint(0, 2, (10,))
        debugger.start(model)
        out = model(x)
        loss = nn.functional.cross_entropy(out, target)
        loss.backward()
        debugger.forward_backward_dump_end()
        optimizer.step()
        optimizer.zero_grad()
        debugger.step()
        logger.info("iter %d loss %.4f", i, loss.item())


if __name__ == "__main__":
    main()
