"""Fine-tune a classifier with gradient accumulation over micro-batches.

Each optimizer step consumes ``--accum-steps`` micro-batches; the inner loop
runs forward/backward on each micro-batch, the outer loop does the update.
"""
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger(__name__)


class Classifier(nn.Module):
    def __init__(self, in_features=256, num_labels=3):
        super().__init__()
        self.pre = nn.Sequential(nn.Linear(in_features, 512), nn.GELU(), nn.LayerNorm(512))
        self.out = nn.Linear(512, num_labels)

    def forward(self, x):
        return self.out(self.pre(x))


def micro_batches(loader, accum_steps):
    """Group consecutive batches of ``loader`` into lists of ``accum_steps``."""
    group = []
    for batch in loader:
        group.append(batch)
        if len(group) == accum_steps:
            yield group
            group = []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accum-steps", type=int, default=4)
    parser.add_argument("--micro-batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=2e-5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    ds = TensorDataset(torch.randn(1024, 256), torch.randint(0, 3, (1024,)))
    loader = DataLoader(ds, batch_size=args.micro_batch_size, shuffle=True)
    model = Classifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()

    model.train()
    for update, group in enumerate(micro_batches(loader, args.accum_steps)):
        optimizer.zero_grad()
        total = 0.0
        for features, labels in group:
            logits = model(features)
            loss = loss_fn(logits, labels) / args.accum_steps
            loss.backward()
            total += loss.item()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        if update % 10 == 0:
            logger.info("update %d loss %.4f", update, total)


if __name__ == "__main__":
    main()
