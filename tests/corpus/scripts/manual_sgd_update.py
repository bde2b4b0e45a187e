"""Linear regression trained with a hand-written SGD update, as in the
PyTorch tutorials that come before torch.optim: there is no optimizer
object, the update reads each parameter's .grad."""
import argparse

import torch
import torch.nn as nn


def make_data(n, dim):
    x = torch.randn(n, dim)
    w_true = torch.arange(1, dim + 1, dtype=torch.float32)
    return x, x @ w_true + 0.1 * torch.randn(n)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()

    x, y = make_data(64, 3)
    model = nn.Linear(3, 1)
    loss_fn = nn.MSELoss()
    for t in range(args.iters):
        y_pred = model(x).squeeze(-1)
        loss = loss_fn(y_pred, y)
        if t % 10 == 9:
            print(t, loss.item())
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for param in model.parameters():
                param -= args.lr * param.grad


if __name__ == "__main__":
    main()
