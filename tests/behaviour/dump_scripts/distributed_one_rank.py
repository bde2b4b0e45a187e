"""Instrumented training under torch.distributed (gloo, one process): msProbe
then names the process folder rank0."""
import os
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn
from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all()
debugger = PrecisionDebugger(config_path="./config.json")


def main():
    store = os.path.join(tempfile.mkdtemp(), "store")
    dist.init_process_group("gloo", init_method="file://" + store, rank=0, world_size=1)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(2):
        debugger.start(model)
        loss = model(torch.randn(8, 4)).sum()
        loss.backward()
        optimizer.step()
        debugger.stop()
        debugger.step()
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
