"""Inference dump of a translation-style encoder, already instrumented with msProbe.

``debugger.step()`` here is msProbe's step counter; there is no optimizer
in this script.
"""
import argparse
import logging

import torch
import torch.nn as nn
from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all(seed=2024)
debugger = PrecisionDebugger(config_path="./config.json")
logger = logging.getLogger("encode")


class Encoder(nn.Module):
    def __init__(self, vocab=8000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 8, 1024, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 3)

    def forward(self, src):
        return self.encoder(self.embed(src))


def batches(n, batch_size, seq_len):
    for _ in range(n):
        yield torch.randint(0, 8000, (batch_size, seq_len))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-batches", type=int, default=4)
    parser.add_argument("--seq-len", type=int, default=32)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    model = Encoder().eval()
    with torch.no_grad():
        for src in batches(args.num_batches, 8, args.seq_len):
            debugger.start(model)
            memory = model(src)
            debugger.stop()
            debugger.step()
            logger.info("encoded batch: %s", tuple(memory.shape))


if __name__ == "__main__":
    main()
