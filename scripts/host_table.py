#!/usr/bin/python3
"""The host table of BENCHMARKS.md: vktensor's cpu backend (column A of a vkt-bench
consumer CSV) beside NumPy's and PyTorch CPU's (A of their peer CSVs), op by op.
Usage: host_table.py VKTENSOR_CSV NUMPY_CSV [TORCH_CSV]   (markdown on stdout)"""

import csv
import sys


def load(path):
    with open(path, newline="", encoding="utf-8") as f:
        return {(r["op"], r["size"]): r for r in csv.DictReader(f)}


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    vkt, numpy = load(argv[1]), load(argv[2])
    torch = load(argv[3]) if len(argv) == 4 else None
    head = ["op", "size", "vktensor A us", "NumPy A us", "vkt/NumPy"]
    if torch:
        head += ["PyTorch A us", "vkt/PyTorch"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for key, row in vkt.items():
        a = float(row["A_us"])
        cells = [key[0], key[1], f"{a:.1f}"]
        for peer in (numpy, torch) if torch else (numpy,):
            p = peer.get(key)
            if p is None or not p["A_us"]:
                cells += ["", ""]
                continue
            pa = float(p["A_us"])
            ratio = a / pa
            cells += [f"{pa:.1f}", f"**{ratio:.2f}**" if ratio > 1.5 else f"{ratio:.2f}"]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
