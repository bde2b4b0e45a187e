"""Offline batched generation with vLLM's ``LLM`` entry point.

Prompts are read from a text file (one per line) and generated in chunks.
"""
import argparse
import json
import logging

from vllm import LLM, SamplingParams

logger = logging.getLogger("offline")


def read_prompts(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [line.strip() for line in f if line.strip()]
    except FileNotFoundError:
        logger.warning("%s not found, using built-in prompts", path)
        return ["Hello, my name is", "The capital of France is", "The future of AI is"]


def chunks(items, size):
    for start in range(0, len(items), size):
        yield items[start:start + size]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="Qwen/Qwen2.5-0.5B-Instruct")
    parser.add_argument("--prompts", default="prompts.txt")
    parser.add_argument("--chunk-size", type=int, default=16)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--output", default="generations.jsonl")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    llm = LLM(model=args.model, dtype="float16", tensor_parallel_size=1, enforce_eager=True)
    sampling_params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=args.max_tokens)
    prompts = read_prompts(args.prompts)

    with open(args.output, "w", encoding="utf-8") as out:
        for batch in chunks(prompts, args.chunk_size):
            outputs = llm.generate(batch, sampling_params)
            for output in outputs:
                record = {"prompt": output.prompt, "text": output.outputs[0].text}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    logger.info("wrote %d generations to %s", len(prompts), args.output)


if __name__ == "__main__":
    main()
