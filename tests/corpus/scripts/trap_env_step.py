"""REINFORCE on CartPole (gym): ``env.step(action)`` is the environment,
not an optimizer; the policy update happens once per episode."""
import argparse
import logging
from itertools import count

import gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

logger = logging.getLogger("reinforce")


class Policy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.affine1 = nn.Linear(obs_dim, 128)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(128, n_actions)

    def forward(self, x):
        x = F.relu(self.dropout(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=1)


def discounted(rewards, gamma):
    returns, running = [], 0.0
    for r in reversed(rewards):
        running = r + gamma * running
        returns.insert(0, running)
    returns = torch.tensor(returns)
    return (returns - returns.mean()) / (returns.std() + np.finfo(np.float32).eps.item())


def main():
    parser = argparse.ArgumentParser(description="PyTorch REINFORCE example")
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--episodes", type=int, default=500)
    parser.add_argument("--seed", type=int, default=543)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    env = gym.make("CartPole-v1")
    torch.manual_seed(args.seed)
    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)

    for episode in range(args.episodes):
        state, _ = env.reset(seed=args.seed + episode)
        log_probs, rewards = [], []
        for t in count():
            probs = policy(torch.from_numpy(state).float().unsqueeze(0))
            m = Categorical(probs)
            action = m.sample()
            log_probs.append(m.log_prob(action))
            state, reward, terminated, truncated, _ = env.step(action.item())
            rewards.append(reward)
            if terminated or truncated:
                break
        returns = discounted(rewards, args.gamma)
        policy_loss = torch.cat([-lp * R for lp, R in zip(log_probs, returns)]).sum()
        optimizer.zero_grad()
        policy_loss.backward()
        optimizer.step()
        if episode % 10 == 0:
            logger.info("episode %d length %d", episode, t + 1)
    env.close()


if __name__ == "__main__":
    main()
