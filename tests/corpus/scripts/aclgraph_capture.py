"""Capture an inference forward once as an NPU graph (aclgraph) and replay it per batch."""
import argparse
import logging

import torch
import torch_npu  # noqa: F401

logger = logging.getLogger("aclgraph")


def build_model(dim):
    return torch.nn.Sequential(
        torch.nn.Linear(dim, dim), torch.nn.SiLU(),
        torch.nn.Linear(dim, dim), torch.nn.SiLU(),
        torch.nn.Linear(dim, 8),
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=2048)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--batches", type=int, default=50)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    device = torch.device("npu")
    model = build_model(args.dim).to(device).eval()
    static_in = torch.randn(args.batch_size, args.dim, device=device)

    # warm up on a side stream before capture, as graph capture requires
    side = torch.npu.Stream()
    side.wait_stream(torch.npu.current_stream())
    with torch.no_grad(), torch.npu.stream(side):
        for _ in range(3):
            static_out = model(static_in)
    torch.npu.current_stream().wait_stream(side)

    graph = torch.npu.NPUGraph()
    with torch.no_grad(), torch.npu.graph(graph):
        static_out = model(static_in)

    results = []
    for _ in range(args.batches):
        batch = torch.randn(args.batch_size, args.dim, device=device)
        static_in.copy_(batch)
        graph.replay()
        results.append(static_out.argmax(dim=-1).cpu())
    logger.info("replayed %d batches", len(results))


if __name__ == "__main__":
    main()
