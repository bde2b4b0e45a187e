"""Starts one training process per rank with torch.multiprocessing.spawn."""
import torch.multiprocessing as mp

from worker import main_worker

WORLD_SIZE = 2

if __name__ == "__main__":
    mp.spawn(main_worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
