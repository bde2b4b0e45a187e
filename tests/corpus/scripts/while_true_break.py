"""Autoencoder training with a ``while True`` loop that breaks on a step budget or on convergence."""
import argparse
import logging
import sys

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logging.basicConfig(stream=sys.stdout, level=logging.INFO)
logger = logging.getLogger("ae")


class AutoEncoder(nn.Module):
    def __init__(self, dim=784, hidden=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, 256), nn.ReLU(), nn.Linear(256, hidden))
        self.decoder = nn.Sequential(nn.Linear(hidden, 256), nn.ReLU(), nn.Linear(256, dim), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-iters", type=int, default=2000)
    parser.add_argument("--tol", type=float, default=1e-4)
    parser.add_argument("--batch-size", type=int, default=128)
    return parser.parse_args()


if __name__ == "__main__":
    args = get_args()
    data = torch.rand(4096, 784)
    loader = DataLoader(TensorDataset(data), batch_size=args.batch_size, shuffle=True, drop_last=True)
    model = AutoEncoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.MSELoss()

    it = iter(loader)
    iteration = 0
    best = float("inf")
    while True:
        try:
            (x,) = next(it)
        except StopIteration:
            it = iter(loader)
            (x,) = next(it)
        recon = model(x)
        loss = criterion(recon, x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        iteration += 1
        if abs(best - loss.item()) < args.tol:
            logger.info("converged at iteration %d", iteration)
            break
        best = min(best, loss.item())
        if iteration >= args.max_iters:
            logger.info("reached max iterations")
            break

    torch.save(model.state_dict(), "autoencoder.pt")
