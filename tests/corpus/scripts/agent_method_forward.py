"""A small policy-gradient style update: the forward is a method of the
agent module (get_value), not a call of the module itself."""
import argparse

import torch
import torch.nn as nn


class Agent(nn.Module):
    def __init__(self, obs_dim=4):
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, 1))

    def get_value(self, x):
        return self.critic(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=3)
    args = parser.parse_args()
    agent = Agent()
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4)
    batches = [torch.randn(8, 4) for _ in range(args.updates)]
    for obs in batches:
        value = agent.get_value(obs)
        loss = (value - 1.0).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
        optimizer.step()
    print(loss.item())


if __name__ == "__main__":
    main()
