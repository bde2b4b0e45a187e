"""Ascend NPU inference in torchair graph mode (GE backend via torch.compile)."""
import argparse
import logging

import torch
import torch_npu  # noqa: F401  (registers the NPU device)
import torchair
from torchair.configs.compiler_config import CompilerConfig

logger = logging.getLogger("torchair_infer")


class MLPHead(torch.nn.Module):
    def __init__(self, dim=1024, classes=1000):
        super().__init__()
        self.fc1 = torch.nn.Linear(dim, 4 * dim)
        self.act = torch.nn.GELU()
        self.fc2 = torch.nn.Linear(4 * dim, classes)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def build_compiled(model, dynamic):
    config = CompilerConfig()
    config.mode = "max-autotune"
    npu_backend = torchair.get_npu_backend(compiler_config=config)
    return torch.compile(model, backend=npu_backend, dynamic=dynamic)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--dynamic", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    device = torch.device("npu:0")
    model = MLPHead().to(device).eval()
    compiled = build_compiled(model, args.dynamic)

    with torch.no_grad():
        for i in range(args.batches):
            x = torch.randn(args.batch_size, 1024, device=device)
            logits = compiled(x)
            top1 = logits.argmax(dim=-1)
            logger.info("batch %d first prediction %d", i, top1[0].item())


if __name__ == "__main__":
    main()
