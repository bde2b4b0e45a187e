"""Tiny batched inference under ``torch.no_grad()`` (no optimizer, no backward)."""
# behaviour: iterations=3
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.randn(9, 4)), batch_size=3, shuffle=False)
    model = nn.Linear(4, 2)
    model.eval()
    predictions = []
    with torch.no_grad():
        for (inputs,) in loader:
            output = model(inputs)
            predictions.extend(output.argmax(dim=1).tolist())
    print(f"predicted {len(predictions)} samples: {predictions}")


if __name__ == "__main__":
    main()
