"""A detectron2-style trainer in one file: the base class owns the loop,
the subclass says what one iteration does."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)


class TrainerBase:
    def __init__(self):
        self.iter = 0
        self.hooks = []

    def train(self, start_iter, max_iter):
        logger.info("training from %d", start_iter)
        for self.iter in range(start_iter, max_iter):
            self.before_step()
            self.run_step()
            self.after_step()

    def before_step(self):
        for h in self.hooks:
            h()

    def after_step(self):
        pass

    def run_step(self):
        raise NotImplementedError


class SimpleTrainer(TrainerBase):
    def __init__(self, model, data, optimizer):
        super().__init__()
        self.model = model
        self._data_iter = iter(data)
        self.optimizer = optimizer

    def run_step(self):
        x, y = next(self._data_iter)
        loss = F.mse_loss(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=3)
    args = parser.parse_args()
    model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    data = [(torch.randn(3, 2), torch.randn(3, 1)) for _ in range(args.iters)]
    trainer = SimpleTrainer(model, data, torch.optim.SGD(model.parameters(), lr=0.05))
    trainer.train(0, args.iters)


if __name__ == "__main__":
    main()
