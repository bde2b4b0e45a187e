"""msProbe wired in behind a flag, with the import inside main(); an
evaluation loop follows the training loop."""
import os

import torch
import torch.nn as nn

DO_MSPROBE = os.environ.get("DO_MSPROBE", "0") == "1"


def evaluate(model, data):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in data:
            total += nn.functional.mse_loss(model(x), y).item()
    return total / len(data)


def main():
    if DO_MSPROBE:
        from msprobe.pytorch import PrecisionDebugger

        debugger = PrecisionDebugger(config_path="./config.json")
    model = nn.Linear(8, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    data = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(4)]
    for x, y in data:
        if DO_MSPROBE:
            debugger.start(model)
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if DO_MSPROBE:
            debugger.stop()
            debugger.step()
    print(evaluate(model, data))


if __name__ == "__main__":
    main()
