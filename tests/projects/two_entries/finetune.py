import torch

from loop import fit
from net import make_net

if __name__ == "__main__":
    model = make_net(width=3)
    model.load_state_dict(model.state_dict())
    batches = [(torch.randn(2, 2), torch.randn(2, 1)) for _ in range(3)]
    fit(model, batches, torch.optim.Adam(model.parameters(), lr=1e-3), torch.nn.L1Loss())
