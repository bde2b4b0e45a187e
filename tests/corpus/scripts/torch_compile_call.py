"""Vision transformer-ish training sped up with ``torch.compile(model)``."""
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("vit")


class PatchEmbed(nn.Module):
    def __init__(self, patch=4, dim=192):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class TinyViT(nn.Module):
    def __init__(self, dim=192, depth=4, heads=3, classes=10):
        super().__init__()
        self.embed = PatchEmbed(dim=dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.embed(x)
        x = torch.cat([self.cls_token.expand(x.size(0), -1, -1), x], dim=1)
        return self.head(self.blocks(x)[:, 0])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--compile-mode", default="default")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    loader = DataLoader(TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,))),
                        batch_size=64, shuffle=True)
    model = TinyViT()
    model = torch.compile(model, mode=args.compile_mode)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)

    for epoch in range(args.epochs):
        for images, labels in loader:
            loss = criterion(model(images), labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
