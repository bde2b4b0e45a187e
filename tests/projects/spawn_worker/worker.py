"""What each spawned process runs: join the group, train, leave."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)


def fit(model, batches, optimizer):
    for x, y in batches:
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()


def main_worker(rank, world_size):
    """Runs in every spawned process."""
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(rank)
    model = DDP(Net())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = [(torch.randn(2, 4), torch.randn(2, 1)) for _ in range(3)]
    fit(model, batches, optimizer)
    dist.destroy_process_group()
