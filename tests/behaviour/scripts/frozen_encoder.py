"""A frozen encoder feeds a trained head: the head is what the optimizer trains."""
# behaviour: iterations=3
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    encoder = nn.Linear(4, 8)
    encoder.requires_grad_(False)
    head = nn.Linear(8, 1)
    optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
    x = torch.randn(3, 8, 4)
    for i in range(3):
        with torch.no_grad():
            features = encoder(x[i])
        loss = head(features).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
