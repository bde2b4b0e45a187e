"""Greedy / top-k sampling from a small decoder-only language model.

The generation loop calls the model once per new token.
"""
import argparse
import logging
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger("generate")


class Decoder(nn.Module):
    def __init__(self, vocab=256, dim=128, heads=4, layers=2, max_len=512):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        block = nn.TransformerEncoderLayer(dim, heads, 4 * dim, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(block, layers)
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        t = idx.size(1)
        mask = torch.triu(torch.full((t, t), -math.inf), diagonal=1)
        h = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        return self.head(self.ln_f(self.blocks(h, mask=mask)))


def top_k_filter(logits, k):
    if k <= 0:
        return logits
    values, _ = torch.topk(logits, k)
    return logits.masked_fill(logits < values[:, [-1]], -math.inf)


@torch.no_grad()
def generate(model, ids, max_new_tokens, temperature=1.0, top_k=0):
    for _ in range(max_new_tokens):
        logits = model(ids)
        logits = top_k_filter(logits[:, -1, :] / temperature, top_k)
        probs = F.softmax(logits, dim=-1)
        next_id = torch.multinomial(probs, num_samples=1)
        ids = torch.cat([ids, next_id], dim=1)
    return ids


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompt", default="Hello")
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--top-k", type=int, default=40)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    torch.manual_seed(1337)
    model = Decoder().eval()
    ids = torch.tensor([list(args.prompt.encode("utf-8"))], dtype=torch.long)
    out = generate(model, ids, args.max_new_tokens, args.temperature, args.top_k)
    text = bytes(out[0].tolist()).decode("utf-8", errors="replace")
    logger.info("generated: %r", text)


if __name__ == "__main__":
    main()
