"""Gradient accumulation written with ``continue``: skip the update until enough micro-batches ran."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("accum")


class MLP(nn.Module):
    def __init__(self, d_in=64, d_hidden=256, d_out=10):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def train(model, loader, optimizer, accum, epochs):
    model.train()
    global_step = 0
    for epoch in range(epochs):
        for i, (x, y) in enumerate(loader):
            out = model(x)
            loss = F.cross_entropy(out, y) / accum
            loss.backward()
            if (i + 1) % accum != 0:
                continue
            optimizer.step()
            optimizer.zero_grad()
            global_step += 1
            if global_step % 20 == 0:
                logger.info("epoch %d step %d loss %.4f", epoch, global_step, loss.item() * accum)
    return global_step


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--accum", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    data = TensorDataset(torch.randn(2048, 64), torch.randint(0, 10, (2048,)))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True)
    model = MLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    steps = train(model, loader, optimizer, args.accum, args.epochs)
    logger.info("finished with %d optimizer steps", steps)


if __name__ == "__main__":
    main()
