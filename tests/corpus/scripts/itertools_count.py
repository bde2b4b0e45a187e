"""Contrastive (SimCLR-like) pretraining driven by ``itertools.count()``.

The loop has no natural end; it stops when the wall-clock budget runs out.
"""
import argparse
import itertools
import logging
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger("simclr")


class Encoder(nn.Module):
    def __init__(self, in_dim=128, out_dim=64):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 256), nn.ReLU(), nn.Linear(256, 256))
        self.projector = nn.Sequential(nn.ReLU(), nn.Linear(256, out_dim))

    def forward(self, x):
        return self.projector(self.backbone(x))


def augment(x):
    """Cheap augmentation: gaussian noise plus random feature dropout."""
    return F.dropout(x + 0.05 * torch.randn_like(x), p=0.1)


def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / temperature
    n = z1.size(0)
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget-seconds", type=float, default=60.0)
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    encoder = Encoder()
    opt = torch.optim.SGD(encoder.parameters(), lr=0.3, momentum=0.9)
    deadline = time.monotonic() + args.budget_seconds

    for step in itertools.count():
        x = torch.randn(args.batch_size, 128)
        z1 = encoder(augment(x))
        z2 = encoder(augment(x))
        loss = nt_xent(z1, z2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            logger.info("step %d loss %.4f", step, loss.item())
        if time.monotonic() > deadline:
            logger.info("time budget exhausted after %d steps", step + 1)
            break

    torch.save(encoder.backbone.state_dict(), "simclr_backbone.pt")


if __name__ == "__main__":
    main()
