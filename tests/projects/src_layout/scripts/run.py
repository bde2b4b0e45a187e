"""Runs the package's training on random data (PYTHONPATH=src python scripts/run.py)."""
import torch

from mypkg.loop import fit
from mypkg.net import TinyNet

if __name__ == "__main__":
    torch.manual_seed(3)
    data = [(torch.randn(4, 6), torch.randint(0, 3, (4,))) for _ in range(3)]
    net = TinyNet()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    print(fit(net, data, opt))
