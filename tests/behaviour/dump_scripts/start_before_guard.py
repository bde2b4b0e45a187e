"""start() placed before a guard at the top of the loop body: the guarded
iteration still opens (and ends) a step that records nothing."""
import torch
import torch.nn as nn
from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all()
debugger = PrecisionDebugger(config_path="./config.json")
model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(3):
    debugger.start(model)
    if i == 1:  # e.g. a skipped batch
        debugger.stop()
        debugger.step()
        continue
    loss = model(torch.randn(8, 4)).sum()
    loss.backward()
    optimizer.step()
    debugger.stop()
    debugger.step()
