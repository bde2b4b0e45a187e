"""Character-level pretraining in the style of nanoGPT's train.py: the import
header is followed by configuration, and two imports sit much further down,
inside conditionals (wandb for the master process, an eval helper after the
loop). They are not part of the header."""
import os
import time
import math
from contextlib import nullcontext

import numpy as np
import torch
import torch.nn as nn

out_dir = "out"
eval_interval = 2000
wandb_log = False
master_process = True
run_evals = False
max_iters = 6
learning_rate = 6e-4
device = "cpu"
ctx = nullcontext()


class TinyLM(nn.Module):
    def __init__(self, vocab=65, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx, targets):
        logits = self.head(self.emb(idx))
        return logits, nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def get_batch(data, block=8, batch=4):
    ix = torch.randint(len(data) - block, (batch,))
    x = torch.stack([torch.from_numpy(data[i:i + block].astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy(data[i + 1:i + 1 + block].astype(np.int64)) for i in ix])
    return x, y


def get_lr(it):
    return learning_rate * 0.5 * (1.0 + math.cos(math.pi * it / max_iters))


data = np.random.randint(0, 65, size=(1000,), dtype=np.uint16)
model = TinyLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
if wandb_log and master_process:
    import wandb
    wandb.init(project="owt", name="run" + str(time.time()))

iter_num = 0
t0 = time.time()
while True:
    lr = get_lr(iter_num)
    for param_group in optimizer.param_groups:
        param_group["lr"] = lr
    X, Y = get_batch(data)
    with ctx:
        logits, loss = model(X, Y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    iter_num += 1
    if iter_num > max_iters:
        break

if run_evals:
    from evals import hellaswag
    hellaswag.evaluate(model)
print(f"done in {time.time() - t0:.1f}s, out_dir={os.path.abspath(out_dir)}")
