"""The GIL: a long op runs without it, so other Python threads go on meanwhile."""
import threading
import time

import numpy as np
import pytest

import vktensor as vt

N = 1 << 22
X = vt.asarray(np.random.default_rng(7).random(N, dtype=np.float32))
BACKWARDS = vt.asarray(np.arange(2 * N - 1, -1, -1, dtype=np.int64) % N)
M = vt.asarray(np.random.default_rng(8).random((1024, 1024), dtype=np.float32))
# Ops that take tens of milliseconds or more here, well above a scheduler's time slice.
LONG_OPS = {
    "sort": lambda: vt.sort(X),
    "argsort": lambda: vt.argsort(X),
    "take": lambda: vt.take(X, BACKWARDS),
    "matmul operator": lambda: M @ M,
}


@pytest.mark.parametrize("name", sorted(LONG_OPS))
def test_a_long_op_lets_other_threads_run(name):
    op = LONG_OPS[name]
    durations = []

    def worker():
        for _ in range(3):
            start = time.perf_counter()
            op()
            durations.append(time.perf_counter() - start)

    t = threading.Thread(target=worker)
    longest_gap, last = 0.0, time.perf_counter()
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        longest_gap, last = max(longest_gap, now - last), now
    t.join()
    # Holding the GIL, an op stops this loop for all of its run: a gap as long as the op.
    # Without it the loop only waits its turn (the 5 ms switch interval, a time slice).
    shortest = min(durations)
    assert longest_gap < shortest / 2, f"{name}: the loop stalled {longest_gap:.3f} s, an op took {shortest:.3f} s"
