"""Batch prediction with a trained checkpoint under ``torch.inference_mode()``.

Reads a checkpoint if one exists, otherwise uses random weights, and writes
the predicted class of every sample to a CSV file.
"""
import argparse
import csv
import logging
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("predict")


def build_model(num_classes=7):
    return nn.Sequential(
        nn.Conv1d(12, 64, kernel_size=7, padding=3), nn.ReLU(),
        nn.Conv1d(64, 64, kernel_size=5, padding=2), nn.ReLU(),
        nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        nn.Linear(64, num_classes),
    )


def load(model, path):
    if os.path.exists(path):
        state = torch.load(path, map_location="cpu")
        model.load_state_dict(state)
        logger.info("loaded %s", path)
    else:
        logger.warning("checkpoint %s not found, using random weights", path)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", default="ecg_cnn.pt")
    parser.add_argument("--output", default="predictions.csv")
    parser.add_argument("--batch-size", type=int, default=128)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    signals = torch.randn(1000, 12, 500)
    loader = DataLoader(TensorDataset(signals), batch_size=args.batch_size)
    model = load(build_model(), args.checkpoint).to(device)
    model.eval()

    predictions = []
    with torch.inference_mode():
        for (batch,) in loader:
            out = model(batch.to(device))
            predictions.extend(out.argmax(dim=-1).tolist())

    with open(args.output, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["index", "label"])
        writer.writerows(enumerate(predictions))
    logger.info("wrote %d predictions to %s", len(predictions), args.output)


if __name__ == "__main__":
    main()
