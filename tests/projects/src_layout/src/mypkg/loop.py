"""Training utilities of the package."""
import torch
import torch.nn.functional as F


def fit(net, loader, optimizer, epochs=1):
    history = []
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = F.nll_loss(net(x), y)
            loss.backward()
            optimizer.step()
            history.append(loss.item())
    return history


def predict(net, x):
    with torch.no_grad():
        return net(x).argmax(-1)
