"""A model module that binds a torch function by name when it is imported."""
import torch.nn as nn
from torch.nn.functional import softmax


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return softmax(self.fc(x), dim=-1)
