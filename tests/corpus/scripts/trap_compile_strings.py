"""Training script that only *talks* about torch.compile.

# NOTE: we used to call torch.compile(model) here, but it was removed because
# msProbe cannot dump Dynamo graphs. Do not re-enable @torch.compile either.
"""
import argparse
import logging
import re

import torch
import torch.nn as nn

logger = logging.getLogger("nocompile")
CKPT_PATTERN = re.compile(r"step_(\d+)\.pt$")
HELP_COMPILE = "torch.compile is disabled in this script; the flag is kept for old launchers"


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compile", action="store_true", help=HELP_COMPILE)
    parser.add_argument("--steps", type=int, default=200)
    return parser.parse_args()


def latest_step(names):
    steps = [int(m.group(1)) for m in map(CKPT_PATTERN.search, names) if m]
    return max(steps, default=0)


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO)
    compile = args.compile  # shadows the builtin on purpose, kept for launcher compatibility
    if compile:
        logger.warning("'torch.compile(model)' was requested but is ignored")

    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 16))
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    start = latest_step(["step_10.pt", "step_20.pt"])

    for step in range(start, start + args.steps):
        x = torch.randn(32, 16)
        y = model(x)  # plain eager call, no torch.compile
        loss = (y - x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            logger.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
