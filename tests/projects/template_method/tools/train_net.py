"""Launch script in a tools/ folder, next to the package it trains with."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

from engine import SimpleTrainer  # noqa: E402


def build_model():
    return nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))


def main():
    torch.manual_seed(0)
    model = build_model()
    data = [(torch.randn(3, 2), torch.randn(3, 1)) for _ in range(8)]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    trainer = SimpleTrainer(model, data, optimizer)
    trainer.train(0, 3)


if __name__ == "__main__":
    main()
