"""The generic loop: subclasses say what one iteration does."""
import logging

logger = logging.getLogger(__name__)


class HookBase:
    def before_step(self):
        pass

    def after_step(self):
        pass


class TrainerBase:
    def __init__(self):
        self._hooks = []
        self.iter = 0

    def register_hooks(self, hooks):
        self._hooks.extend(hooks)

    def train(self, start_iter, max_iter):
        logger.info("Starting training from iteration %d", start_iter)
        self.iter = start_iter
        for self.iter in range(start_iter, max_iter):
            self.before_step()
            self.run_step()
            self.after_step()

    def before_step(self):
        for h in self._hooks:
            h.before_step()

    def after_step(self):
        for h in self._hooks:
            h.after_step()

    def run_step(self):
        raise NotImplementedError
