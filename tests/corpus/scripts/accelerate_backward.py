"""Sequence classification fine-tuning with Hugging Face Accelerate.

``accelerator.backward(loss)`` replaces ``loss.backward()`` so the same
script runs on CPU, one GPU, DDP or mixed precision.
"""
import argparse
import logging

import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger(__name__)


class TextCNN(nn.Module):
    def __init__(self, vocab=30522, dim=128, num_labels=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.conv = nn.Conv1d(dim, dim, kernel_size=3, padding=1)
        self.cls = nn.Linear(dim, num_labels)

    def forward(self, input_ids):
        h = self.emb(input_ids).transpose(1, 2)
        h = torch.relu(self.conv(h)).max(dim=-1).values
        return self.cls(h)


def training_function(args):
    accelerator = Accelerator(mixed_precision=args.mixed_precision,
                              gradient_accumulation_steps=args.grad_accum)
    set_seed(args.seed)
    ids = torch.randint(1, 30522, (2000, 128))
    labels = torch.randint(0, 2, (2000,))
    train_dataloader = DataLoader(TensorDataset(ids, labels), batch_size=args.batch_size, shuffle=True)

    model = TextCNN()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    lr_scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=1.0, end_factor=0.0,
                                                     total_iters=len(train_dataloader) * args.epochs)
    model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_dataloader, lr_scheduler
    )
    loss_fct = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        for step, (input_ids, targets) in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                logits = model(input_ids)
                loss = loss_fct(logits, targets)
                accelerator.backward(loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
            if step % 20 == 0:
                accelerator.print(f"epoch {epoch} step {step} loss {loss.item():.4f}")

    accelerator.wait_for_everyone()
    unwrapped = accelerator.unwrap_model(model)
    accelerator.save(unwrapped.state_dict(), args.output)


def main():
    parser = argparse.ArgumentParser(description="Simple example of a training script with Accelerate.")
    parser.add_argument("--mixed-precision", choices=["no", "fp16", "bf16"], default="no")
    parser.add_argument("--grad-accum", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=2e-5)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--output", default="textcnn.bin")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    training_function(args)


if __name__ == "__main__":
    main()
