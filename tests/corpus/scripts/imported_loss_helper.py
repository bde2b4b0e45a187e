"""Fine-tune a classifier whose forward and loss live in a shared helper module.

Many team codebases keep the forward pass in a library (``losses.compute_loss(model, batch)``)
so the training script only sees the model handed to an imported function. The forward is
still there, inside that call, and it is what the dump has to wrap.
"""
import argparse
import logging

import torch
from torch import nn

from team_lib.losses import compute_loss

logger = logging.getLogger(__name__)


class Classifier(nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, classes))

    def forward(self, x):
        return self.body(x)


def make_batches(n, dim, classes):
    return [(torch.randn(16, dim), torch.randint(0, classes, (16,))) for _ in range(n)]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--steps", type=int, default=4)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--dim", type=int, default=8)
    return p.parse_args()


def main():
    args = parse_args()
    model = Classifier(args.dim, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    batches = make_batches(args.steps, args.dim, 3)
    model.train()
    for step, batch in enumerate(batches):
        optimizer.zero_grad()
        loss = compute_loss(model, batch)
        loss.backward()
        optimizer.step()
        logger.info("step %d loss %.4f", step, loss.item())
    print("done", len(batches))


if __name__ == "__main__":
    main()
