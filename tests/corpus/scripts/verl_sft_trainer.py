"""A one-file FSDP supervised fine-tuning trainer in the style of verl's SFT
trainer: a plain eager loop (no Ray, no rollout), built on verl's utilities."""
import os

os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")

import torch
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.utils.data import DataLoader
from verl.utils.dataset import SFTDataset
from verl.utils.distributed import initialize_global_process_group
from verl.utils.tracking import Tracking


class SFTTrainer:
    def __init__(self, config, model, dataset):
        self.config = config
        self.model = model
        self.fsdp_model = FSDP(module=self.model, use_orig_params=False)
        self.optimizer = torch.optim.AdamW(self.fsdp_model.parameters(), lr=config["lr"])
        self.train_dataloader = DataLoader(dataset, batch_size=config["batch_size"])
        self.loss_fct = nn.CrossEntropyLoss()

    def _compute_loss_and_backward(self, batch, do_backward=True):
        logits = self.fsdp_model(batch["input_ids"]).logits
        loss = self.loss_fct(logits.flatten(0, 1), batch["labels"].flatten())
        if do_backward:
            loss.backward()
        return loss

    def training_step(self, batch):
        self.fsdp_model.train()
        self.optimizer.zero_grad()
        micro_batches = [batch]
        step_loss = 0.0
        for micro_batch in micro_batches:
            loss = self._compute_loss_and_backward(micro_batch) / len(micro_batches)
            step_loss += loss.item()
        self.fsdp_model.clip_grad_norm_(max_norm=1.0)
        self.optimizer.step()
        return {"train/loss": step_loss}

    def fit(self):
        tracking = Tracking(project_name=self.config["project"], default_backend="console")
        global_step = 0
        for epoch in range(self.config["epochs"]):
            for data in self.train_dataloader:
                metric = self.training_step(data)
                tracking.log(data=metric, step=global_step)
                global_step += 1


def main(config):
    initialize_global_process_group()
    dataset = SFTDataset(config["train_files"], tokenizer=None, config=config)
    model = nn.Transformer()
    trainer = SFTTrainer(config, model, dataset)
    trainer.fit()


if __name__ == "__main__":
    main({"lr": 1e-5, "batch_size": 4, "epochs": 1, "project": "sft", "train_files": "train.parquet"})
