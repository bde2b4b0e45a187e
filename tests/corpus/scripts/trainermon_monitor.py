"""Training with msProbe's TrainerMon monitor (activations / grads / optimizer
state statistics). This is the monitoring tool, not the PrecisionDebugger dump."""
import argparse
import logging

import torch
import torch.nn as nn
from msprobe.pytorch import TrainerMon
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("mon")


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--monitor-config", default="./monitor_config.json")
    parser.add_argument("--steps-per-epoch", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    model = nn.Sequential(Block(64), Block(64), nn.Linear(64, 64))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    monitor = TrainerMon(args.monitor_config, process_group=None, params_have_main_grad=False)
    monitor.set_monitor(model, grad_acc_steps=1, optimizer=optimizer, dp_group=None, tp_group=None)

    data = TensorDataset(torch.randn(args.steps_per_epoch * 8, 16, 64))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    for epoch in range(args.epochs):
        for (x,) in loader:
            y = model(x)
            loss = (y - x).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.5f", epoch, loss.item())


if __name__ == "__main__":
    main()
