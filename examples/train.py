"""Train a small classifier on synthetic data.

An example for msprobe-lsp: `msprobe-lsp check examples/` reports that this
script compiles the model with torch.compile, which msProbe's dump does not
support, and `msprobe-lsp explain examples/train.py` shows where the dump
points would go.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def build_model(hidden: int) -> nn.Module:
    return nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, 4))


def train(epochs: int, hidden: int) -> None:
    data = TensorDataset(torch.randn(256, 16), torch.randint(0, 4, (256,)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    model = build_model(hidden)
    model = torch.compile(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(epochs):
        for inputs, labels in loader:
            optimizer.zero_grad()
            outputs = model(inputs)
            loss = loss_fn(outputs, labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=32)
    args = parser.parse_args()
    train(args.epochs, args.hidden)
