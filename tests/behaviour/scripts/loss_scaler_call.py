"""The backward and the step run inside a callable handed the loss and the
optimizer, in the style of timm's NativeScaler."""
# behaviour: iterations=3
import torch
import torch.nn as nn


class LossScaler:
    def __call__(self, loss, optimizer, parameters=None, clip_grad=None):
        loss.backward()
        if clip_grad is not None:
            nn.utils.clip_grad_norm_(parameters, clip_grad)
        optimizer.step()


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_scaler = LossScaler()
    x = torch.randn(3, 8, 4)
    for i in range(3):
        loss = model(x[i]).pow(2).mean()
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, parameters=model.parameters(), clip_grad=1.0)
        print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
