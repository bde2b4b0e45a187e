"""Tiny GAN step: two modules, two optimizers, both trained in one iteration."""
# behaviour: iterations=3
# behaviour: models=2
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    netG = nn.Sequential(nn.Linear(2, 4), nn.Tanh())
    netD = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())
    optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-3)
    optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-3)
    criterion = nn.BCELoss()
    real = torch.randn(3, 8, 4)
    for i in range(3):
        noise = torch.randn(8, 2)
        fake = netG(noise)
        netD.zero_grad()
        loss_d = criterion(netD(real[i]), torch.ones(8, 1)) + criterion(netD(fake.detach()), torch.zeros(8, 1))
        loss_d.backward()
        optimizerD.step()
        netG.zero_grad()
        loss_g = criterion(netD(fake), torch.ones(8, 1))
        loss_g.backward()
        optimizerG.step()
        print(f"d {loss_d.item():.3f} g {loss_g.item():.3f}")


if __name__ == "__main__":
    main()
