"""Mixed-precision training with ``torch.cuda.amp`` autocast and GradScaler."""
import argparse
import logging
import os

import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("amp")


def make_model(width):
    return nn.Sequential(
        nn.Linear(512, width), nn.ReLU(),
        nn.Linear(width, width), nn.ReLU(),
        nn.Linear(width, 100),
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int, default=2048)
    parser.add_argument("--no-amp", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    use_amp = torch.cuda.is_available() and not args.no_amp
    device = "cuda" if torch.cuda.is_available() else "cpu"
    loader = DataLoader(TensorDataset(torch.randn(4096, 512), torch.randint(0, 100, (4096,))),
                        batch_size=256, shuffle=True)
    net = make_model(args.width).to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    scaler = GradScaler(enabled=use_amp)

    for inputs, target in loader:
        inputs, target = inputs.to(device), target.to(device)
        with autocast(enabled=use_amp):
            output = net(inputs)
            loss = loss_fn(output, target)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=5.0)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)

    os.makedirs("out", exist_ok=True)
    torch.save({"net": net.state_dict(), "scaler": scaler.state_dict()}, "out/amp.pt")
    logger.info("saved out/amp.pt")


if __name__ == "__main__":
    main()
