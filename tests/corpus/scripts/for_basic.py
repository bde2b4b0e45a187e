"""Fit a small MLP on synthetic regression data.

A deliberately flat script (no functions around the loop), the way many
quick experiments and notebook exports look.

    python for_basic.py --batch-size 64 --lr 1e-3
"""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
logger = logging.getLogger("for_basic")

parser = argparse.ArgumentParser(description="Synthetic regression with an MLP")
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("--samples", type=int, default=4096)
parser.add_argument("--log-interval", type=int, default=10)
parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
args = parser.parse_args()

torch.manual_seed(0)
device = torch.device(args.device)

# y = x @ w + noise
true_w = torch.randn(32, 1)
features = torch.randn(args.samples, 32)
targets = features @ true_w + 0.1 * torch.randn(args.samples, 1)
loader = DataLoader(TensorDataset(features, targets), batch_size=args.batch_size,
                    shuffle=True, drop_last=True)

model = nn.Sequential(
    nn.Linear(32, 128),
    nn.ReLU(),
    nn.Linear(128, 1),
).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

model.train()
seen = 0
for batch in loader:
    x, y = batch[0].to(device), batch[1].to(device)
    optimizer.zero_grad()
    pred = model(x)
    loss = F.mse_loss(pred, y)
    loss.backward()
    optimizer.step()
    seen += 1
    if seen % args.log_interval == 0:
        logger.info("batch %d loss %.5f", seen, loss.item())

torch.save(model.state_dict(), "regressor.pt")
logger.info("saved regressor.pt after %d batches", seen)
