"""Task functions for the executor tests; module-level so Dask workers import them (tests/ is on their sys.path)."""

import os
import sys
from collections.abc import Iterable
from pathlib import Path


def square_or_die(index: int, markers: str) -> int:
    """Square `index`; the first time index 3 runs, kill the worker process running it."""
    if index == 3:
        marker = Path(markers) / "died"
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os._exit(1)
    return index * index


def long_solve(markers: str, index: int) -> int:
    """A CP-SAT search of many seconds (the shortest Golomb ruler of 13 marks, 2 threads).

    Writes ``solving-<index>`` with the worker's pid in `markers` just before the search starts.
    """
    from ortools.sat.python import cp_model

    marks = 13
    model = cp_model.CpModel()
    position = [model.new_int_var(0, marks * marks, f"x{i}") for i in range(marks)]
    model.add(position[0] == 0)
    for left, right in zip(position, position[1:], strict=False):
        model.add(right > left)
    gaps = []
    for i in range(marks):
        for j in range(i + 1, marks):
            gap = model.new_int_var(1, marks * marks, f"d{i}_{j}")
            model.add(gap == position[j] - position[i])
            gaps.append(gap)
    model.add_all_different(gaps)
    model.minimize(position[-1])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = 60
    (Path(markers) / f"solving-{index}").write_text(str(os.getpid()))
    return int(solver.solve(model))


def compare_signalled_after(writes: int, signal_number: int, arguments: list[str]) -> None:
    """Run ``cpsolve compare ARGUMENTS`` and send this process `signal_number` right after the store's
    `writes`-th write: a kill or a Ctrl-C at a known moment of the sweep, however fast the machine runs it
    (a small sweep takes well under a second, too fast for a test to aim a signal from outside)."""
    from cpsolve.sweep.store import ResultStore

    write = ResultStore.add
    done = 0

    def add_then_signal(store: ResultStore, settings: str, records: Iterable) -> None:
        nonlocal done
        write(store, settings, records)
        done += 1
        if done == writes:
            os.kill(os.getpid(), signal_number)  # delivered before kill() returns (POSIX, to oneself)

    ResultStore.add = add_then_signal  # this process only: it runs the sweep and ends
    sys.argv = ["cpsolve", "compare", *arguments]
    from cpsolve.cli import main

    main()
