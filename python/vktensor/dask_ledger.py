"""What a Dask computation of tensor chunks moved across the bus, in total and per task (issue 39).

`compute_with_ledger` computes Dask collections and returns a `TaskLedger`: the ledger's change
over the computation (this process's, plus every worker's under `distributed`) and, where each
task's own change can be told apart, one delta per task and a printable summary by task name.
Per task: under `distributed`, `LedgerPlugin` on each worker takes a snapshot as a task starts
executing, puts the change into the task's metadata (`ts.metadata["vktensor_ledger"]`, which
the scheduler keeps with the task: `distributed.get_task_metadata()` shows an output key's)
and keeps it for `compute_with_ledger` to collect; under Dask's synchronous scheduler, a
callback around each task. Dask's threaded scheduler runs tasks at once
in one process-wide ledger, so it gives the total only.
"""
import dask
from dask.callbacks import Callback
from dask.utils import key_split

import vktensor as vt
from . import _difference

METADATA_KEY = "vktensor_ledger"
PLUGIN_NAME = "vktensor-ledger"
_LOCAL_SCHEDULERS = ("threads", "threading", "sync", "synchronous", "single-threaded")
_ONE_AT_A_TIME = ("sync", "synchronous", "single-threaded")
# The summary's columns: (heading, counter).
_COLUMNS = (("uploads", "uploads"), ("up bytes", "upload_bytes"), ("downloads", "downloads"),
            ("down bytes", "download_bytes"), ("dev copies", "device_copies"),
            ("cross-dev bytes", "cross_device_host_staged_bytes"),
            ("dispatches", "dispatches"), ("fallbacks", "fallbacks"))


def _nonzero(delta):
    return {name: value for name, value in delta.items() if value}


def _sum_deltas(deltas):
    total = {}
    for delta in deltas:
        for key, value in delta.items():
            if isinstance(value, dict):
                merged = total.setdefault(key, {})
                for op, n in value.items():
                    merged[op] = merged.get(op, 0) + n
            else:
                total[key] = total.get(key, 0) + value
    return total


class TaskLedger(vt.LedgerDelta):
    """A computation's ledger change (`led.uploads`, `led.download_bytes`, ...), and `tasks`:
    {task key: that task's nonzero counters}, or None where tasks ran at once in one ledger
    (Dask's threaded scheduler)."""

    def __init__(self):
        super().__init__()
        self.tasks = None

    def summary(self):
        """A table of the per-task counts summed by task name (Dask's key_split: 'getter',
        'sum-aggregate', ...), then the whole computation's, which also holds what crossed
        outside tasks (results unpickled here, data a worker received)."""
        rows = {}
        for key, delta in (self.tasks or {}).items():
            row = rows.setdefault(key_split(key), {"tasks": 0})
            row["tasks"] += 1
            for _, counter in _COLUMNS:
                row[counter] = row.get(counter, 0) + delta.get(counter, 0)
        headings = ("task", "tasks") + tuple(heading for heading, _ in _COLUMNS)
        lines = [[str(name), str(row["tasks"])] + [str(row[c]) for _, c in _COLUMNS]
                 for name, row in sorted(rows.items())]
        if self.delta is not None:
            lines.append(["(whole computation)", "" if self.tasks is None else
                          str(len(self.tasks))] + [str(self.delta.get(c, 0))
                                                   for _, c in _COLUMNS])
        widths = [max(len(cell) for cell in column) for column in zip(headings, *lines)]
        text = [" ".join(cell.rjust(w) if i else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(line, widths)))
                for line in [list(headings)] + lines]
        if self.tasks is None:
            text.append("(no per-task counts: tasks ran at once in one process's ledger)")
        return "\n".join(text)

    def __repr__(self):
        tasks = "" if self.tasks is None else f", {len(self.tasks)} tasks"
        return f"TaskLedger({self.delta}{tasks})"


class LedgerPlugin:
    """A distributed WorkerPlugin (duck-typed, as distributed accepts): each task's ledger
    change on its worker, from the transition into "executing" to the one into "memory", put
    into the task's metadata (which the scheduler keeps while it keeps the task) and kept here
    for `compute_with_ledger` to collect (the latest 100000 tasks). The ledger is
    process-wide: with one thread a worker, the change is the task's, plus anything the worker
    unpickled meanwhile."""

    name = PLUGIN_NAME
    keep = 100_000

    def setup(self, worker):
        self.worker = worker
        self.started, self.finished = {}, {}

    def transition(self, key, start, finish, *args, **kwargs):
        if finish == "executing":
            self.started[key] = vt.ledger_snapshot()
        elif start == "executing":
            before = self.started.pop(key, None)
            task = self.worker.state.tasks.get(key)
            if before is None or finish != "memory" or task is None:
                return
            delta = _nonzero(_difference(vt.ledger_snapshot(), before))
            task.metadata[METADATA_KEY] = delta
            self.finished[key] = delta
            if len(self.finished) > self.keep:
                del self.finished[next(iter(self.finished))]

    def take_finished(self):
        """The tasks finished since the last call, and forgets them."""
        finished, self.finished = self.finished, {}
        return finished


def record_task_ledgers(client):
    """Registers LedgerPlugin on `client`'s workers (those to come too), once: each task's
    ledger change then lands in its metadata under "vktensor_ledger"."""
    registered = client.run_on_scheduler(
        lambda dask_scheduler: PLUGIN_NAME in dask_scheduler.worker_plugins)
    if not registered:
        client.register_worker_plugin(LedgerPlugin(), name=PLUGIN_NAME)


class _TaskCallback(Callback):
    """Each task's ledger change under Dask's synchronous scheduler (one task at a time)."""

    def __init__(self):
        super().__init__()
        self.tasks, self._before = {}, None

    def _pretask(self, key, dsk, state):
        self._before = vt.ledger_snapshot()

    def _posttask(self, key, result, dsk, state, worker_id):
        self.tasks[key] = _nonzero(_difference(vt.ledger_snapshot(), self._before))


def _worker_ledger(dask_worker):
    """This worker's ledger now, and the per-task changes its LedgerPlugin holds (taken)."""
    plugin = dask_worker.plugins.get(PLUGIN_NAME)
    return vt.ledger_snapshot(), ({} if plugin is None else plugin.take_finished())


def compute_with_ledger(*collections, scheduler="threads", client=None, timeout=None):
    """Computes Dask collections and returns (results, TaskLedger): one result for one
    collection, else a tuple. Without `client`: the ledger of this process over the
    computation, run by the threads or synchronous scheduler (the ledger is process-wide,
    so work other threads do meanwhile counts too); the synchronous one also gives each task's
    change (`led.tasks`). With a `distributed` client: the sum of every worker's ledger change
    (snapshots taken before and after on each worker; a worker that joined meanwhile counts
    whole, one that died is lost) and this process's (which unpickles the results), and each
    task that finished on a worker meanwhile (LedgerPlugin, registered here; other
    computations' tasks too, if any ran); `timeout` (seconds) bounds the wait for each result
    there. `led.summary()` prints the per-task counts by task name."""
    led = TaskLedger()
    if client is None:
        if scheduler not in _LOCAL_SCHEDULERS:
            raise vt.Unsupported(f"[dask.compute_with_ledger] scheduler={scheduler!r}: this "
                                 f"process's ledger sees {_LOCAL_SCHEDULERS} only; pass "
                                 "client= for a distributed cluster")
        per_task = _TaskCallback() if scheduler in _ONE_AT_A_TIME else None
        before = vt.ledger_snapshot()
        try:
            if per_task is None:
                results = dask.compute(*collections, scheduler=scheduler)
            else:
                with per_task:
                    results = dask.compute(*collections, scheduler=scheduler)
        finally:
            led.delta = _difference(vt.ledger_snapshot(), before)
        led.tasks = None if per_task is None else per_task.tasks
    else:
        record_task_ledgers(client)
        workers_before, before = client.run(_worker_ledger), vt.ledger_snapshot()
        futures = client.compute(list(collections))
        results = tuple(future.result(timeout=timeout) for future in futures)
        workers_after, after = client.run(_worker_ledger), vt.ledger_snapshot()
        deltas = [_difference(after, before)]
        zero = {k: ({} if isinstance(v, dict) else 0) for k, v in after.items()}
        deltas += [_difference(snapshot, workers_before.get(address, (zero,))[0])
                   for address, (snapshot, _) in workers_after.items()]
        led.delta = _sum_deltas(deltas)
        led.tasks = {key: delta for _, tasks in workers_after.values()
                     for key, delta in tasks.items()}
    return (results[0] if len(results) == 1 else results), led
