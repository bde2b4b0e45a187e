from .train_loop import HookBase, TrainerBase
from .simple import SimpleTrainer

__all__ = ["HookBase", "TrainerBase", "SimpleTrainer"]
