"""Training with two LR schedulers: ``scheduler.step()`` calls are not optimizer steps.

The warm-up scheduler steps every batch, the plateau scheduler once per
epoch (outside the batch loop) with the validation loss.
"""
import argparse
import logging

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR, ReduceLROnPlateau
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("sched")


def build(width=256):
    return nn.Sequential(nn.Linear(30, width), nn.SiLU(), nn.Linear(width, 1))


def validate(model, x, y):
    model.eval()
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--warmup-steps", type=int, default=100)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    x = torch.randn(5000, 30)
    y = (x[:, :5].sum(1, keepdim=True) > 0).float()
    loader = DataLoader(TensorDataset(x[:4000], y[:4000]), batch_size=100, shuffle=True)
    model = build()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    warmup = LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / args.warmup_steps))
    scheduler = ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=2)

    for epoch in range(args.epochs):
        model.train()
        for xb, yb in loader:
            loss = nn.functional.mse_loss(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            warmup.step()
        val_loss = validate(model, x[4000:], y[4000:])
        scheduler.step(val_loss)
        logger.info("epoch %d val %.4f lr %.2e", epoch, val_loss, optimizer.param_groups[0]["lr"])


if __name__ == "__main__":
    main()
