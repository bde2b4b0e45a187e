#!/usr/bin/env python3
"""Generates a multi-file training project for the index benchmark: packages of
model, trainer, data and utility modules (each 100-200 lines, cross-imported),
and launch scripts that build a trainer and run its loop.

    gen_project.py FILES OUT_DIR   (FILES: how many .py files in all)
"""
import os
import random
import sys

MODEL = '''"""Models of package {pkg} ({i})."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from .utils_{i} import init_weights, count_params


class Block{i}(nn.Module):
    def __init__(self, dim={dim}):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * 4)
        self.fc2 = nn.Linear(dim * 4, dim)

    def forward(self, x):
        h = self.norm(x)
        return x + self.fc2(F.gelu(self.fc1(h)))


class Net{i}(nn.Module):
    def __init__(self, depth={depth}, dim={dim}, classes=10):
        super().__init__()
        self.blocks = nn.ModuleList([Block{i}(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, classes)
        init_weights(self)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=1))

    def num_params(self):
        return count_params(self)
'''

UTILS = '''"""Helpers of package {pkg} ({i})."""
import math
import os

import torch


def init_weights(module, std=0.02):
    for p in module.parameters():
        if p.dim() > 1:
            torch.nn.init.normal_(p, std=std)


def count_params(module):
    return sum(p.numel() for p in module.parameters())


def cosine_lr(step, total, base=1e-3, warmup=10):
    if step < warmup:
        return base * step / warmup
    return 0.5 * base * (1 + math.cos(math.pi * (step - warmup) / max(1, total - warmup)))


def save_checkpoint(model, optimizer, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    torch.save({{"model": model.state_dict(), "optimizer": optimizer.state_dict()}}, path)
'''

DATA = '''"""Data of package {pkg} ({i})."""
import torch
from torch.utils.data import DataLoader, Dataset


class Synthetic{i}(Dataset):
    def __init__(self, n=256, length=16, dim={dim}):
        self.x = torch.randn(n, length, dim)
        self.y = torch.randint(0, 10, (n,))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, k):
        return self.x[k], self.y[k]


def build_loader(batch_size=8, shuffle=True):
    return DataLoader(Synthetic{i}(), batch_size=batch_size, shuffle=shuffle)
'''

TRAINER = '''"""The training loop of package {pkg} ({i})."""
import logging

import torch

from .data_{i} import build_loader
from .models_{i} import Net{i}
from .utils_{i} import cosine_lr, save_checkpoint

logger = logging.getLogger(__name__)


class Trainer{i}:
    def __init__(self, epochs=1, lr=1e-3):
        self.model = Net{i}()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
        self.loader = build_loader()
        self.epochs = epochs
        self.step_num = 0

    def train_step(self, batch):
        x, y = batch
        logits = self.model(x)
        loss = torch.nn.functional.cross_entropy(logits, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self):
        total = self.epochs * len(self.loader)
        for epoch in range(self.epochs):
            for batch in self.loader:
                for group in self.optimizer.param_groups:
                    group["lr"] = cosine_lr(self.step_num, total)
                loss = self.train_step(batch)
                self.step_num += 1
                if self.step_num % 50 == 0:
                    logger.info("epoch %d step %d loss %.4f", epoch, self.step_num, loss)
            save_checkpoint(self.model, self.optimizer, "ckpt/{pkg}_{i}.pt")

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        correct = 0
        for x, y in self.loader:
            correct += (self.model(x).argmax(-1) == y).sum().item()
        return correct
'''

SCRIPT = '''"""Launches the training of {pkg}.trainer_{i}."""
import argparse

from {pkg}.trainer_{i} import Trainer{i}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    trainer = Trainer{i}(epochs=args.epochs)
    trainer.fit()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
'''

FILLER = '''

def helper_{k}(values, scale={scale}):
    """Filler that keeps modules at a realistic size."""
    out = []
    for v in values:
        if v is None:
            continue
        out.append(v * scale + {k})
    return sorted(out)
'''


def main():
    total, out = int(sys.argv[1]), sys.argv[2]
    rnd = random.Random(0)
    files = 0
    pkg_index = 0
    while files < total:
        pkg = f"pkg{pkg_index:03d}"
        os.makedirs(os.path.join(out, pkg), exist_ok=True)
        with open(os.path.join(out, pkg, "__init__.py"), "w") as f:
            f.write(f'"""Package {pkg}."""\n')
        files += 1
        os.makedirs(os.path.join(out, "scripts"), exist_ok=True)
        for i in range(4):
            for kind, template in (("models", MODEL), ("utils", UTILS), ("data", DATA), ("trainer", TRAINER)):
                if files >= total:
                    break
                text = template.format(pkg=pkg, i=i, dim=rnd.choice([32, 64]), depth=rnd.randint(2, 4))
                for k in range(rnd.randint(8, 16)):
                    text += FILLER.format(k=k, scale=rnd.randint(2, 9))
                with open(os.path.join(out, pkg, f"{kind}_{i}.py"), "w") as f:
                    f.write(text)
                files += 1
            if files < total and i % 2 == 0:
                with open(os.path.join(out, "scripts", f"run_{pkg}_{i}.py"), "w") as f:
                    f.write(SCRIPT.format(pkg=pkg, i=i))
                files += 1
        pkg_index += 1


if __name__ == "__main__":
    main()
