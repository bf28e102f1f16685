"""The GIL: a long op runs without it, so other Python threads go on meanwhile."""
import threading
import time

import numpy as np
import pytest

import vktensor as vt

N = 1 << 22
X = vt.asarray(np.random.default_rng(7).random(N, dtype=np.float32))
BACKWARDS = vt.asarray(np.arange(N - 1, -1, -1, dtype=np.int64))
LONG_OPS = {
    "sort": lambda: vt.sort(X),
    "reverse": lambda: vt.reverse(vt.reverse(vt.reverse(X))),
    "take": lambda: vt.take(X, BACKWARDS),
    "cumulative_sum": lambda: vt.cumulative_sum(X),
}


@pytest.mark.parametrize("name", sorted(LONG_OPS))
def test_a_long_op_lets_other_threads_run(name):
    op = LONG_OPS[name]
    took = []

    def worker():
        start = time.perf_counter()
        for _ in range(3):
            op()
        took.append(time.perf_counter() - start)

    t = threading.Thread(target=worker)
    gaps, last = [], time.perf_counter()
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    t.join()
    # Holding the GIL, the op would stop this loop for its whole run: one gap as long as an
    # op. Without it, the loop only waits its turn (the 5 ms switch interval).
    assert max(gaps) < took[0] / 6, f"{name}: the loop stalled {max(gaps):.3f} s of {took[0]:.3f} s"
