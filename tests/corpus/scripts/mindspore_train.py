"""MindSpore (PyNative) training of a dense classifier.

This is not PyTorch: the PyTorch dump does not apply, msprobe.mindspore does.
"""
import argparse
import logging

import numpy as np
import mindspore as ms
from mindspore import nn
from mindspore.dataset import NumpySlicesDataset

logger = logging.getLogger("ms_train")


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(),
            nn.Dense(512, 512), nn.ReLU(),
            nn.Dense(512, 10),
        )

    def construct(self, x):
        return self.dense_relu_sequential(self.flatten(x))


def make_dataset(batch_size):
    images = np.random.rand(1024, 1, 28, 28).astype(np.float32)
    labels = np.random.randint(0, 10, (1024,)).astype(np.int32)
    ds = NumpySlicesDataset({"image": images, "label": labels}, shuffle=True)
    return ds.batch(batch_size)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    ms.set_context(mode=ms.PYNATIVE_MODE)

    model = Network()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), learning_rate=1e-2)

    def forward_fn(data, label):
        logits = model(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    dataset = make_dataset(args.batch_size)
    for epoch in range(args.epochs):
        model.set_train()
        for step, (data, label) in enumerate(dataset.create_tuple_iterator()):
            loss = train_step(data, label)
            if step % 5 == 0:
                logger.info("epoch %d step %d loss %.4f", epoch, step, loss.asnumpy())

    ms.save_checkpoint(model, "network.ckpt")


if __name__ == "__main__":
    main()
