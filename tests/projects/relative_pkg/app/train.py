"""Entry point: python -m app.train"""
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

from .engine import evaluate, train_one_epoch
from .models import Net


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(12, 4), torch.randint(0, 2, (12,)))
    loader = DataLoader(data, batch_size=4)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = torch.nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        train_one_epoch(model, loader, optimizer, criterion)
    print("eval", evaluate(model, loader))


if __name__ == "__main__":
    main()
