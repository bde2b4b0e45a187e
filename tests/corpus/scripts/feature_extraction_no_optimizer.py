"""Extract embeddings with a frozen encoder and store them with numpy.

There is no optimizer and no backward pass: the script only runs forward.
"""
import argparse
import logging
import os

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

logger = logging.getLogger("extract")


class Patches(Dataset):
    def __init__(self, n=600):
        self.images = torch.rand(n, 3, 64, 64)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i]


class Encoder(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 32, 5, stride=2), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.proj = nn.Linear(64, dim)

    def forward(self, x):
        return self.proj(self.conv(x).flatten(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out-dir", default="features")
    parser.add_argument("--batch-size", type=int, default=50)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    encoder = Encoder()
    for p in encoder.parameters():
        p.requires_grad_(False)
    encoder.eval()
    loader = DataLoader(Patches(), batch_size=args.batch_size, num_workers=0)

    chunks = []
    with torch.no_grad():
        for images in loader:
            feats = encoder(images)
            chunks.append(feats.cpu().numpy())

    os.makedirs(args.out_dir, exist_ok=True)
    features = np.concatenate(chunks)
    np.save(os.path.join(args.out_dir, "features.npy"), features)
    logger.info("saved %s features", features.shape)


if __name__ == "__main__":
    main()
