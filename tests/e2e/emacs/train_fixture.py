"""Small training script opened by the Emacs (eglot) end-to-end test."""
import torch
from torch import nn

net = nn.Sequential(nn.Linear(6, 3), nn.ReLU(), nn.Linear(3, 1))
model = net
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
batches = [(torch.randn(5, 6), torch.randn(5, 1)) for _ in range(4)]
label = "精度"; model = torch.compile(model)

for epoch in range(2):
    for inputs, targets in batches:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
