"""Fine-tune a small denoiser conditioned on a frozen text encoder, in the
style of a diffusion training script: the encoder is called first, under
no_grad, but the optimizer trains the denoiser only."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)


class TextEncoder(nn.Module):
    def __init__(self, vocab=32, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)

    def forward(self, ids):
        return self.embed(ids).mean(dim=1)


class Denoiser(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * dim, 32), nn.SiLU(), nn.Linear(32, dim))

    def forward(self, x, cond):
        return self.net(torch.cat([x, cond], dim=-1))


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=4)
    p.add_argument("--lr", type=float, default=1e-4)
    return p.parse_args()


def main():
    args = parse_args()
    text_encoder = TextEncoder()
    unet = Denoiser()
    text_encoder.requires_grad_(False)
    optimizer = torch.optim.AdamW(filter(lambda p: p.requires_grad, unet.parameters()), lr=args.lr)
    batches = [{"ids": torch.randint(0, 32, (4, 6)), "x": torch.randn(4, 16)} for _ in range(args.steps)]

    for step, batch in enumerate(batches):
        with torch.no_grad():
            h = text_encoder(batch["ids"])
        noise = torch.randn_like(batch["x"])
        pred = unet(batch["x"] + noise, h)
        loss = F.mse_loss(pred, noise)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        logger.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
