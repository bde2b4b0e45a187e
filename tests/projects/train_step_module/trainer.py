"""The object that owns the model, the criterion and the optimizer, in the
style of fairseq's Trainer: the loop lives in the launch script."""
import torch


class Trainer:
    def __init__(self, model, criterion, optimizer):
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer
        self.num_updates = 0

    def train_step(self, samples):
        self.model.train()
        x, y = samples
        self.optimizer.zero_grad()
        output = self.model(x)
        loss = self.criterion(output, y)
        loss.backward()
        self.optimizer.step()
        self.num_updates += 1
        return loss.item()

    @torch.no_grad()
    def valid_step(self, samples):
        x, y = samples
        return self.criterion(self.model(x), y).item()
