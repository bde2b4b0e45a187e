"""Training with a background prefetcher that moves batches to the device
ahead of time. The prefetch thread's loop is not a training loop."""
import argparse
import logging
import queue
import threading

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("prefetch")


class Prefetcher:
    """Iterate over ``loader`` in a daemon thread, keeping ``depth`` batches ready."""

    _END = object()

    def __init__(self, loader, device, depth=2):
        self.loader, self.device = loader, device
        self.queue = queue.Queue(maxsize=depth)
        self.thread = threading.Thread(target=self._worker, daemon=True)
        self.thread.start()

    def _worker(self):
        for batch in self.loader:
            moved = [t.to(self.device, non_blocking=True) for t in batch]
            self.queue.put(moved)
        self.queue.put(self._END)

    def __iter__(self):
        while True:
            item = self.queue.get()
            if item is self._END:
                return
            yield item


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = TensorDataset(torch.randn(3200, 100), torch.randint(0, 4, (3200,)))
    loader = DataLoader(data, batch_size=32, shuffle=True, pin_memory=torch.cuda.is_available())
    model = nn.Sequential(nn.Linear(100, 200), nn.ReLU(), nn.Linear(200, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()

    for step, (inputs, targets) in enumerate(Prefetcher(loader, device, args.depth)):
        output = model(inputs)
        loss = criterion(output, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 25 == 0:
            logger.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
