"""The training loop, kept apart from the model and the launch script."""
import time

import torch


class Trainer:
    def __init__(self, model, dataset, max_iters=3, batch_size=4):
        self.model = model
        self.dataset = dataset
        self.max_iters = max_iters
        self.batch_size = batch_size
        self.iter_num = 0
        self.callbacks = []

    def add_callback(self, fn):
        self.callbacks.append(fn)

    def run(self):
        model = self.model
        self.optimizer = model.configure_optimizers(lr=1e-3)
        loader = torch.utils.data.DataLoader(self.dataset, batch_size=self.batch_size)
        data_iter = iter(loader)
        model.train()
        self.iter_time = time.time()
        while True:
            try:
                batch = next(data_iter)
            except StopIteration:
                data_iter = iter(loader)
                batch = next(data_iter)
            x, y = batch
            logits, self.loss = model(x, y)
            model.zero_grad(set_to_none=True)
            self.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            self.optimizer.step()
            for cb in self.callbacks:
                cb(self)
            self.iter_num += 1
            if self.iter_num >= self.max_iters:
                break
