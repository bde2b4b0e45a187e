"""Step-based (not epoch-based) language-model pretraining loop.

The data iterator is re-created when it runs out, and training stops after
``--max-steps`` optimizer updates, like most LLM pretraining recipes.
"""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("pretrain")


class TinyLM(nn.Module):
    def __init__(self, vocab=5000, dim=128, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=4 * dim, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.encoder(self.embed(input_ids)))


def infinite(loader):
    """Yield batches forever, restarting the loader at the end of each pass."""
    while True:
        for batch in loader:
            yield batch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-steps", type=int, default=500)
    parser.add_argument("--seq-len", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=3e-4)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    tokens = torch.randint(0, 5000, (2048, args.seq_len + 1))
    loader = DataLoader(TensorDataset(tokens), batch_size=args.batch_size, shuffle=True)
    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    data_iter = infinite(loader)

    step = 0
    model.train()
    while step < args.max_steps:
        (batch,) = next(data_iter)
        inputs, labels = batch[:, :-1], batch[:, 1:]
        logits = model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        step += 1
        if step % 50 == 0:
            logger.info("step %d/%d loss %.4f", step, args.max_steps, loss.item())


if __name__ == "__main__":
    main()
