"""Compiled training that falls back to eager on Dynamo errors.

Uses the private ``torch._dynamo`` module directly, as many older recipes do.
"""
import argparse
import logging

import torch
import torch._dynamo as dynamo
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

dynamo.config.suppress_errors = True
logger = logging.getLogger("dyn")


class GRUTagger(nn.Module):
    def __init__(self, vocab=3000, dim=100, tags=17):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, tags)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--backend", default="inductor")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    tokens = torch.randint(0, 3000, (800, 40))
    tags = torch.randint(0, 17, (800, 40))
    loader = DataLoader(TensorDataset(tokens, tags), batch_size=32, shuffle=True)
    tagger = GRUTagger()
    compiled = torch.compile(tagger, backend=args.backend)
    optimizer = torch.optim.Adam(tagger.parameters(), lr=2e-3)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        for tok, tag in loader:
            logits = compiled(tok)
            loss = loss_fn(logits.reshape(-1, 17), tag.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())
        dynamo.reset()


if __name__ == "__main__":
    main()
