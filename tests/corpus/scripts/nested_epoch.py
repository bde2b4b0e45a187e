"""Image classification on CIFAR-sized random tensors with an epoch loop around the batch loop."""
import argparse
import logging
import math

import torch
import torch.nn as nn
from torch.utils.data import (
    DataLoader,
    TensorDataset,
)

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger(__name__)


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class SmallResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = conv_block(3, 32)
        self.block1 = conv_block(32, 32)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(32, num_classes)

    def forward(self, x):
        x = self.stem(x)
        x = x + self.block1(x)
        return self.head(torch.flatten(self.pool(x), 1))


def build_loader(batch_size):
    images = torch.randn(1024, 3, 32, 32)
    labels = torch.randint(0, 10, (1024,))
    return DataLoader(TensorDataset(images, labels), batch_size=batch_size, shuffle=True, num_workers=0)


def main(args):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    loader = build_loader(args.batch_size)
    model = SmallResNet().to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)

    steps_per_epoch = math.ceil(len(loader.dataset) / args.batch_size)
    for epoch in range(args.epochs):
        running_loss = 0.0
        for x, y in loader:
            x = x.to(device, non_blocking=True)
            y = y.to(device, non_blocking=True)
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        logger.info("epoch %d: mean loss %.4f", epoch, running_loss / steps_per_epoch)

    torch.save({"model": model.state_dict(), "epochs": args.epochs}, args.output)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--output", default="small_resnet.pt")
    main(parser.parse_args())
