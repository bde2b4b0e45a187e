"""Launch a verl PPO run (GSM8K-style) from Python instead of the CLI.

verl builds its own Ray workers; msProbe is enabled there through the
``global_profiler`` config, not by editing this file.
"""
import argparse
import logging
import os

from hydra import compose, initialize_config_module
from omegaconf import OmegaConf
from verl.trainer import main_ppo

logger = logging.getLogger("launch_ppo")


def build_overrides(args):
    """Translate our small CLI into verl's Hydra overrides."""
    return [
        f"data.train_files={args.train_files}",
        f"data.val_files={args.val_files}",
        f"data.train_batch_size={args.batch_size}",
        "data.max_prompt_length=512",
        "data.max_response_length=256",
        f"actor_rollout_ref.model.path={args.model}",
        "actor_rollout_ref.actor.optim.lr=1e-6",
        "actor_rollout_ref.actor.ppo_mini_batch_size=64",
        "actor_rollout_ref.rollout.name=vllm",
        "actor_rollout_ref.rollout.tensor_model_parallel_size=1",
        f"critic.model.path={args.model}",
        "algorithm.adv_estimator=gae",
        f"trainer.n_gpus_per_node={args.gpus}",
        "trainer.nnodes=1",
        f"trainer.total_epochs={args.epochs}",
        "trainer.logger=['console']",
        f"trainer.default_local_dir={args.output}",
    ]


def main():
    parser = argparse.ArgumentParser(description="Run verl PPO")
    parser.add_argument("--model", default="Qwen/Qwen2.5-0.5B-Instruct")
    parser.add_argument("--train-files", default=os.path.expanduser("~/data/gsm8k/train.parquet"))
    parser.add_argument("--val-files", default=os.path.expanduser("~/data/gsm8k/test.parquet"))
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--gpus", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--output", default="checkpoints/ppo")
    parser.add_argument("--dry-run", action="store_true", help="print the config and exit")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    with initialize_config_module(config_module="verl.trainer.config", version_base=None):
        config = compose(config_name="ppo_trainer", overrides=build_overrides(args))
    if args.dry_run:
        print(OmegaConf.to_yaml(config))
        return
    logger.info("starting PPO with %s", args.model)
    main_ppo.run_ppo(config)


if __name__ == "__main__":
    main()
