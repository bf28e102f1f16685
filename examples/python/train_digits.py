"""Trains an MLP or a small CNN on scikit-learn's 1,797 8x8 digits with vt.value_and_grad and
SGD with momentum, as examples/train_digits/train_digits.cpp does (the same split, model and
schedule), on the cpu or on Vulkan:

    python3 examples/python/train_digits.py --model cnn --device vulkan --require 0.97

The step (forward and backward) is one vt.compile'd plan; parameters, data and momentum stay
on the device, and the ledger's fallbacks are printed (a step that left the device fails)."""
import argparse
import gzip
import sys
import time

import numpy as np

import vktensor as vt

DATA = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
BATCH, TRAIN = 32, 1437  # 80% of the digits train, the rest test


def load(path):
    with gzip.open(path, "rt") as f:
        table = np.loadtxt(f, delimiter=",", dtype=np.float32)
    if table.shape != (1797, 65):
        raise SystemExit(f"{path}: expected 1797 rows of 65 values, got {table.shape}")
    return table[:, :64] / 16, table[:, 64].astype(np.int64)


def split(n):
    """The C++ example's fixed shuffle (the same LCG), so both train on the same rows."""
    order, state = list(range(n)), 7
    for i in range(n - 1, 0, -1):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        j = int((state >> 11) / float(1 << 53) * (i + 1))
        order[i], order[j] = order[j], order[i]
    return np.array(order)


def glorot(rng, shape, fan_in, fan_out):
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return (rng.uniform(-1, 1, size=shape) * limit).astype(np.float32)


def init(model, device):
    rng = np.random.default_rng(42)
    if model == "mlp":
        shapes = [glorot(rng, (64, 128), 64, 128), np.zeros(128, np.float32),
                  glorot(rng, (128, 10), 128, 10), np.zeros(10, np.float32)]
    else:
        shapes = [glorot(rng, (16, 1, 3, 3), 9, 144), np.zeros(16, np.float32),
                  glorot(rng, (256, 10), 256, 10), np.zeros(10, np.float32)]
    return tuple(vt.asarray(p, device=device) for p in shapes)


def logits(model, params, x):
    w1, b1, w2, b2 = params
    if model == "mlp":
        return vt.max(x @ w1 + b1, 0.0) @ w2 + b2
    n = x.shape[0]
    image = vt.reshape(x, (n, 1, 8, 8))
    features = vt.max(vt.conv(image, w1, padding="same") + vt.reshape(b1, (1, 16, 1, 1)), 0.0)
    pooled = vt.window_max(features, (1, 1, 2, 2), strides=(1, 1, 2, 2))
    return vt.reshape(pooled, (n, 256)) @ w2 + b2


def cross_entropy(z, one_hot):
    shifted = z - vt.stop_gradient(vt.reduce_max(z, axis=1, keepdims=True))
    log_p = shifted - vt.log(vt.sum(vt.exp(shifted), axis=1, keepdims=True))
    return -vt.sum(log_p * one_hot) / float(z.shape[0])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=("mlp", "cnn"), default="mlp")
    ap.add_argument("--device", choices=("cpu", "vulkan"), default="cpu")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--require", type=float, default=0.0, help="least test accuracy to pass")
    ap.add_argument("--data", default=DATA)
    args = ap.parse_args(argv)
    device = vt.vulkan() if args.device == "vulkan" else vt.cpu()
    pixels, labels = load(args.data)
    order = split(len(labels))
    one_hot = (labels[:, None] == np.arange(10)).astype(np.float32)
    x_train, y_train = (vt.asarray(a[order[:TRAIN]], device=device) for a in (pixels, one_hot))
    x_test = vt.asarray(pixels[order[TRAIN:]], device=device)

    params = init(args.model, device)
    velocity = tuple(vt.full(p.shape, 0, dtype=p.dtype, device=device) for p in params)
    step = vt.compile(vt.value_and_grad(
        lambda p, x, y: cross_entropy(logits(args.model, p, x), y)))
    start = time.perf_counter()
    with vt.ledger() as led:
        for epoch in range(args.epochs):
            total = vt.full((), 0, dtype=vt.float32, device=device)
            for b in range(TRAIN // BATCH):
                rows = slice(b * BATCH, (b + 1) * BATCH)
                loss, grads = step(params, x_train[rows], y_train[rows])
                total = total + loss
                velocity = tuple(v * 0.9 + g for v, g in zip(velocity, grads))
                params = tuple(p - v * 0.05 for p, v in zip(params, velocity))
            if epoch == 0 or (epoch + 1) % 10 == 0 or epoch + 1 == args.epochs:
                print(f"epoch {epoch + 1:3d}  loss {total.item() / (TRAIN // BATCH):.4f}")
    seconds = time.perf_counter() - start
    predicted = np.asarray(vt.argmax(logits(args.model, params, x_test), axis=1).to_device(vt.cpu()))
    accuracy = float(np.mean(predicted == labels[order[TRAIN:]]))
    print(f"{args.model} on {device}: test accuracy {accuracy:.4f}, {args.epochs} epochs in "
          f"{seconds:.2f} s; training ledger: {led.fallbacks} fallbacks")
    if led.fallbacks:
        print(f"FAIL: an op of the training step left {device}")
        return 1
    if accuracy < args.require:
        print(f"FAIL: test accuracy {accuracy:.4f} is below the required {args.require:.4f}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
