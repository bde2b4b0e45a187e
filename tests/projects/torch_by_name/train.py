import torch

from loop import fit
from model import Classifier

if __name__ == "__main__":
    torch.manual_seed(0)
    model = Classifier()
    batches = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(3)]
    fit(model, batches, torch.optim.SGD(model.parameters(), lr=0.1))
