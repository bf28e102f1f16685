#!/usr/bin/python3
"""Plots of vkt-bench (and peer) CSVs, as PNGs in bench_results/plots/ (or --outdir).

Each CSV is recognised by its columns:
  consumer (op, size, D_over_B)          -> consumer_D_over_B.png and consumer_D_over_floor.png:
                                            D/B and D/floor vs size, a panel per op, a line
                                            per CSV (library, host, device)
  shapes   (family, op, size, speedup)   -> shapes_<csv name>.png: speed-up vs size, a panel
                                            per family, a line per op (crossover in its label)
  matmul   (dtype, n, cpu_GFLOPs, ...)   -> matmul_<csv name>.png: GFLOP/s vs n, cpu and vulkan
           (several from one folder, vktensor's and a peer's: one plot, matmul_<folder name>.png)
A plot whose CSVs are absent is skipped; empty cells are skipped, never fatal.
"""

import argparse
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def num(text):
    """A cell as a float, or None when empty or not a number."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def kind_of(rows):
    cols = set(rows[0]) if rows else set()
    if {"family", "op", "size", "speedup"} <= cols:
        return "shapes"
    if {"n", "cpu_GFLOPs", "vulkan_GFLOPs"} <= cols:
        return "matmul"
    if {"op", "size", "D_over_B"} <= cols:
        return "consumer"
    return None


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def grid(count):
    cols = min(count, 3)
    return math.ceil(count / cols), cols


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"wrote {path}")


def series(rows, x_key, y_key):
    """(x, y) pairs with both cells numeric and y > 0 (log axes), sorted by x."""
    pts = [(num(r.get(x_key)), num(r.get(y_key))) for r in rows]
    return sorted((x, y) for x, y in pts if x is not None and y is not None and y > 0)


# The consumer plots: (column, y label, title). D/B below 1: the device path is faster for
# the consumer. D/floor: how far a read sits above C + bytes / bus rate.
CONSUMER_PLOTS = [
    ("D_over_B", "D / B (below 1: device wins)",
     "Consumer-aware: op + read on the device (D) over op + read on the host (B)"),
    ("D_over_floor", "D / floor (1: at the bus rate)",
     "Consumer-aware: op + read on the device (D) over its floor, C + bytes / bus rate"),
]


def plot_consumer(csvs, outdir, column, ylabel, title):
    """`column` vs size per op; one line per CSV."""
    lines = []  # (label, {op: [(size, D/B)]}); a CSV keeps one colour in every panel
    for path, rows in csvs:
        first = rows[0]
        label = f"{first.get('library') or 'vktensor'} {first.get('host', '?')} {first.get('device', '?')}"
        by_op = defaultdict(list)
        for r in rows:
            by_op[r.get("op", "?")].append(r)
        per_op = {op: series(rs, "size", column) for op, rs in by_op.items()}
        per_op = {op: pts for op, pts in per_op.items() if pts}
        if per_op:
            lines.append((label, per_op))
        else:
            print(f"plot_bench: {path}: no {column} values (no device columns); left out", file=sys.stderr)
    ops = sorted({op for _, per_op in lines for op in per_op})
    if not ops:
        print(f"plot_bench: no consumer data with {column}; that plot skipped", file=sys.stderr)
        return
    nrows, ncols = grid(len(ops))
    fig, axes = plt.subplots(nrows, ncols, figsize=(5 * ncols, 3.6 * nrows), squeeze=False)
    for ax, op in zip(axes.flat, ops):
        for i, (label, per_op) in enumerate(lines):
            if op in per_op:
                xs, ys = zip(*per_op[op])
                ax.plot(xs, ys, marker="o", color=f"C{i % 10}", label=label)
        ax.axhline(1.0, color="gray", linewidth=0.8, linestyle="--")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(op)
        ax.set_xlabel("size (elements)")
        ax.set_ylabel(ylabel)
    for ax in list(axes.flat)[len(ops):]:
        ax.set_visible(False)
    legend = {}  # one entry per CSV, from whichever panels it appears in
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    fig.legend(list(legend.values()), list(legend), loc="lower center", ncol=min(len(legend), 3),
               fontsize="small", bbox_to_anchor=(0.5, 0.0))
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.06, 1, 0.96))
    out = os.path.join(outdir, f"consumer_{column}.png")
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print(f"wrote {out}")


def plot_shapes(path, rows, outdir):
    """Speed-up (cpu / vulkan) vs size, a panel per family, a line per op."""
    families = []
    for r in rows:
        if r.get("family") not in families:
            families.append(r.get("family"))
    drawn = False
    fig, axes = plt.subplots(1, len(families), figsize=(5.5 * len(families), 4), squeeze=False)
    for ax, family in zip(axes.flat, families):
        ops = []
        for r in rows:
            if r.get("family") == family and r.get("op") not in ops:
                ops.append(r.get("op"))
        for op in ops:
            op_rows = [r for r in rows if r.get("family") == family and r.get("op") == op]
            pts = series(op_rows, "size", "speedup")
            if not pts:
                continue
            crossover = op_rows[0].get("crossover_size") or "none"
            xs, ys = zip(*pts)
            ax.plot(xs, ys, marker="o", label=f"{op} (crossover {crossover})")
            drawn = True
        ax.axhline(1.0, color="gray", linewidth=0.8, linestyle="--")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(family or "?")
        ax.set_xlabel("size (elements)")
        ax.set_ylabel("speed-up cpu / vulkan")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small")
    if not drawn:
        plt.close(fig)
        print(f"plot_bench: {path}: no speedup values; shapes plot skipped", file=sys.stderr)
        return
    fig.suptitle(f"Speed-up vs size: {stem(path)}")
    save(fig, os.path.join(outdir, f"shapes_{stem(path)}.png"))


def plot_matmul(path, rows, outdir):
    """GFLOP/s vs n, a line per (library and backend, dtype): vktensor's cpu, vktensor's vulkan
    and any peer's rows (a `library` column, as torch_matmul.py writes) in the same file. The
    device's time (vulkan_gpu_GFLOPs) where the file has it, else the wall clock's."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    drawn = False
    dtypes = []
    for r in rows:
        if r.get("dtype") not in dtypes:
            dtypes.append(r.get("dtype"))
    device_time = any(r.get("vulkan_gpu_GFLOPs") for r in rows)
    gpu_column = "vulkan_gpu_GFLOPs" if device_time else "vulkan_GFLOPs"
    libraries = []
    for r in rows:
        if (r.get("library") or "vktensor") not in libraries:
            libraries.append(r.get("library") or "vktensor")
    # Colour says the library and backend, line style the dtype.
    lines = [("vktensor cpu", "vktensor", "cpu_GFLOPs")]
    lines += [(f"{lib} {'vulkan' if lib == 'vktensor' else 'gpu'}", lib, gpu_column) for lib in libraries]
    for k, (label, lib, column) in enumerate(lines):
        # vktensor's default rows only (a --variants file has one row per variant).
        of_lib = [r for r in rows if (r.get("library") or "vktensor") == lib
                  and (lib != "vktensor" or r.get("variant") in (None, "", "default"))]
        for i, dtype in enumerate(dtypes):
            pts = series([r for r in of_lib if r.get("dtype") == dtype], "n", column)
            if pts:
                xs, ys = zip(*pts)
                ax.plot(xs, ys, ["-", "--", ":", "-."][i % 4], color=f"C{k}", marker="o", label=f"{label} {dtype}")
                drawn = True
    if not drawn:
        plt.close(fig)
        print(f"plot_bench: {path}: no GFLOP/s values; matmul plot skipped", file=sys.stderr)
        return
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("n (square n x n matmul)")
    ax.set_ylabel("GFLOP/s" + (" (device time)" if device_time else ""))
    ax.set_title(f"Matmul: {stem(path)}")
    ax.legend(fontsize="small")
    save(fig, os.path.join(outdir, f"matmul_{stem(path)}.png"))


def main(argv=None):
    p = argparse.ArgumentParser(description="PNG plots of vkt-bench and peer CSVs (consumer, shapes, matmul).")
    p.add_argument("csvs", nargs="*", help="CSV files; each is recognised by its columns")
    p.add_argument("--outdir", default=os.path.join("bench_results", "plots"), help="folder for the PNGs (default: %(default)s)")
    args = p.parse_args(argv)

    by_kind = defaultdict(list)
    for path in args.csvs:
        try:
            rows = read_rows(path)
        except OSError as e:
            print(f"plot_bench: {e}; skipped", file=sys.stderr)
            continue
        kind = kind_of(rows)
        if kind is None:
            print(f"plot_bench: {path}: not a consumer, shapes or matmul CSV (or empty); skipped", file=sys.stderr)
            continue
        by_kind[kind].append((path, rows))
    if not by_kind:
        print("plot_bench: nothing to plot", file=sys.stderr)
        return 0
    os.makedirs(args.outdir, exist_ok=True)
    if by_kind["consumer"]:
        for column, ylabel, title in CONSUMER_PLOTS:
            plot_consumer(by_kind["consumer"], args.outdir, column, ylabel, title)
    for path, rows in by_kind["shapes"]:
        plot_shapes(path, rows, args.outdir)
    # Matmul CSVs from one folder (vktensor's and a peer's of the same run) share one plot,
    # named after the folder where there are several, else after the file.
    folders = defaultdict(list)
    for path, rows in by_kind["matmul"]:
        folders[os.path.dirname(os.path.abspath(path))].append((path, rows))
    for folder, files in folders.items():
        name = files[0][0] if len(files) == 1 else folder + ".csv"
        plot_matmul(name, [r for _, rows in files for r in rows], args.outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
