#!/usr/bin/python3
"""Shared by the peer benches (numpy_bench.py, torch_bench.py): timing, host metadata and
the consumer CSV, all mirroring vkt-bench (bench/stats.cpp, bench/host_info.cpp,
bench/consumer.cpp, bench/csv.cpp) so a peer's CSV lines up column for column with
vktensor's.

Deliberately imports neither numpy nor torch: torch_bench.py runs on a machine whose
python3 may lack numpy, and numpy_bench.py on one without torch.
"""

import csv
import functools
import gc
import math
import os
import platform
import socket
import subprocess
import time
from dataclasses import dataclass
from datetime import datetime, timezone

# ---- the cases' shapes, exactly as bench/cases.cpp builds them ----

SEED_OPS = ["concatenate", "pad", "put_slice", "indexed_put", "broadcast", "gather", "take"]
SEED_SIZES = [1024, 16384, 262144, 1048576]


def rows8(n):
    """{n/8, 8}: the seed's 2-D shape for pad, put_slice, take (cases.cpp rows8)."""
    if n % 16 != 0:
        raise ValueError(f"size {n} must be a multiple of 16")
    return (n // 8, 8)


def square_ish(n):
    """(r, n/r) with r the largest power of two such that (2r)^2 <= n (cases.cpp square_ish)."""
    r = 1
    while (r * 2) * (r * 2) <= n:
        r *= 2
    if n % r != 0:
        raise ValueError(f"size {n} must be a power of two")
    return (r, n // r)


def shape_str(shape):
    """vktensor's shape_str: "{a, b}"; "{}" for a scalar."""
    return "{" + ", ".join(str(d) for d in shape) + "}"


def parse_sizes(text):
    """Comma-separated element counts, validated as vkt-bench does (>= 16, multiple of 16)."""
    sizes = []
    for item in text.split(","):
        try:
            n = int(item)
        except ValueError:
            raise ValueError(f"bad size '{item}': sizes are integers >= 16 and multiples of 16")
        if n < 16 or n % 16 != 0:
            raise ValueError(f"bad size '{item}': sizes are integers >= 16 and multiples of 16")
        sizes.append(n)
    return sizes


def add_case_arguments(parser, known, reps=30):
    """The --ops, --sizes and --reps options every consumer peer takes."""
    parser.add_argument("--ops", default=",".join(SEED_OPS),
                        help=f"comma-separated ops (default: the seed's seven); known: {','.join(known)}")
    parser.add_argument("--sizes", default=",".join(map(str, SEED_SIZES)),
                        help="comma-separated sizes n (default: %(default)s)")
    parser.add_argument("--reps", type=int, default=reps,
                        help="minimum timed repetitions per column, after 2 warm-ups (default: %(default)s)")


def cases_of(args, known):
    """(ops, sizes) from add_case_arguments' options, checked (ValueError naming the bad one)."""
    ops = parse_ops(args.ops, known)
    sizes = parse_sizes(args.sizes)
    if args.reps < 1:
        raise ValueError("--reps must be >= 1")
    return ops, sizes


def parse_ops(text, known):
    ops = [op for op in text.split(",") if op]
    unknown = [op for op in ops if op not in known]
    if unknown:
        raise ValueError(f"unknown op(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return ops


# ---- the random data (bench/bench_data.cpp) ----

_HASH_MULTIPLIERS = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9)
# hashed_top24 of indices 1, 2, 3 as vkt-bench computes them (tests/bench/data checks them):
# bench_data_torch's check that torch's int64 arithmetic gives vkt-bench's bits.
_TOP24_OF_1_2_3 = [13238423, 7090759, 15380822]


def random_data():
    """VKT_BENCH_DATA=random, the variable vkt-bench reads: the peers then time the hashed
    values bench_data makes instead of the ramp."""
    return os.environ.get("VKT_BENCH_DATA") == "random"


def hashed_top24(idx):
    """The top 24 bits of vkt-bench's splitmix-style hash of each index (hashed_unit in
    bench/bench_data.cpp). `idx`: a numpy uint64 array, wrapping as C++'s std::uint64_t; or
    a numpy or torch int64 array/tensor (torch has no uint64 arithmetic), whose multiplies
    wrap to the same bits in two's complement and whose right shifts are masked to logical."""
    if str(idx.dtype) == "uint64":
        import numpy as np

        def shr(h, k):
            return h >> np.uint64(k)
        m1, m2 = (np.uint64(m) for m in _HASH_MULTIPLIERS)
    else:
        def shr(h, k):
            return (h >> k) & ((1 << (64 - k)) - 1)
        m1, m2 = (m - (1 << 64) if m >> 63 else m for m in _HASH_MULTIPLIERS)
    h = idx * m1
    h = h ^ shr(h, 29)
    h = h * m2
    h = h ^ shr(h, 32)
    return shr(h, 40)


def bench_values(idx, scale=1.0, offset=0.01):
    """vkt-bench's random value at each index of the numpy uint64 array `idx` (hashed_value
    in bench/bench_data.cpp): float32(u * scale + offset), u = hashed_top24(i) / 2^24,
    computed in float64."""
    import numpy as np
    u = hashed_top24(idx).astype(np.float64) / 16777216.0
    return (u * scale + offset).astype(np.float32)


@functools.lru_cache(maxsize=2)
def _units(n):
    """u = hashed_top24(i) / 2^24 for i < n in float64, read-only: kept for the next input
    of the same size (a peer builds its cases' inputs again per device)."""
    import numpy as np
    u = hashed_top24(np.arange(n, dtype=np.uint64)).astype(np.float64) / 16777216.0
    u.flags.writeable = False
    return u


def bench_data(n, scale=1.0, offset=0.01):
    """vkt-bench's random data (VKT_BENCH_DATA=random): its n values as a numpy f32 array."""
    import numpy as np
    return (_units(n) * scale + offset).astype(np.float32)


@functools.lru_cache(maxsize=2)
def _units_torch(n):
    """_units in torch's int64 (the GPU machine's torch may run without numpy), checked
    against vkt-bench's first hashes. Never handed out, so never written."""
    import torch
    top = hashed_top24(torch.arange(n, dtype=torch.int64))
    if n > 3 and top[1:4].tolist() != _TOP24_OF_1_2_3:
        raise RuntimeError(f"bench_data_torch: torch hashed indices 1..3 to {top[1:4].tolist()}, "
                           f"vkt-bench to {_TOP24_OF_1_2_3}: its int64 arithmetic does not wrap as assumed")
    return top.to(torch.float64) / 16777216.0


def bench_data_torch(n, scale=1.0, offset=0.01):
    """bench_data as a torch f32 cpu tensor."""
    import torch
    return (_units_torch(n) * scale + offset).to(torch.float32)


# ---- timing (bench/stats.cpp) ----


@dataclass
class Stats:
    median_us: float
    p95_us: float
    min_us: float
    reps: int


def summarize(samples_us):
    s = sorted(samples_us)
    n = len(s)
    median = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    p95 = s[min(n - 1, math.ceil(0.95 * n) - 1)]
    return Stats(median, p95, s[0], n)


# Anything timed on a GPU warms up for at least this long, as vkt-bench does (bench/stats.h
# device_min_warmup_us): the H200's clock governor lowers its SM clock after seconds of low use.
DEVICE_WARMUP_US = float(os.environ.get("VKT_BENCH_WARMUP_MS") or 500) * 1000.0


def gpu_time_it(run, **kwargs):
    """time_it for a column timed on a GPU: its warm-up lasts at least DEVICE_WARMUP_US."""
    kwargs["min_warmup_us"] = max(kwargs.get("min_warmup_us", 20000.0), DEVICE_WARMUP_US)
    return time_it(run, **kwargs)


def time_it(run, min_reps=30, warmups=2, min_total_us=20000.0, max_reps=2000, after=None,
            min_warmup_us=20000.0):
    """Times `run` after warm-ups (at least `warmups` runs and min_warmup_us of them, as
    vkt-bench's TimingPlan): reps until >= min_reps AND >= min_total_us in total, at most
    max_reps; each rep timed on its own. `after`, when given, runs after each timed rep,
    outside its time (vkt-bench's time_it does the same)."""
    run()  # the first run alone (kernel selection, compiles); the warm-up counts from its end
    warm_start = time.perf_counter_ns()
    done = 1
    while done < warmups or (time.perf_counter_ns() - warm_start) / 1000.0 < min_warmup_us:
        run()
        done += 1
    samples = []
    total = 0.0
    # The collector is off while timing (as timeit does): a collection pause belongs to
    # no op, and vkt-bench's C++ loop has none.
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        while len(samples) < max_reps and (len(samples) < min_reps or total < min_total_us):
            t0 = time.perf_counter_ns()
            run()
            dt = (time.perf_counter_ns() - t0) / 1000.0
            samples.append(dt)
            total += dt
            if after is not None:
                after()
    finally:
        if gc_was_on:
            gc.enable()
    return summarize(samples)


# ---- host metadata (bench/host_info.cpp) ----

HOST_COLUMNS = ["host", "os", "kernel", "cpu", "cores", "device", "device_type", "driver",
                "vk_api", "commit", "build_type", "date"]

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _read_key(path, key, sep):
    """First line starting with `key`: the text after `sep`, trimmed of blanks and quotes."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(key) and sep in line:
                    return line.split(sep, 1)[1].strip().strip('"').strip()
    except OSError:
        pass
    return "unknown"


def _git_commit():
    """The vktensor commit the harness ran from, as vkt-bench records it (12 hex digits).
    VKT_GIT_COMMIT wins: on the GPU machine the tree's .git (if any) is not the build's
    commit, and scripts/gpu-env.sh sets it from the packed build's COMMIT file."""
    env = os.environ.get("VKT_GIT_COMMIT")
    if env:
        return env
    try:
        out = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPO_ROOT,
                             capture_output=True, text=True, timeout=10)
        if out.returncode == 0 and out.stdout.strip():
            # As bench/commit.cmake: results in bench_results/ do not make the code dirty.
            dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", ".", ":(exclude)bench_results"],
                                   cwd=REPO_ROOT,
                                   capture_output=True, timeout=10).returncode != 0
            return out.stdout.strip() + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def host_metadata(build_type, device=None):
    """The 12 host columns. `build_type` names the peer library and its version (vktensor
    puts its CMake build type there). `device`: a dict with device, device_type, driver,
    vk_api; None (no accelerator) gives "none" for all four, as vkt-bench does."""
    device = device or {}
    return {
        "host": socket.gethostname(),
        "os": _read_key("/etc/os-release", "PRETTY_NAME", "="),
        "kernel": f"{platform.system()} {platform.release()}",
        "cpu": _read_key("/proc/cpuinfo", "model name", ":"),
        "cores": str(os.cpu_count() or 0),
        "device": device.get("device", "none"),
        "device_type": device.get("device_type", "none"),
        "driver": device.get("driver", "none"),
        "vk_api": device.get("vk_api", "none"),
        "commit": _git_commit(),
        "build_type": build_type,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def machine_kind(meta):
    """The folder of bench_results/ a machine's CSVs go to, as vkt-bench names it."""
    device = meta.get("device", "none")
    if device == "none":
        return "host"
    for mark, kind in (("H100", "h100"), ("H200", "h200"), ("llvmpipe", "lavapipe")):
        if mark in device:
            return kind
    return "-".join("".join(c.lower() if c.isalnum() else " " for c in device).split())


def default_csv_path(meta, bench):
    """bench_results/<machine>/<bench>.csv, relative to the current folder like vkt-bench."""
    folder = os.path.join("bench_results", machine_kind(meta))
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, f"{bench}.csv")


# ---- the consumer CSV (bench/consumer.cpp) ----

LETTERS = ["A", "B", "C", "D", "E"]
LEDGER = ["uploads", "downloads", "bytes_up", "bytes_down", "submits"]

CONSUMER_COLUMNS = (
    HOST_COLUMNS
    + ["op", "dtype", "shape", "size", "path"]
    + [f"{x}_us" for x in LETTERS]
    + [f"{x}_p95_us" for x in LETTERS]
    + [f"{x}_min_us" for x in LETTERS]
    + [f"{x}_reps" for x in LETTERS]
    + ["D_over_B", "D_over_E", "C_over_A", "out_bytes", "d2h_GBps", "floor_us", "D_over_floor"]
    + [f"D_{x}" for x in LEDGER]
    + [f"E_{x}" for x in LEDGER]
    + ["B_vec_us", "B_vec_min_us", "D_vec_us", "D_vec_min_us", "D_vec_over_B_vec"]
    + ["C_gpu_us", "C_gpu_min_us"]
)
# Appended last so every column before it sits where vkt-bench puts it.
PEER_COLUMNS = CONSUMER_COLUMNS + ["library"]


def fmt_num(v, precision=3):
    """vkt-bench's fmt_num: fixed notation."""
    return f"{v:.{precision}f}"


def _ratio(x, y):
    return fmt_num(x.median_us / y.median_us, 4) if x and y and y.median_us > 0 else ""


def _letter_cells(col):
    """The median, p95, min and reps of each of A..E (`col` maps each letter to Stats or
    None: empty cells), and the literal ratios D/B, D/E and C/A."""
    cells = {}
    for x in LETTERS:
        s = col[x]
        cells[f"{x}_us"] = fmt_num(s.median_us) if s else ""
        cells[f"{x}_p95_us"] = fmt_num(s.p95_us) if s else ""
        cells[f"{x}_min_us"] = fmt_num(s.min_us) if s else ""
        cells[f"{x}_reps"] = str(s.reps) if s else ""
    cells["D_over_B"] = _ratio(col["D"], col["B"])
    cells["D_over_E"] = _ratio(col["D"], col["E"])
    cells["C_over_A"] = _ratio(col["C"], col["A"])
    return cells


def consumer_row(meta, library, op, dtype, shape, size, path, columns, out_bytes,
                 d2h_bytes_per_us=None):
    """One CSV row. `columns` maps "A".."E", "B_vec" and "D_vec" to Stats (absent or None:
    not measured, empty cells). floor_us = C + out_bytes / the measured device-to-host rate, as vkt-bench's.
    The ledger columns stay empty: a peer library has no transfer ledger."""
    row = dict(meta)
    row.update(op=op, dtype=dtype, shape=shape_str(shape), size=str(size), path=path)
    col = {x: columns.get(x) for x in LETTERS}
    row.update(_letter_cells(col))
    row["out_bytes"] = str(out_bytes)
    has_rate = d2h_bytes_per_us is not None and d2h_bytes_per_us > 0
    row["d2h_GBps"] = fmt_num(d2h_bytes_per_us / 1000.0) if has_rate else ""
    floor_us = col["C"].median_us + out_bytes / d2h_bytes_per_us if col["C"] and has_rate else 0.0
    row["floor_us"] = fmt_num(floor_us) if floor_us > 0 else ""
    row["D_over_floor"] = fmt_num(col["D"].median_us / floor_us, 4) if col["D"] and floor_us > 0 else ""
    for x in ("B_vec", "D_vec"):
        s = columns.get(x)
        row[f"{x}_us"] = fmt_num(s.median_us) if s else ""
        row[f"{x}_min_us"] = fmt_num(s.min_us) if s else ""
    row["D_vec_over_B_vec"] = _ratio(columns.get("D_vec"), columns.get("B_vec"))
    gpu = columns.get("C_gpu")  # the device's own clock around C's op (CUDA events)
    row["C_gpu_us"] = fmt_num(gpu.median_us) if gpu else ""
    row["C_gpu_min_us"] = fmt_num(gpu.min_us) if gpu else ""
    row["library"] = library
    return row


# ---- the conv and fft CSVs' timed columns (bench/rows.cpp add_timed_columns) ----

TIMED_COLUMNS = (
    [f"{x}_{s}" for x in LETTERS for s in ("us", "min_us", "p95_us", "reps")]
    + ["C_gpu_us", "C_gpu_min_us", "D_over_B", "D_over_E", "C_over_A", "out_bytes", "d2h_GBps",
       "floor_us", "D_over_floor", "GFLOP", "A_GFLOPs", "C_gpu_GFLOPs"]
)


def timed_columns(columns, gpu, out_bytes, d2h_bytes_per_us, flop):
    """TIMED_COLUMNS as vkt-bench conv and fft write them: `columns` maps "A".."E" to Stats
    (absent or None: not measured, empty cells), `gpu` the device-clock Stats of C (None:
    none); floor_us = C + out_bytes at the device-to-host rate; GFLOP/s of A and of C's
    device time."""
    col = {x: columns.get(x) for x in LETTERS}
    row = _letter_cells(col)
    row["C_gpu_us"] = fmt_num(gpu.median_us) if gpu else ""
    row["C_gpu_min_us"] = fmt_num(gpu.min_us) if gpu else ""
    has_rate = d2h_bytes_per_us is not None and d2h_bytes_per_us > 0
    floor_us = col["C"].median_us + out_bytes / d2h_bytes_per_us if col["C"] and has_rate else 0.0
    row["out_bytes"] = str(out_bytes)
    row["d2h_GBps"] = fmt_num(d2h_bytes_per_us / 1000.0) if has_rate else ""
    row["floor_us"] = fmt_num(floor_us) if col["C"] and has_rate else ""
    row["D_over_floor"] = fmt_num(col["D"].median_us / floor_us, 4) if col["D"] and floor_us > 0 else ""
    row["GFLOP"] = fmt_num(flop / 1e9, 3)
    row["A_GFLOPs"] = fmt_num(flop / col["A"].median_us / 1e3, 2) if col["A"] else ""
    row["C_gpu_GFLOPs"] = fmt_num(flop / gpu.median_us / 1e3, 2) if gpu else ""
    return row


def check_writable(path):
    """Fails before any timing when the CSV could not be written (as vkt-bench does)."""
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise OSError(f"cannot write '{path}': folder '{folder}' does not exist")
    if not os.access(folder, os.W_OK):
        raise OSError(f"cannot write '{path}': folder is not writable")


def write_csv(path, rows, columns=PEER_COLUMNS, header=None):
    """Header plus rows; missing values empty. Written to a temp file and renamed, so a
    failed run never leaves a partial CSV. `header`: the names the header line shows, where
    a row key must differ from its column's name (a name vkt-bench uses twice)."""
    if not rows:
        raise ValueError(f"no rows to write to '{path}'")
    tmp = path + ".partial"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=columns, restval="", extrasaction="raise", lineterminator="\n")
        if header is None:
            w.writeheader()
        else:
            csv.writer(f, lineterminator="\n").writerow(header)
        w.writerows(rows)
    os.replace(tmp, path)


def print_table(rows, keys):
    """A plain aligned table of some columns, for the terminal."""
    cells = [keys] + [[str(r.get(k, "")) for k in keys] for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(keys))]
    for c in cells:
        print("  ".join(v.rjust(w) for v, w in zip(c, widths)))
