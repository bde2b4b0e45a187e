"""Tiny training that returns from inside its loop after three updates."""
# behaviour: iterations=3
import torch
import torch.nn as nn


def train(max_updates):
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [torch.randn(4, 4) for _ in range(10)]
    for i, inputs in enumerate(batches):
        loss = model(inputs).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i + 1 == max_updates:
            return loss.item()
    return None


if __name__ == "__main__":
    print(train(3))
