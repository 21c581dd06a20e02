"""Sweeps: many cases on many backends, run by an executor, kept in a store, summed up in reports.

Modules:
    cases:     ranges of (R, C, M) cases, their order, count and chunks.
    tasks:     the plain, picklable functions a task runs (a chunk of cases -> Records).
    executors: in-process, a process pool, or Dask (local cluster or a scheduler's address).
    compare:   the Comparison built from Records, and the sweep that feeds it.
    store:     the SQLite results store (resume, and reports without solving), checked before it is trusted.
    report:    JSON, CSV and plot writers; a Comparison rebuilt from a store.
    games:     win-rate studies (random games by index) as sweeps.
    session:   a sweep from start to finish (store, executor, resume, reports): what the commands call.
    interrupt: Ctrl-C between solves, never inside one.

Dask is imported only by :class:`cpsolve.sweep.executors.DaskExecutor` (and the worker plugin it
loads, ``_dask_worker``), matplotlib only by the plot.
"""
