"""Distributed autograd over RPC, in the style of the PyTorch RPC tutorial:
the backward is dist_autograd.backward(context_id, [loss]) and the step is a
DistributedOptimizer's step(context_id)."""
import os

import torch
import torch.distributed.autograd as dist_autograd
import torch.distributed.rpc as rpc
import torch.nn as nn
from torch import optim
from torch.distributed.optim import DistributedOptimizer


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 2)

    def forward(self, x):
        return self.fc(x)

    def parameter_rrefs(self):
        return [rpc.RRef(p) for p in self.parameters()]


def run_trainer(batches):
    net = Net()
    opt = DistributedOptimizer(optim.SGD, net.parameter_rrefs(), lr=0.05)
    criterion = nn.CrossEntropyLoss()
    for data, target in batches:
        with dist_autograd.context() as context_id:
            output = net(data)
            loss = criterion(output, target)
            dist_autograd.backward(context_id, [loss])
            opt.step(context_id)
    print("training done")


def main():
    os.environ.setdefault("MASTER_ADDR", "localhost")
    os.environ.setdefault("MASTER_PORT", "29500")
    rpc.init_rpc("trainer", rank=0, world_size=1)
    batches = [(torch.randn(4, 10), torch.randint(0, 2, (4,))) for _ in range(3)]
    run_trainer(batches)
    rpc.shutdown()


if __name__ == "__main__":
    main()
