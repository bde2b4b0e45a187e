"""Uses ``nn.Module.compile()`` (in-place compile, PyTorch >= 2.2) instead of ``torch.compile``."""
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("mc")


class UNetBlock(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.down = nn.Conv2d(1, ch, 3, stride=2, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.up = nn.ConvTranspose2d(ch, 1, 4, stride=2, padding=1)

    def forward(self, x):
        return self.up(torch.relu(self.mid(torch.relu(self.down(x)))))


def add_noise(x, sigma):
    return x + sigma * torch.randn_like(x)


def main():
    parser = argparse.ArgumentParser(description="denoising autoencoder")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--sigma", type=float, default=0.2)
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    clean = torch.rand(640, 1, 28, 28)
    loader = DataLoader(TensorDataset(clean), batch_size=64, shuffle=True)
    denoiser = UNetBlock()
    if not args.no_compile:
        denoiser.compile()
    optimizer = torch.optim.Adam(denoiser.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        for (x,) in loader:
            restored = denoiser(add_noise(x, args.sigma))
            loss = nn.functional.l1_loss(restored, x)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logger.info("epoch %d l1 %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
