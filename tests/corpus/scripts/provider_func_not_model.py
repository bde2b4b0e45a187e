"""Megatron-style set-up: the model is built by a provider function handed
in as an argument, chunk by chunk; the training loop comes later."""
import argparse

import torch
import torch.nn as nn


def model_provider(pre_process=True):
    layers = [nn.Linear(8, 8)] if pre_process else []
    return nn.Sequential(*layers, nn.Linear(8, 1))


def build(model_provider_func, n):
    chunks = []
    for i in range(n):
        chunks.append(model_provider_func(pre_process=i == 0))
    return chunks


def pretrain(args):
    model = build(model_provider, args.chunks)[0]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(args.steps):
        x = torch.randn(4, 8)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3)
    pretrain(parser.parse_args())
