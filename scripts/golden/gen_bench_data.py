#!/usr/bin/python3
"""Golden list for VKT_BENCH_DATA=random: bench/peers/peer_common.py's values, which
tests/bench/bench_data_test.cpp compares bit for bit with vkt-bench's (bench/bench_data.cpp).
Writes tests/bench/data/bench_data.txt: one line per (index, scale, offset) with the hash's
top 24 bits and the f32 value's bits; the first 1000 indices and some large ones, for each
(scale, offset) bench/cases.cpp uses. Before writing, checks that the int64 path the torch
peers take (numpy int64 here, the same operators) gives the uint64 path's bits."""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
import peer_common as pc  # noqa: E402

LARGE = [4095, 65535, 1 << 20, (1 << 24) - 1, 1 << 24, (1 << 26) + 7, (1 << 28) - 1,
         (1 << 32) + 5, (1 << 40) + 123, (1 << 53) + 1, (1 << 62) + 3]
SCALE_OFFSET = [(1.0, 0.01), (0.5, 0.25), (1.0, 1.01)]


def main():
    idx = np.array(list(range(1000)) + LARGE, dtype=np.uint64)
    top = pc.hashed_top24(idx)
    signed = pc.hashed_top24(idx.astype(np.int64))
    if not np.array_equal(top, signed.astype(np.uint64)):
        sys.exit("gen_bench_data: the int64 path differs from the uint64 path")
    if top[1:4].tolist() != pc._TOP24_OF_1_2_3:
        sys.exit(f"gen_bench_data: peer_common._TOP24_OF_1_2_3 should be {top[1:4].tolist()}")
    lines = ["# index scale offset top24 f32_bits (scripts/golden/gen_bench_data.py, numpy "
             + np.__version__ + ")"]
    for scale, offset in SCALE_OFFSET:
        values = pc.bench_values(idx, scale, offset)
        if not np.array_equal(values[:1000], pc.bench_data(1000, scale, offset)):
            sys.exit("gen_bench_data: bench_data differs from bench_values")
        bits = values.view(np.uint32)
        for i, t, b in zip(idx.tolist(), top.tolist(), bits.tolist()):
            lines.append(f"{i} {scale!r} {offset!r} {t} {b:08x}")
    path = os.path.join(ROOT, "tests", "bench", "data", "bench_data.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 1} values to {path}")


if __name__ == "__main__":
    main()
