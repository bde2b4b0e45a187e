"""Someone started wiring msProbe in but only added ``debugger.start()``:
there is no ``stop()`` and no ``step()``, so dump.json stays incomplete."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all()
debugger = PrecisionDebugger(config_path="./config.json")
logger = logging.getLogger("partial")


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        return self.out(self.body(x))


def make_batch(batch_size):
    x = torch.randn(batch_size, 8)
    y = (x ** 2).sum(dim=1, keepdim=True)
    return x, y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    model = Regressor()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    for step in range(args.steps):
        debugger.start(model=model)
        x, y = make_batch(args.batch_size)
        pred = model(x)
        loss = F.mse_loss(pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            logger.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
