"""A residual MLP whose ``forward`` iterates over ``self.layers``.

Only the training loop in ``train`` is a training loop; the loops in
``forward`` and in ``__init__`` are model structure.
"""
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger(__name__)


class ResidualBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class DeepMLP(nn.Module):
    def __init__(self, dim=64, depth=8, out=1):
        super().__init__()
        self.layers = nn.ModuleList()
        for _ in range(depth):
            self.layers.append(ResidualBlock(dim))
        self.head = nn.Linear(dim, out)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def train(model, loader, epochs, lr):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for feats, labels in loader:
            optimizer.zero_grad()
            logits = model(feats)
            loss = loss_fn(logits.squeeze(-1), labels)
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    data = TensorDataset(torch.randn(2000, 64), torch.randint(0, 2, (2000,)).float())
    train(DeepMLP(depth=args.depth), DataLoader(data, batch_size=50, shuffle=True), args.epochs, args.lr)
