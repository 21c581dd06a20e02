"""A sweep from start to finish: what runs it, where its results go, and what it leaves behind.

The commands (``compare``, ``stats --random`` with ``--jobs``/``--scheduler``/``--store``) and
tests call the same functions here, so the command line only checks options and prints:

- :func:`open_store`, :func:`open_executor`: the store (checked before it is trusted) and what
  runs the tasks (this process, a forked pool, a local Dask cluster or a remote one), each closed
  however the sweep ends. The store is checked first and opened (created, if new) once the
  executor has started: a cluster that does not start leaves no empty store behind.
- :class:`LayoutSweep`: a layout sweep as a context: Ctrl-C held between solves, the store opened
  and the sweep's settings registered, its start and finish recorded, resume, the CSV spooled
  and dropped if the sweep does not finish, the reports written at the end.
- :func:`run_game_sweep`: a win-rate study the same way.

Example:
    >>> from cpsolve.layout import SolveOptions
    >>> with LayoutSweep((2, 2), (2, 3), None, ["greedy"], SolveOptions(), jobs=1) as sweep:
    ...     result = sweep.run()
    >>> result.cases, result.summaries["greedy"].possible, result.summaries["greedy"].impossible
    (10, 5, 5)
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from cpsolve.interrupt import interrupts_between_solves
from cpsolve.sweep.cases import CHEAP_CHUNK, chunk_size, count_cases, iter_cases
from cpsolve.sweep.compare import layout_settings, run_comparison
from cpsolve.sweep.executors import DaskExecutor, InProcessExecutor, PoolExecutor
from cpsolve.sweep.games import check_resumable, run_games
from cpsolve.sweep.report import CsvSpool, write_reports
from cpsolve.sweep.store import ResultStore
from cpsolve.sweep.tasks import LAYOUT

if TYPE_CHECKING:
    from cpsolve.errors import InputError
    from cpsolve.generate import GameSettings
    from cpsolve.layout import SolveOptions
    from cpsolve.sweep.compare import Comparison
    from cpsolve.sweep.executors import Executor
    from cpsolve.sweep.store import ResultStore

__all__ = ["available_cores", "fit_workers", "open_store", "open_executor", "LayoutSweep", "run_game_sweep"]

Progress = Callable[[int], None]


def available_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def fit_workers(jobs: int, scheduler: str | None) -> int | None:
    """CP-SAT threads per case for the executor: 1 on a cluster, 8 shared by local jobs, the backend's own alone."""
    if scheduler:
        return 1  # a cluster runs one worker process per core
    return max(1, 8 // jobs) if jobs > 1 else None


@contextmanager
def open_store(path: str | None, read_only: bool = False) -> Iterator[ResultStore | None]:
    """The results store at `path` (None: no store), closed however the sweep ends.

    Every task's records are committed as they arrive, so closing after Ctrl-C or an error loses nothing that finished.

    Raises:
        StoreError: The file is not a cpsolve store, is too new, or is damaged (nothing was written to it).
    """
    if path is None:
        yield None
        return

    store = ResultStore(path, read_only=read_only)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def open_executor(scheduler: str | None, jobs: int, cheap: bool = False) -> Iterator[Executor]:
    """What runs the tasks: the cluster at `scheduler`, or `jobs` local workers, or (jobs 1) this process.

    One job runs here: a local cluster would add seconds of start-up and a process hop, and gain
    nothing. Local workers are a Dask cluster, except for `cheap` work (cases of microseconds, the
    greedy sweep): there the driver, not the workers, sets the pace, and a forked pool, which
    inherits the imports and hands results straight back, measured 1.5 to 3 times faster.
    """

    executor: Executor
    if scheduler:
        executor = DaskExecutor(scheduler)
    elif jobs == 1:
        executor = InProcessExecutor()
    else:
        executor = PoolExecutor(jobs) if cheap else DaskExecutor(workers=jobs)
    try:
        yield executor
    finally:
        executor.close()


class LayoutSweep:
    """A layout sweep over ranges of (R, C, M), as a context that holds its store and executor.

    Entering it holds Ctrl-C between solves (start a progress bar inside, so its thread does too),
    opens the store and records the sweep's start, starts the executor, and spools the CSV;
    :meth:`run` runs the cases and records the finish; leaving it closes everything, and drops
    the CSV spool when the sweep did not finish. :meth:`write_reports` then writes the reports.

    Args:
        rows: Inclusive range of row counts.
        cols: Inclusive range of column counts.
        mines: Inclusive range, or None for every 0 <= M < R*C.
        backends: Backend names, run on every case.
        options: Solve options; ``workers=None`` is fitted to the executor (:func:`fit_workers`).
        jobs: Local worker processes (1: this process).
        scheduler: A Dask scheduler's address, instead of local workers.
        store_path: The results store, if any.
        resume: Take the cases the store holds (same settings) from it.
        csv_path: Where the --csv report goes, if anywhere.
        keep_points: Keep every record's figures, for a plot.
    """

    def __init__(
        self,
        rows: tuple[int, int],
        cols: tuple[int, int],
        mines: tuple[int, int] | None,
        backends: Sequence[str],
        options: SolveOptions,
        *,
        jobs: int = 1,
        scheduler: str | None = None,
        store_path: str | None = None,
        resume: bool = False,
        csv_path: str | Path | None = None,
        keep_points: bool = False,
    ):
        self.ranges = (rows, cols, mines)
        self.backends = list(backends)
        if options.workers is None:
            options = dataclasses.replace(options, workers=fit_workers(jobs, scheduler))
        self.options = options
        self.jobs, self.scheduler = jobs, scheduler
        self.store_path, self.resume, self.csv_path, self.keep_points = store_path, resume, csv_path, keep_points
        self.total = count_cases(rows, cols, mines)
        self.store: Any = None
        self.executor: Any = None
        self.csv_spool: Any = None
        self.elapsed = 0.0
        self._stack = ExitStack()
        self._settings_key: str | None = None
        self._sweep_id: int | None = None

    def __enter__(self) -> LayoutSweep:

        with self._stack as stack:
            stack.enter_context(interrupts_between_solves())
            settings = layout_settings(self.options)
            _check_store(
                self.store_path, (lambda store: store.check_records(LAYOUT, settings)) if self.resume else None
            )
            cheap = chunk_size(self.backends) == CHEAP_CHUNK
            self.executor = stack.enter_context(open_executor(self.scheduler, self.jobs, cheap))
            self.store = stack.enter_context(open_store(self.store_path))  # created once the executor runs
            if self.store:
                self._settings_key = self.store.register_settings(LAYOUT, settings)
                rows, cols, mines = self.ranges
                spec = {
                    "rows": list(rows),
                    "cols": list(cols),
                    "mines": list(mines) if mines else None,
                    "backends": self.backends,
                    "total": self.total,
                }
                self._sweep_id = self.store.begin_sweep(LAYOUT, self._settings_key, spec)
            if self.csv_path:
                self.csv_spool = CsvSpool(Path(self.csv_path))
            self._stack = stack.pop_all()  # everything started: keep it open until __exit__
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if kind is not None and self.csv_spool is not None:
            self.csv_spool.discard()  # interrupted or failed: a partial CSV is no report (the store has the rows)
        self._stack.__exit__(kind, error, traceback)

    def run(self, progress: Progress | None = None) -> Comparison:
        """Run every case (or take it from the store), record the sweep's finish; return the Comparison.

        Args:
            progress: Called with a number of cases each time some are finished or taken from the store.
        """

        started = time.perf_counter()
        result = run_comparison(
            iter_cases(*self.ranges),
            self.backends,
            self.options,
            self.executor,
            progress,
            on_case=self.csv_spool.add_case if self.csv_spool else None,
            keep_points=self.keep_points,
            store=self.store,
            resume=self.resume,
            settings_key=self._settings_key,
        )
        self.elapsed = time.perf_counter() - started
        if self.store:
            self.store.finish_sweep(self._sweep_id, result.cases, result.resumed)
        return result

    @property
    def where(self) -> str:
        """Where the cases ran, for the report's title."""
        return self.scheduler or f"{self.executor.workers} job(s)"

    def write_reports(
        self, comparison: Comparison, json_path: str | Path | None, plot_path: str | Path | None
    ) -> list[InputError]:
        """Write the asked-for reports (:func:`cpsolve.sweep.report.write_reports`): an error per report that failed."""

        return write_reports(
            comparison, Path(json_path) if json_path else None, Path(plot_path) if plot_path else None, self.csv_spool
        )


def run_game_sweep(
    settings: GameSettings,
    games: int,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    store_path: str | None = None,
    resume: bool = False,
    progress: Progress | None = None,
) -> tuple[dict, int]:
    """Games 0..games-1 as tasks (here, on a local Dask cluster or a remote one), kept in the store if asked.

    Returns:
        The summary (:func:`cpsolve.generate.summarise_records`) and how many games came from the store.
    """

    with interrupts_between_solves():
        _check_store(store_path, (lambda store: check_resumable(store, settings)) if resume else None)
        # the store is created once the executor runs: a cluster that does not start leaves none behind
        with open_executor(scheduler, jobs) as executor, open_store(store_path) as store:
            return run_games(settings, games, executor, progress, store, resume)


def _check_store(path: str | None, resumed: Callable[[ResultStore], None] | None = None) -> None:
    """A store that cannot be used is refused before anything starts, and nothing is created yet.

    Args:
        path: The store (None: no store).
        resumed: For a resume, what it will trust in the store, checked now on a read-only
            connection, so a damaged store is refused exactly as it was found (opening it to
            write changes its header, if not its rows).
    """
    if path is not None:
        version = ResultStore.check(path)
        if resumed is not None and version is not None:
            with ResultStore(path, read_only=True) as store:
                resumed(store)
