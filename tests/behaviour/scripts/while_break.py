"""Tiny training with ``while True`` and a ``break`` after MAX_STEPS steps."""
# behaviour: iterations=3
import torch
import torch.nn as nn

MAX_STEPS = 3


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    step = 0
    while True:
        inputs = torch.randn(4, 4)
        targets = torch.randn(4, 1)
        output = model(inputs)
        loss = (output - targets).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        print(f"step {step} loss {loss.item():.4f}")
        if step >= MAX_STEPS:
            break


if __name__ == "__main__":
    main()
