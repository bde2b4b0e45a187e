"""Written against msProbe 8.x: the model is passed to the constructor
(``PrecisionDebugger(config_path=..., model=model)``), which 26.x rejects."""
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from msprobe.pytorch import PrecisionDebugger

logger = logging.getLogger("legacy")


class TwoTower(nn.Module):
    def __init__(self, user_dim=32, item_dim=48, dim=64):
        super().__init__()
        self.user = nn.Sequential(nn.Linear(user_dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.item = nn.Sequential(nn.Linear(item_dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, u, i):
        return (self.user(u) * self.item(i)).sum(dim=-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="./config.json")
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    model = TwoTower()
    debugger = PrecisionDebugger(config_path=args.config, model=model)
    data = TensorDataset(torch.randn(800, 32), torch.randn(800, 48), torch.randint(0, 2, (800,)).float())
    loader = DataLoader(data, batch_size=40, shuffle=True)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)
    criterion = nn.BCEWithLogitsLoss()

    for epoch in range(args.epochs):
        for users, items, clicks in loader:
            debugger.start()
            scores = model(users, items)
            loss = criterion(scores, clicks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            debugger.stop()
            debugger.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
