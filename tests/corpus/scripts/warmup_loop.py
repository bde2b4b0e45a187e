"""Throughput benchmark of a training step: a few warm-up iterations run
first (allocator, cudnn autotune), then the timed training loop."""
import argparse
import logging
import time

import torch
import torch.nn as nn

logger = logging.getLogger("bench")


def make_model():
    layers = []
    for _ in range(6):
        layers += [nn.Linear(1024, 1024), nn.ReLU()]
    return nn.Sequential(*layers, nn.Linear(1024, 10))


def synchronize():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = make_model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    criterion = nn.CrossEntropyLoss()
    x = torch.randn(args.batch_size, 1024, device=device)
    y = torch.randint(0, 10, (args.batch_size,), device=device)

    # warm-up: same work as a real step, results are thrown away
    for _ in range(args.warmup):
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    synchronize()

    start = time.perf_counter()
    for it in range(args.iters):
        optimizer.zero_grad()
        out = model(x)
        loss = criterion(out, y)
        loss.backward()
        optimizer.step()
        if it % 20 == 0:
            logger.info("iter %d loss %.4f", it, loss.item())
    synchronize()
    elapsed = time.perf_counter() - start
    logger.info("%.1f samples/s", args.iters * args.batch_size / elapsed)


if __name__ == "__main__":
    main()
