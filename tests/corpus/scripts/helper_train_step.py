"""Regression training where forward/backward/step live in ``train_step``.

The loop itself only moves data and logs, which is how many "clean" training
scripts are organised.
"""
import argparse
import logging
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("helper")


@dataclass
class Config:
    lr: float = 1e-3
    batch_size: int = 32
    epochs: int = 1
    grad_clip: float = 1.0


def build_model():
    return nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, 1))


def train_step(model, batch, optimizer, criterion, cfg):
    """One optimisation step; returns the loss as a float."""
    inputs, targets = batch
    optimizer.zero_grad()
    preds = model(inputs)
    loss = criterion(preds, targets)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
    optimizer.step()
    return loss.item()


def run(cfg):
    x = torch.randn(1000, 20)
    y = x.sum(dim=1, keepdim=True).sin()
    loader = DataLoader(TensorDataset(x, y), batch_size=cfg.batch_size, shuffle=True)
    model = build_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    criterion = nn.SmoothL1Loss()

    history = []
    for batch in loader:
        loss = train_step(model, batch, optimizer, criterion, cfg)
        history.append(loss)
        if len(history) % 10 == 0:
            logger.info("iter %d avg loss %.4f", len(history), sum(history[-10:]) / 10)
    return history


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch-size", type=int, default=32)
    opts = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    run(Config(lr=opts.lr, batch_size=opts.batch_size))
