"""PyTorch-style code running on MindSpore through MSAdapter.

``msadapter.pytorch`` mirrors the torch API; gradients come from
MindSpore's ``value_and_grad``. The PyTorch dump does not apply here.
"""
import argparse
import logging

import mindspore as ms
import msadapter.pytorch as torch
import msadapter.pytorch.nn as nn
from msadapter.pytorch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("msa")


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 10)

    def forward(self, x):
        x = nn.functional.max_pool2d(nn.functional.relu(self.conv1(x)), 2)
        x = nn.functional.max_pool2d(nn.functional.relu(self.conv2(x)), 2)
        return self.fc2(nn.functional.relu(self.fc1(x.flatten(1))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.01)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    ms.set_context(mode=ms.PYNATIVE_MODE)

    data = TensorDataset(torch.randn(512, 1, 28, 28), torch.randint(0, 10, (512,)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    net = LeNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9)

    def forward_fn(inputs, labels):
        logits = net(inputs)
        return criterion(logits, labels), logits

    grad_fn = ms.ops.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(inputs, labels):
        (loss, _), grads = grad_fn(inputs, labels)
        optimizer(grads)
        return loss

    net.train()
    for epoch in range(args.epochs):
        for i, (inputs, labels) in enumerate(loader):
            loss = train_step(inputs, labels)
            if i % 4 == 0:
                logger.info("epoch %d iter %d loss %.4f", epoch, i, loss.item())


if __name__ == "__main__":
    main()
