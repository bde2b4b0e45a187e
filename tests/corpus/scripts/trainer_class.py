"""A small Trainer class in the style of many research codebases."""
import argparse
import logging
import os
from typing import Dict

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("trainer")


class ConvNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


class Trainer:
    """Owns model, optimizer and data; ``fit`` runs epochs of ``train_epoch``."""

    def __init__(self, model, train_loader, lr=1e-3, device="cpu", ckpt_dir="ckpt"):
        self.device = torch.device(device)
        self.model = model.to(self.device)
        self.train_loader = train_loader
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.ckpt_dir = ckpt_dir
        self.global_step = 0

    def train_epoch(self, epoch: int) -> Dict[str, float]:
        self.model.train()
        total, correct, loss_sum = 0, 0, 0.0
        for images, labels in self.train_loader:
            images, labels = images.to(self.device), labels.to(self.device)
            logits = self.model(images)
            loss = self.criterion(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.global_step += 1
            loss_sum += loss.item() * labels.size(0)
            correct += (logits.argmax(1) == labels).sum().item()
            total += labels.size(0)
        return {"epoch": epoch, "loss": loss_sum / total, "acc": correct / total}

    def save(self, name):
        os.makedirs(self.ckpt_dir, exist_ok=True)
        torch.save(self.model.state_dict(), os.path.join(self.ckpt_dir, name))

    def fit(self, epochs: int):
        for epoch in range(epochs):
            stats = self.train_epoch(epoch)
            logger.info("epoch %(epoch)d loss %(loss).4f acc %(acc).3f", stats)
            self.save(f"epoch_{epoch}.pt")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    data = TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,)))
    trainer = Trainer(ConvNet(), DataLoader(data, batch_size=64, shuffle=True), lr=args.lr)
    trainer.fit(args.epochs)


if __name__ == "__main__":
    main()
