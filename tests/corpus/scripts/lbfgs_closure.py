"""Curve fitting with L-BFGS: forward and backward happen inside the closure
that ``optimizer.step(closure)`` calls (possibly several times per step)."""
import argparse
import logging

import torch
import torch.nn as nn

logger = logging.getLogger("lbfgs")


class Sine(nn.Module):
    """Predict a sine wave from its past values with an LSTM cell."""

    def __init__(self, hidden=51):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, seq):
        out, _ = self.lstm(seq.unsqueeze(-1))
        return self.linear(out).squeeze(-1)


def make_data(n=97, length=200, period=20.0):
    t = torch.arange(length, dtype=torch.float32)
    shift = torch.randint(-4 * int(period), 4 * int(period), (n, 1)).float()
    return torch.sin((t + shift) / period)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=15)
    parser.add_argument("--lr", type=float, default=0.8)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    data = make_data()
    inputs, targets = data[:, :-1], data[:, 1:]
    model = Sine()
    criterion = nn.MSELoss()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=args.lr, max_iter=20)

    for i in range(args.steps):
        def closure():
            optimizer.zero_grad()
            out = model(inputs)
            loss = criterion(out, targets)
            loss.backward()
            return loss

        loss = optimizer.step(closure)
        logger.info("step %d loss %.6f", i, loss.item())

    with torch.no_grad():
        pred = model(inputs[:3])
        logger.info("test mse %.6f", criterion(pred, targets[:3]).item())


if __name__ == "__main__":
    main()
