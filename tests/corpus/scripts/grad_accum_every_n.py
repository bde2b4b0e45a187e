"""Gradient accumulation: the optimizer steps every ``accum_steps`` micro-batches,
so the forward and the backward run on every iteration and the step does not."""
import argparse
import logging

import torch
import torch.nn as nn

logger = logging.getLogger("accum")


def build_model(hidden):
    return nn.Sequential(nn.Linear(8, hidden), nn.ReLU(), nn.Linear(hidden, 1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accum-steps", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=16)
    args = parser.parse_args()
    model = build_model(args.hidden)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    data = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(8)]
    for i, (x, y) in enumerate(data):
        loss = nn.functional.mse_loss(model(x), y) / args.accum_steps
        loss.backward()
        if (i + 1) % args.accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
            logger.info("update %d loss %.4f", (i + 1) // args.accum_steps, loss.item())
    print(loss.item())


if __name__ == "__main__":
    main()
