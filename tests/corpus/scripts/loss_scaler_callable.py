"""Pre-training loop in the style of MAE/timm recipes: the backward and the
optimizer step run inside timm's NativeScaler, called with the loss and the
optimizer; the loop itself never calls loss.backward() or optimizer.step()."""
import argparse
import math
import sys

import torch
import torch.nn as nn
from timm.utils import NativeScaler


class TinyAutoencoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.encoder = nn.Linear(dim, 8)
        self.decoder = nn.Linear(8, dim)

    def forward(self, x):
        recon = self.decoder(torch.relu(self.encoder(x)))
        return ((recon - x) ** 2).mean()


def train_one_epoch(model, loader, optimizer, loss_scaler, accum_iter, clip_grad=None):
    model.train(True)
    optimizer.zero_grad()
    for data_iter_step, samples in enumerate(loader):
        with torch.cuda.amp.autocast(enabled=False):
            loss = model(samples)
        loss_value = loss.item()
        if not math.isfinite(loss_value):
            print("Loss is {}, stopping training".format(loss_value))
            sys.exit(1)
        loss = loss / accum_iter
        loss_scaler(loss, optimizer, clip_grad=clip_grad, parameters=model.parameters(),
                    update_grad=(data_iter_step + 1) % accum_iter == 0)
        if (data_iter_step + 1) % accum_iter == 0:
            optimizer.zero_grad()
    return loss_value


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--accum_iter", type=int, default=1)
    args = parser.parse_args()
    model = TinyAutoencoder()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1.5e-4, betas=(0.9, 0.95))
    loss_scaler = NativeScaler()
    loader = [torch.randn(16, 32) for _ in range(5)]
    for epoch in range(args.epochs):
        loss = train_one_epoch(model, loader, optimizer, loss_scaler, args.accum_iter)
        print(f"epoch {epoch} loss {loss:.4f}")


if __name__ == "__main__":
    main()
