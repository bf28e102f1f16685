#!/usr/bin/python3
"""vktensor's cpu backend against NumPy on the same host: column A (op alone) of
`vkt-bench consumer --cpu-only` and of bench/peers/numpy_bench.py, joined on (op, size).
The target: vktensor within 1.5x of NumPy (vkt_over_numpy <= 1.5).

Two runs per tool, because dot's square-ish case grows as n^1.5 work: the elementwise,
reduction and movement ops at 1M and 16M elements; dot at 64K, 1M and 4M elements
(256, 1024 and 2048 square matmuls; 16M would be 4096^3, minutes per rep on a small cpu).

Run from the repository root. Writes bench_results/<host>_cpu-vs-numpy_<date>.csv and
prints a markdown table. --vkt-csv / --numpy-csv join CSVs already written instead.
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMPY_BENCH = os.path.join(REPO_ROOT, "bench", "peers", "numpy_bench.py")

NON_DOT_OPS = ["add", "multiply", "exp", "sum", "sum_axis1", "transpose", "concatenate", "concatenate_inner"]
RUNS = [
    (NON_DOT_OPS, [1048576, 16777216]),
    (["dot"], [65536, 1048576, 4194304]),
]
TARGET = 1.5

OUT_COLUMNS = ["host", "cpu", "cores", "date", "commit", "op", "dtype", "shape", "size",
               "vkt_A_us", "numpy_A_us", "vkt_over_numpy", "target_met"]


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def run_tool(cmd):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    r = subprocess.run(cmd)
    if r.returncode != 0:
        raise RuntimeError(f"'{cmd[0]}' exited with {r.returncode}")


def run_benches(vkt_bench, reps, tmp):
    """Runs both tools for every entry of RUNS; returns (vkt CSV paths, numpy CSV paths)."""
    vkt_csvs, numpy_csvs = [], []
    for i, (ops, sizes) in enumerate(RUNS):
        common = ["--ops", ",".join(ops), "--sizes", ",".join(map(str, sizes)), "--reps", str(reps)]
        vkt_csvs.append(os.path.join(tmp, f"vkt_{i}.csv"))
        numpy_csvs.append(os.path.join(tmp, f"numpy_{i}.csv"))
        run_tool([vkt_bench, "consumer", "--cpu-only", *common, "--out", vkt_csvs[-1]])
        run_tool([NUMPY_BENCH, *common, "--out", numpy_csvs[-1]])  # its shebang picks the python with numpy
    return vkt_csvs, numpy_csvs


def keyed(rows):
    return {(r["op"], int(r["size"])): r for r in rows}


def as_float(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def join(vkt_rows, numpy_rows):
    """One output row per vktensor row, in vktensor's order; a case missing on the numpy
    side keeps empty numpy cells. Mismatched dtype or shape means the two benches did not
    run the same case: reported and left uncompared (empty cells), since a ratio would
    then mean nothing."""
    by_key = keyed(numpy_rows)
    out = []
    for v in vkt_rows:
        key = (v["op"], int(v["size"]))
        n = by_key.get(key)
        if n is None:
            print(f"cpu_vs_numpy: no numpy row for {key}", file=sys.stderr)
        elif (n["dtype"], n["shape"]) != (v["dtype"], v["shape"]):
            print(f"cpu_vs_numpy: {key}: vkt {v['dtype']} {v['shape']} but numpy {n['dtype']} {n['shape']}; "
                  "not compared", file=sys.stderr)
            n = None
        vkt_a = as_float(v.get("A_us"))
        np_a = as_float(n.get("A_us")) if n else None
        ratio = vkt_a / np_a if vkt_a is not None and np_a else None
        out.append({
            "host": v["host"], "cpu": v["cpu"], "cores": v["cores"], "date": v["date"], "commit": v["commit"],
            "op": v["op"], "dtype": v["dtype"], "shape": v["shape"], "size": v["size"],
            "vkt_A_us": v.get("A_us", ""), "numpy_A_us": n.get("A_us", "") if n else "",
            "vkt_over_numpy": f"{ratio:.4f}" if ratio is not None else "",
            "target_met": ("yes" if ratio <= TARGET else "no") if ratio is not None else "",
        })
    for key in sorted(set(by_key) - set(keyed(vkt_rows))):
        print(f"cpu_vs_numpy: no vktensor row for {key}", file=sys.stderr)
    return out


def markdown(rows):
    head = ["op", "size", "shape", "vkt A (us)", "numpy A (us)", "vkt/numpy", f"<= {TARGET}"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join([r["op"], r["size"], r["shape"], r["vkt_A_us"], r["numpy_A_us"],
                                         r["vkt_over_numpy"], r["target_met"]]) + " |")
    met = sum(r["target_met"] == "yes" for r in rows)
    judged = sum(r["target_met"] != "" for r in rows)
    lines.append(f"\n{met} of {judged} cases within {TARGET}x of NumPy.")
    return "\n".join(lines)


def write_atomically(path, rows):
    tmp = path + ".partial"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=OUT_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def main(argv=None):
    p = argparse.ArgumentParser(description="vktensor cpu backend vs NumPy, op alone (column A), same host.")
    p.add_argument("--vkt-bench", default=os.path.join(REPO_ROOT, "build", "vkt-bench"), help="vkt-bench binary (default: %(default)s)")
    p.add_argument("--out", default="", help="CSV path (default bench_results/<host>_cpu-vs-numpy_<date>.csv)")
    p.add_argument("--reps", type=int, default=30, help="minimum timed repetitions, passed to both benches (default: %(default)s)")
    p.add_argument("--vkt-csv", action="append", default=[], help="join this vkt-bench consumer CSV instead of running vkt-bench (repeatable)")
    p.add_argument("--numpy-csv", action="append", default=[], help="join this numpy_bench.py CSV instead of running it (repeatable)")
    args = p.parse_args(argv)
    if bool(args.vkt_csv) != bool(args.numpy_csv):
        p.error("--vkt-csv and --numpy-csv go together")
    if not args.vkt_csv and not os.access(args.vkt_bench, os.X_OK):
        p.error(f"no vkt-bench at '{args.vkt_bench}' (build it, or pass --vkt-bench)")
    out_dir = os.path.dirname(args.out) if args.out else "bench_results"
    if out_dir and not os.path.isdir(out_dir):  # fail now, not after minutes of timing
        p.error(f"folder '{out_dir}' does not exist")

    try:
        with tempfile.TemporaryDirectory(prefix="cpu_vs_numpy_") as tmp:
            vkt_csvs, numpy_csvs = (args.vkt_csv, args.numpy_csv) if args.vkt_csv else run_benches(args.vkt_bench, args.reps, tmp)
            vkt_rows = [r for path in vkt_csvs for r in read_rows(path)]
            numpy_rows = [r for path in numpy_csvs for r in read_rows(path)]
    except (OSError, RuntimeError, KeyError) as e:
        print(f"cpu_vs_numpy: {e}", file=sys.stderr)
        return 2
    if not vkt_rows:
        print("cpu_vs_numpy: no vktensor rows", file=sys.stderr)
        return 2

    rows = join(vkt_rows, numpy_rows)
    first = rows[0]
    out = args.out or os.path.join("bench_results", f"{first['host']}_cpu-vs-numpy_{first['date'][:10]}.csv")
    print(markdown(rows))
    write_atomically(out, rows)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
