#!/usr/bin/env python3
"""Text classification with a bag-of-embeddings model; everything lives in main()."""
import argparse
import logging
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

try:
    import wandb
except ImportError:  # experiment tracking is optional
    wandb = None

log = logging.getLogger("textclf")


class RandomTokens(Dataset):
    """Random token ids with random labels, standing in for a tokenised corpus."""

    def __init__(self, size, seq_len, vocab, num_classes):
        self.tokens = torch.randint(0, vocab, (size, seq_len))
        self.labels = torch.randint(0, num_classes, (size,))

    def __len__(self):
        return self.tokens.size(0)

    def __getitem__(self, idx):
        return self.tokens[idx], self.labels[idx]


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab, dim, num_classes):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc = nn.Linear(dim, num_classes)

    def forward(self, tokens):
        return self.fc(self.embedding(tokens))


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--vocab", type=int, default=20000)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--classes", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=5.0)
    return p.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO)
    device = "cuda" if torch.cuda.is_available() else "cpu"

    data = RandomTokens(8192, 48, args.vocab, args.classes)
    dataloader = DataLoader(data, batch_size=args.batch_size, shuffle=True)
    model = BagOfEmbeddings(args.vocab, args.dim, args.classes).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)

    model.train()
    total_acc, total_count = 0, 0
    start_time = time.time()
    for idx, (text, label) in enumerate(dataloader):
        text, label = text.to(device), label.to(device)
        optimizer.zero_grad()
        predicted_label = model(text)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
        if idx % 50 == 0 and idx > 0:
            elapsed = time.time() - start_time
            log.info("| %5d batches | accuracy %8.3f | %.2fs", idx, total_acc / total_count, elapsed)
            if wandb is not None and wandb.run is not None:
                wandb.log({"train/acc": total_acc / total_count, "train/loss": loss.item()}, step=idx)
            total_acc, total_count = 0, 0
            start_time = time.time()

    log.info("done")


if __name__ == "__main__":
    main()
