import torch.nn as nn


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(6, 3)

    def forward(self, x):
        return self.layer(x).log_softmax(-1)
