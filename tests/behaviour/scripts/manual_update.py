"""Plain SGD written by hand: no optimizer object, the update reads p.grad."""
# behaviour: iterations=3
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    lr = 0.05
    x = torch.randn(3, 8, 4)
    y = x.sum(dim=2, keepdim=True)
    for i in range(3):
        loss = ((model(x[i]) - y[i]) ** 2).mean()
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.data.add_(-lr * p.grad)
        print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
