"""Small-batch training step compiled as a whole with
``@torch.compile(mode="reduce-overhead")`` to cut Python/launch overhead."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger("ro")

model = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 128))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


@torch.compile(mode="reduce-overhead")
def forward_loss(x, y):
    pred = model(x)
    return F.mse_loss(pred, y)


def run(steps, batch):
    for i in range(steps):
        x = torch.randn(batch, 128)
        y = torch.tanh(x)
        loss = forward_loss(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if i % 100 == 0:
            logger.info("step %d loss %.5f", i, loss.item())


def parse():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=8)
    return parser.parse_args()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    opts = parse()
    run(opts.steps, opts.batch)
