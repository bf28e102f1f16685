"""PyTorch eager and torch.compile as peers of `vkt-bench train` (bench/train.cpp).

The same workloads, data and step: an MLP 784 -> 1024 -> 1024 -> 10 (relu, softmax
cross-entropy against one-hot labels, batch 256) and a ResNet basic block (two 3x3 convs of
64 channels at 56x56, relu, identity shortcut, batch 32, loss the mean square of the output),
f32 with TF32 off (as vktensor computes), parameters and data resident on the GPU. One step:
the loss and its gradients by autograd, an SGD update of every parameter in place
(torch._foreach_add_, what torch.optim.SGD's foreach path runs), then loss.item(), the read
a training loop's log line makes and vkt-bench's step ends with. Modes: eager, and compiled
(torch.compile of the loss function: forward and backward by AOTAutograd, the update eager).
Peak memory: torch.cuda.max_memory_allocated / max_memory_reserved over one step.
--profile-out: each CUDA kernel's device time in a step (torch.profiler), beside vkt-bench
train --profile-out's per-op times.
"""

import argparse
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402

COLUMNS = pc.HOST_COLUMNS + ["op", "dtype", "shape", "size", "case", "mode", "step_us", "step_p95_us",
                             "step_min_us", "reps", "peak_in_use_MiB", "peak_reserved_MiB", "library"]


def centred(shape, scale, dev):
    """bench/train.cpp's centred(): (seed_data - 0.5) * 2 * scale, seed_data = iota(n)/n + 0.01
    (or VKT_BENCH_DATA=random's hashed values)."""
    n = 1
    for d in shape:
        n *= d
    x = pc.bench_data_torch(n) if pc.random_data() else torch.arange(n, dtype=torch.float32) / n + 0.01
    return ((x - 0.5) * (2 * scale)).reshape(shape).to(dev)


def mlp(dev):
    batch = 256
    params = [centred(s, k, dev) for s, k in (([784, 1024], 0.05), ([1024], 0.01), ([1024, 1024], 0.05),
                                              ([1024], 0.01), ([1024, 10], 0.05), ([10], 0.01))]
    labels = torch.arange(batch) % 10
    one_hot = (labels[:, None] == torch.arange(10)[None, :]).float().to(dev)
    data = [centred([batch, 784], 1.0, dev), one_hot]

    def loss(p, d):
        h1 = torch.relu(d[0] @ p[0] + p[1])
        h2 = torch.relu(h1 @ p[2] + p[3])
        z = h2 @ p[4] + p[5]
        shifted = z - z.amax(dim=1, keepdim=True).detach()
        log_p = shifted - torch.log(torch.exp(shifted).sum(dim=1, keepdim=True))
        return -(log_p * d[1]).sum() / z.shape[0]
    return "mlp", [batch, 784], params, data, loss


def basic_block(dev):
    batch, c, hw = 32, 64, 56
    params = [centred([c, c, 3, 3], 0.05, dev), centred([c, c, 3, 3], 0.05, dev)]
    data = [centred([batch, c, hw, hw], 1.0, dev)]

    def loss(p, d):
        h = torch.relu(F.conv2d(d[0], p[0], padding=1))
        out = torch.relu(F.conv2d(h, p[1], padding=1) + d[0])
        return (out * out).sum() / out.numel()
    return "resnet_block", [batch, c, hw, hw], params, data, loss


def sgd_step(loss_fn, params, data):
    """One step on copies of the parameters: the loss and its gradients by autograd, the SGD
    update in place (torch.optim.SGD's foreach path), the loss read."""
    params = [p.clone().requires_grad_(True) for p in params]

    def step():
        loss = loss_fn(params, data)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            torch._foreach_add_(params, grads, alpha=-0.01)
        loss.item()
    return step


def time_mode(loss_fn, params, data, reps):
    step = sgd_step(loss_fn, params, data)
    stats = pc.gpu_time_it(step, min_reps=reps)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    step()
    mib = float(1 << 20)
    return stats, torch.cuda.max_memory_allocated() / mib, torch.cuda.max_memory_reserved() / mib


PROFILE_COLUMNS = pc.HOST_COLUMNS + ["op", "dtype", "shape", "size", "case", "mode", "label", "calls",
                                     "device_us", "share_pct", "steps", "library"]


def profile_mode(loss_fn, params, data, steps):
    """Each CUDA kernel's device time in one step (torch.profiler), the median over `steps`
    steps after one warm step, as vkt-bench train --profile-out reports vktensor's ops:
    [(kernel name, calls in the first step, median us per step)], the largest first."""
    from torch.profiler import ProfilerActivity, profile
    step = sgd_step(loss_fn, params, data)
    step()
    torch.cuda.synchronize()
    per_step, calls = {}, {}
    for s in range(steps):
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            step()
            torch.cuda.synchronize()
        for name in per_step:
            per_step[name].append(0.0)
        for e in prof.events():
            # Kernels and device copies are the events on the device; their span is their time.
            if not str(e.device_type).endswith("CUDA"):
                continue
            us = e.time_range.elapsed_us()
            if e.name not in per_step:
                per_step[e.name] = [0.0] * (s + 1)
                calls[e.name] = 0
            per_step[e.name][-1] += us
            if s == 0:
                calls[e.name] += 1
    out = [(name, calls[name], sorted(v)[len(v) // 2] if len(v) % 2 else
            (sorted(v)[len(v) // 2 - 1] + sorted(v)[len(v) // 2]) / 2) for name, v in per_step.items()]
    out.sort(key=lambda r: -r[2])
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description="PyTorch eager and torch.compile peer of vkt-bench train.")
    p.add_argument("--cases", default="mlp,resnet_block")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--out", default="", help="CSV path (default bench_results/<machine>/torch-train.csv)")
    p.add_argument("--profile-out", default="", help="also write each CUDA kernel's device time in a step here")
    p.add_argument("--profile-steps", type=int, default=5)
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print("torch_train: no CUDA device", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    meta = pc.host_metadata(f"torch {torch.__version__}, CUDA {torch.version.cuda}")
    out = args.out or pc.default_csv_path(meta, "torch-train")
    pc.check_writable(out)
    if args.profile_out:
        pc.check_writable(args.profile_out)
    makers = {"mlp": mlp, "resnet_block": basic_block}
    rows, profile_rows = [], []
    for name in args.cases.split(","):
        label, shape, params, data, loss = makers[name]("cuda")
        modes = [("eager", loss)]
        try:
            modes.append(("compiled", torch.compile(loss)))
        except Exception as e:  # noqa: BLE001  (a missing toolchain shows here or at first call)
            print(f"torch_train: torch.compile of {label} failed: {e}", file=sys.stderr)
        for mode, fn in modes:
            print(f"\r{label} {mode}          ", end="", file=sys.stderr, flush=True)
            try:
                stats, in_use, reserved = time_mode(fn, params, data, args.reps)
            except Exception as e:  # noqa: BLE001
                print(f"\ntorch_train: {label} {mode} failed: {e}", file=sys.stderr)
                continue
            size = 1
            for d in shape:
                size *= d
            rows.append(dict(meta, op=label, dtype="f32", shape=pc.shape_str(shape), size=str(size), case=label,
                             mode=mode, step_us=pc.fmt_num(stats.median_us), step_p95_us=pc.fmt_num(stats.p95_us),
                             step_min_us=pc.fmt_num(stats.min_us), reps=str(stats.reps),
                             peak_in_use_MiB=pc.fmt_num(in_use), peak_reserved_MiB=pc.fmt_num(reserved),
                             library="torch"))
            if args.profile_out:
                kernels = profile_mode(fn, params, data, args.profile_steps)
                total = sum(us for _, _, us in kernels) or 1.0
                for kernel, n, us in kernels:
                    profile_rows.append(dict(meta, op=label, dtype="f32", shape=pc.shape_str(shape),
                                             size=str(size), case=label, mode=mode, label=kernel[:160],
                                             calls=str(n), device_us=pc.fmt_num(us),
                                             share_pct=pc.fmt_num(100 * us / total),
                                             steps=str(args.profile_steps), library="torch"))
    print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    pc.print_table(rows, ["case", "mode", "step_us", "step_p95_us", "peak_in_use_MiB", "peak_reserved_MiB"])
    pc.write_csv(out, rows, COLUMNS)
    print(f"wrote {out}")
    if args.profile_out:
        pc.print_table(profile_rows, ["case", "mode", "device_us", "share_pct", "calls", "label"])
        pc.write_csv(args.profile_out, profile_rows, PROFILE_COLUMNS)
        print(f"wrote {args.profile_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
