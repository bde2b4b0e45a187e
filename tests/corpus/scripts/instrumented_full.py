"""Sentiment classifier training with the msProbe dump fully wired in,
following the documented pattern (import, seed_all, debugger right after the
imports, start/stop/step around every iteration)."""
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from msprobe.pytorch import seed_all, PrecisionDebugger

seed_all(seed=1234, mode=True)
debugger = PrecisionDebugger(config_path="./config.json")

logger = logging.getLogger("sentiment")


class LSTMClassifier(nn.Module):
    def __init__(self, vocab=10000, dim=128, hidden=128, classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        _, (h, _) = self.lstm(self.embedding(x))
        return self.fc(h[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    data = TensorDataset(torch.randint(0, 10000, (640, 50)), torch.randint(0, 2, (640,)))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=False)
    model = LSTMClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        for tokens, labels in loader:
            debugger.start(model)
            logits = model(tokens)
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            debugger.stop()
            debugger.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
