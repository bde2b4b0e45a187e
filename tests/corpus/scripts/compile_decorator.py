"""Physics-informed regression where the loss function is compiled with ``@torch.compile``."""
import argparse
import logging

import torch
import torch.nn as nn

logger = logging.getLogger("pinn")


class MLP(nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width),
                                 nn.Tanh(), nn.Linear(width, 1))

    def forward(self, t):
        return self.net(t)


@torch.compile
def residual_loss(u, du_dt, k):
    """ODE residual of du/dt = -k u, plus the initial condition u(0) = 1."""
    return ((du_dt + k * u) ** 2).mean()


def derivative(model, t):
    t = t.requires_grad_(True)
    u = model(t)
    (du_dt,) = torch.autograd.grad(u.sum(), t, create_graph=True)
    return u, du_dt


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", type=float, default=2.0)
    parser.add_argument("--iters", type=int, default=2000)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    model = MLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    t0 = torch.zeros(1, 1)

    for it in range(args.iters):
        t = torch.rand(256, 1) * 2.0
        u, du_dt = derivative(model, t)
        loss = residual_loss(u, du_dt, args.k) + (model(t0) - 1.0).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 200 == 0:
            logger.info("iter %d loss %.3e", it, loss.item())


if __name__ == "__main__":
    main()
