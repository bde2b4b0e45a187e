import torch

from loop import fit
from net import make_net

if __name__ == "__main__":
    model = make_net()
    batches = [(torch.randn(4, 2), torch.randn(4, 1)) for _ in range(3)]
    fit(model, batches, torch.optim.SGD(model.parameters(), lr=0.1), torch.nn.MSELoss())
