"""Train/validate loop: the validation pass runs under ``model.eval()`` and ``torch.no_grad()``."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

logger = logging.getLogger(__name__)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(40, 128)
        self.bn = nn.BatchNorm1d(128)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(128, 5)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.bn(self.fc1(x)))))


def train_one_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    return loss.item()


def evaluate(model, loader):
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x).argmax(dim=1)
            correct += (pred == y).sum().item()
            total += y.numel()
    return correct / max(total, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--patience", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    full = TensorDataset(torch.randn(3000, 40), torch.randint(0, 5, (3000,)))
    train_set, val_set = random_split(full, [2500, 500], generator=torch.Generator().manual_seed(1))
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=256)
    model = Net()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    best, bad_epochs = 0.0, 0
    for epoch in range(args.epochs):
        last_loss = train_one_epoch(model, train_loader, optimizer)
        acc = evaluate(model, val_loader)
        logger.info("epoch %d loss %.4f val_acc %.4f", epoch, last_loss, acc)
        if acc > best:
            best, bad_epochs = acc, 0
            torch.save(model.state_dict(), "best.pt")
        else:
            bad_epochs += 1
            if bad_epochs >= args.patience:
                logger.info("early stopping")
                break


if __name__ == "__main__":
    main()
