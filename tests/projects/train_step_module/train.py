"""Launch script: builds everything, then iterates over the data."""
import torch

from model import Regressor
from trainer import Trainer


def load_batches(n=3):
    g = torch.Generator().manual_seed(1)
    return [(torch.randn(5, 3, generator=g), torch.randn(5, 1, generator=g)) for _ in range(n)]


def main():
    model = Regressor()
    criterion = torch.nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    trainer = Trainer(model, criterion, optimizer)
    itr = load_batches()
    for samples in itr:
        log = trainer.train_step(samples)
        print(f"update {trainer.num_updates}: loss {log:.4f}")
    print("valid", trainer.valid_step(itr[0]))


if __name__ == "__main__":
    main()
