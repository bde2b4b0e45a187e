"""msProbe constructed too late: the model, optimizer and a warm-up forward
already ran before ``PrecisionDebugger(...)``, so some APIs are not hooked."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from msprobe.pytorch import PrecisionDebugger, seed_all

logger = logging.getLogger("late")


class ConvClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 14 * 14, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=100)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    model = ConvClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    with torch.no_grad():
        model(torch.zeros(1, 1, 28, 28))  # shape check

    seed_all()
    debugger = PrecisionDebugger(config_path="./config.json")

    for it in range(args.iters):
        images = torch.randn(16, 1, 28, 28)
        labels = torch.randint(0, 10, (16,))
        debugger.start(model)
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        debugger.stop()
        debugger.step()
        if it % 20 == 0:
            logger.info("iter %d loss %.4f", it, loss.item())


if __name__ == "__main__":
    main()
