"""A tiny causal model in the style of minGPT's model module."""
import torch
import torch.nn as nn
from torch.nn import functional as F


class GPT(nn.Module):
    def __init__(self, vocab_size=16, n_embd=8):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        logits = self.head(self.tok(idx))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

    def configure_optimizers(self, lr):
        return torch.optim.AdamW(self.parameters(), lr=lr)
