"""A resume-style guard first in the body: the first two iterations are
skipped before any model work, the last one stops the loop."""
# behaviour: iterations=3
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    resume_step, max_steps = 2, 5
    x = torch.randn(6, 8, 4)
    for step in range(6):
        if step < resume_step:
            continue
        if step >= max_steps:
            break
        loss = model(x[step]).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
