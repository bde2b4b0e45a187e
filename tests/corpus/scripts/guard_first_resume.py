"""Resumable fine-tuning: the loop body starts with guards that skip the
batches already seen before a resume and stop at max_steps. The guarded
iterations do no model work."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build(args):
    x = torch.randn(64, 10)
    y = (x.sum(dim=1) > 0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=False)
    model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    return loader, model, optimizer


def train(args):
    loader, model, optimizer = build(args)
    criterion = nn.CrossEntropyLoss()
    completed_steps = 0
    for step, (inputs, labels) in enumerate(loader):
        if args.resume_step and step < args.resume_step:
            continue
        if completed_steps >= args.max_train_steps:
            print("reached max_train_steps")
            break
        logits = model(inputs)
        loss = criterion(logits, labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        completed_steps += 1
    return completed_steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--resume_step", type=int, default=2)
    parser.add_argument("--max_train_steps", type=int, default=4)
    args = parser.parse_args()
    print("steps:", train(args))


if __name__ == "__main__":
    main()
