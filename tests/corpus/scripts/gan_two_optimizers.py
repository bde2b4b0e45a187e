"""DCGAN-style training on random "images": one optimizer for G, one for D."""
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger("gan")
NZ = 100


class Generator(nn.Module):
    def __init__(self, ngf=64):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(NZ, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, 3, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, ndf=64):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(3, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x).view(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-4)
    opt = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    dataloader = DataLoader(TensorDataset(torch.rand(1024, 3, 16, 16) * 2 - 1),
                            batch_size=opt.batch_size, shuffle=True, drop_last=True)
    netG, netD = Generator(), Discriminator()
    criterion = nn.BCELoss()
    optimizerD = torch.optim.Adam(netD.parameters(), lr=opt.lr, betas=(0.5, 0.999))
    optimizerG = torch.optim.Adam(netG.parameters(), lr=opt.lr, betas=(0.5, 0.999))

    for epoch in range(opt.epochs):
        for i, (real,) in enumerate(dataloader):
            b = real.size(0)
            noise = torch.randn(b, NZ, 1, 1)
            fake = netG(noise)
            # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
            netD.zero_grad()
            errD_real = criterion(netD(real), torch.ones(b))
            errD_real.backward()
            errD_fake = criterion(netD(fake.detach()), torch.zeros(b))
            errD_fake.backward()
            optimizerD.step()
            # (2) update G: maximize log(D(G(z)))
            netG.zero_grad()
            errG = criterion(netD(fake), torch.ones(b))
            errG.backward()
            optimizerG.step()
            if i % 10 == 0:
                logger.info("[%d][%d] Loss_D %.4f Loss_G %.4f", epoch, i,
                            (errD_real + errD_fake).item(), errG.item())

    torch.save(netG.state_dict(), "netG.pth")
    torch.save(netD.state_dict(), "netD.pth")


if __name__ == "__main__":
    main()
