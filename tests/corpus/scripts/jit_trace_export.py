"""Train a keyword-spotting CNN, then trace the trained model with
``torch.jit.trace`` for deployment."""
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("kws")


class KWS(nn.Module):
    def __init__(self, n_mels=40, classes=12):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(),
                                  nn.Conv1d(64, 64, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(64, classes)

    def forward(self, mel):
        return self.fc(self.conv(mel).mean(dim=-1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--export", default="kws_traced.pt")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    mels = torch.randn(1200, 40, 101)
    labels = torch.randint(0, 12, (1200,))
    loader = DataLoader(TensorDataset(mels, labels), batch_size=48, shuffle=True)
    model = KWS()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        for mel, label in loader:
            optimizer.zero_grad()
            loss = criterion(model(mel), label)
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())

    model.eval()
    traced = torch.jit.trace(model, torch.randn(1, 40, 101))
    traced.save(args.export)
    logger.info("exported TorchScript model to %s", args.export)


if __name__ == "__main__":
    main()
