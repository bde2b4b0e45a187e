"""Tiny training whose exit shares a line with its test (``if ...: break``),
so the dump's stop()/step() can only go in a try/finally around the body."""
# behaviour: iterations=3
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step = 0
    while True:
        step += 1
        loss = model(torch.randn(4, 4)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step >= 3: break


if __name__ == "__main__":
    main()
