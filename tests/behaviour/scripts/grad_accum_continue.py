"""Tiny training with gradient accumulation: the update is skipped with
``continue`` until ``ACCUM`` micro-batches have run.
"""
# behaviour: iterations=3
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ACCUM = 2


def main():
    torch.manual_seed(0)
    x = torch.randn(6, 4)
    y = torch.randint(0, 2, (6,))
    loader = DataLoader(TensorDataset(x, y), batch_size=2, shuffle=False)
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()

    for i, (inputs, labels) in enumerate(loader):
        output = model(inputs)
        loss = criterion(output, labels) / ACCUM
        loss.backward()
        if (i + 1) % ACCUM != 0:
            continue
        optimizer.step()
        optimizer.zero_grad()
        print(f"update after micro-batch {i}, loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
