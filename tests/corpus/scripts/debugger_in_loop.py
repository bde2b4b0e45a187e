"""msProbe wired in the wrong place: ``PrecisionDebugger`` is constructed
inside the training loop (it is a singleton, later constructions are no-ops)."""
import argparse
import logging

import torch
import torch.nn as nn
from msprobe.pytorch import PrecisionDebugger, seed_all
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("in_loop")


def get_loader(batch_size):
    x = torch.randn(960, 24)
    y = torch.randint(0, 6, (960,))
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="./config.json")
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    seed_all()

    model = nn.Sequential(nn.Linear(24, 96), nn.ReLU(), nn.Linear(96, 6))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()

    for i, (x, y) in enumerate(get_loader(args.batch_size)):
        debugger = PrecisionDebugger(config_path=args.config)
        debugger.start(model)
        out = model(x)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        debugger.stop()
        debugger.step()
        if i % 10 == 0:
            logger.info("iter %d loss %.4f", i, loss.item())


if __name__ == "__main__":
    main()
