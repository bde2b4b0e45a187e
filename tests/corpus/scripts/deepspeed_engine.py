"""DeepSpeed ZeRO training: the engine wraps model and optimizer.

Launch with ``deepspeed deepspeed_engine.py --deepspeed_config ds_config.json``.
"""
import argparse
import logging

import deepspeed
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset

logger = logging.getLogger("ds_train")


class FeedForward(nn.Module):
    def __init__(self, dim=1024, hidden=4096, classes=1000):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        return self.head(self.norm(x + self.net(x)))


def get_args():
    parser = argparse.ArgumentParser(description="DeepSpeed training")
    parser.add_argument("--local_rank", type=int, default=-1, help="passed by the launcher")
    parser.add_argument("--epochs", type=int, default=1)
    parser = deepspeed.add_config_arguments(parser)
    return parser.parse_args()


def main():
    args = get_args()
    logging.basicConfig(level=logging.INFO)
    deepspeed.init_distributed()

    dataset = TensorDataset(torch.randn(8192, 1024), torch.randint(0, 1000, (8192,)))
    model = FeedForward()
    parameters = filter(lambda p: p.requires_grad, model.parameters())
    engine, optimizer, trainloader, _ = deepspeed.initialize(
        args=args, model=model, model_parameters=parameters, training_data=dataset
    )
    criterion = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        for i, (inputs, labels) in enumerate(trainloader):
            inputs = inputs.to(engine.local_rank)
            labels = labels.to(engine.local_rank)
            outputs = engine(inputs)
            loss = criterion(outputs, labels)
            engine.backward(loss)
            engine.step()
            if engine.global_rank == 0 and i % 50 == 0:
                logger.info("epoch %d iter %d loss %.4f", epoch, i, loss.item())

    engine.save_checkpoint("checkpoints", tag=f"epoch{args.epochs}")


if __name__ == "__main__":
    main()
