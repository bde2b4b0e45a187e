"""Trains a character-level model: the script a user launches."""
import sys

import torch
from torch.utils.data import TensorDataset

from mingpt.model import GPT
from mingpt.trainer import Trainer


def get_dataset(n=32, block=6, vocab=16):
    g = torch.Generator().manual_seed(0)
    x = torch.randint(0, vocab, (n, block), generator=g)
    return TensorDataset(x, torch.roll(x, -1, dims=1))


if __name__ == "__main__":
    model = GPT()
    trainer = Trainer(model, get_dataset(), max_iters=3)

    def report(t):
        print(f"iter {t.iter_num}: loss {t.loss.item():.4f}", file=sys.stderr)

    trainer.add_callback(report)
    trainer.run()
