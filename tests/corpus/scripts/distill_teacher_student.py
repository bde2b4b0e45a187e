"""Knowledge distillation: a teacher in eval mode guides a student whose
parameters are split into two optimizer groups (no weight decay on biases).
The teacher is called first in the loop; the student is what is trained."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def build_mlp(width):
    return nn.Sequential(nn.Linear(8, width), nn.ReLU(), nn.Linear(width, 4))


def param_groups(module, weight_decay):
    decay, no_decay = [], []
    for name, p in module.named_parameters():
        (no_decay if name.endswith("bias") else decay).append(p)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--temperature", type=float, default=2.0)
    args = parser.parse_args()

    teacher = build_mlp(64)
    teacher.eval()
    student = build_mlp(16)
    groups = param_groups(student, 0.05)
    optimizer = torch.optim.SGD(groups, lr=0.1, momentum=0.9)
    data = [(torch.randn(16, 8), torch.randint(0, 4, (16,))) for _ in range(4)]

    for epoch in range(args.epochs):
        for x, y in data:
            with torch.no_grad():
                soft = F.softmax(teacher(x) / args.temperature, dim=-1)
            logits = student(x)
            kd = F.kl_div(F.log_softmax(logits / args.temperature, dim=-1), soft, reduction="batchmean")
            loss = kd + F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
