"""Tiny training script used by the Neovim end-to-end test."""
import torch
from msprobe.pytorch import PrecisionDebugger
from torch import nn

model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(3)]
note = "模型"; model = torch.compile(model)

for inputs, targets in loader:
    debugger = PrecisionDebugger(config_path="./config.json")
    optimizer.zero_grad()
    loss = ((model(inputs) - targets) ** 2).mean()
    loss.backward()
    optimizer.step()
