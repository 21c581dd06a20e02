"""Cross-checking the layout backends: a sweep's summaries built from Records, and the sweep itself.

:func:`run_comparison` cuts the cases into chunks, hands each chunk to an executor as one task
(:func:`cpsolve.sweep.tasks.solve_layout_chunk`), writes each task's records to the store as
they arrive, and feeds the :class:`Comparison` (and the CSV) chunk by chunk in case order,
whatever order the tasks finished in. The report is therefore the same whatever ran the cases:
this process, a local Dask cluster or a remote one, from scratch or resumed from the store.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from cpsolve.layout import PHASES, ModelKind, SolveOptions
from cpsolve.outcome import Record, Status
from cpsolve.sweep.cases import Case, case_dict, chunk_size, chunks
from cpsolve.sweep.executors import Executor, InProcessExecutor
from cpsolve.sweep.store import ResultStore
from cpsolve.sweep.tasks import LAYOUT, solve_layout_chunk

__all__ = ["BackendSummary", "Comparison", "layout_settings", "run_comparison"]

#: SolveOptions fields that never change what a backend answers (how fast, where a model is written):
#: left out of the store's settings, so a sweep resumed with another --jobs finds its records.
_NOT_VERDICT = frozenset({"workers", "export_model", "log"})
#: Fields added after stores were first written, left out at their default so those stores still resume.
_LATER_DEFAULTS: dict[str, Any] = {
    "phases": PHASES,
    "model": ModelKind.STRONG.value,
    "least_tree_groups": 8,
    "deterministic": True,
}


@dataclass
class BackendSummary:
    """Counts and times of one backend over the sweep."""

    possible: int = 0
    impossible: int = 0
    unknown: int = 0
    invalid: int = 0
    times: list[float] = field(default_factory=list)

    def as_dict(self) -> dict:
        """The JSON form: counts, total seconds, median, p95 and worst (independent of the order times came in)."""
        times = sorted(self.times)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
        return {
            "possible": self.possible,
            "impossible": self.impossible,
            "unknown": self.unknown,
            "invalid": self.invalid,
            "seconds": round(math.fsum(times), 4),
            "median": round(statistics.median(times), 6) if times else 0.0,
            "p95": round(p95, 6),
            "worst": round(times[-1], 6) if times else 0.0,
        }


@dataclass
class Comparison:
    """The outcome of a sweep.

    Attributes:
        backends: The backends, in the order they were asked for.
        cases: Cases answered (by every backend).
        resumed: Of those, how many were taken from the store instead of solved.
        summaries: Per backend counts and times.
        disagreements: Cases where two backends gave opposite verdicts, sorted by case.
        invalid_boards: Boards the judge rejected, sorted by case and backend.
        points: (R, C, M, backend, verdict, seconds) per record when kept for a plot.
    """

    backends: list[str]
    cases: int = 0
    resumed: int = 0
    summaries: dict[str, BackendSummary] = field(default_factory=dict)
    disagreements: list[dict] = field(default_factory=list)
    invalid_boards: list[dict] = field(default_factory=list)
    points: list[tuple[int, int, int, str, str, float]] = field(default_factory=list)
    keep_points: bool = False

    def __post_init__(self) -> None:
        for name in self.backends:
            self.summaries.setdefault(name, BackendSummary())

    def add_case(self, records: list[Record]) -> None:
        """Count one case: the records of every backend on it."""
        self.cases += 1
        verdicts: dict[str, str] = {}
        for record in sorted(records, key=lambda record: self.backends.index(record.backend)):
            summary = self.summaries[record.backend]
            key = record.key
            verdicts[record.backend] = record.status.value
            if record.status is Status.INVALID:
                summary.invalid += 1
                self.invalid_boards.append(
                    {
                        "rows": key[0],
                        "cols": key[1],
                        "mines": key[2],
                        "backend": record.backend,
                        "reason": record.reason,
                    }
                )
            else:
                setattr(summary, record.status.value, getattr(summary, record.status.value) + 1)
                summary.times.append(record.seconds)
            if self.keep_points:
                self.points.append((*key, record.backend, record.status.value, record.seconds))
        if len({verdict for verdict in verdicts.values() if Status(verdict).decided}) > 1:
            key = records[0].key
            self.disagreements.append({"rows": key[0], "cols": key[1], "mines": key[2], "verdicts": verdicts})

    def finish(self) -> None:
        """Put the lists in case order, so the report does not depend on the order results arrived in."""
        order = {name: index for index, name in enumerate(self.backends)}
        self.disagreements.sort(key=lambda item: (item["rows"], item["cols"], item["mines"]))
        self.invalid_boards.sort(key=lambda item: (item["rows"], item["cols"], item["mines"], order[item["backend"]]))
        self.points.sort(key=lambda point: (point[:3], order[point[3]]))

    @property
    def exit_code(self) -> int:
        """0 all agree and valid, 1 any disagreement or invalid board, 3 some case undecided."""
        if self.disagreements or self.invalid_boards:
            return 1
        if any(summary.unknown for summary in self.summaries.values()):
            return 3
        return 0

    def as_dict(self) -> dict:
        """The --json report."""
        return {
            "cases": self.cases,
            "resumed": self.resumed,
            "disagreements": self.disagreements,
            "invalid_boards": self.invalid_boards,
            "backends": {name: summary.as_dict() for name, summary in self.summaries.items()},
        }


def layout_settings(options: SolveOptions) -> dict[str, Any]:
    """The settings that decide a layout verdict: every SolveOptions field but those that cannot."""
    return {
        name: value
        for name, value in dataclasses.asdict(options).items()
        if name not in _NOT_VERDICT and not (name in _LATER_DEFAULTS and value == _LATER_DEFAULTS[name])
    }


@dataclass
class _Chunk:
    cases: list[Case]
    stored: dict[tuple, list[Record]]
    waiting: bool
    new: list[Record] = field(default_factory=list)


class _CaseOrder:
    """The chunks of a sweep, from their lookup in the store to the report, in case order.

    Each chunk is planned as it is handed to the executor (with what the store holds of it), and
    filled when its task finishes; the comparison and `on_case` are fed every case of the chunks
    that are complete, in chunk order, whatever order the tasks finished in.
    """

    def __init__(self, comparison: Comparison, on_case: Callable[[list[Record]], None] | None):
        self.comparison = comparison
        self.on_case = on_case
        self.order = {name: index for index, name in enumerate(comparison.backends)}
        self.plans: dict[int, _Chunk] = {}
        self.task_chunk: list[int] = []  # task index -> chunk index
        self.emitted = 0

    def plan(self, index: int, cases: list[Case], stored: dict[tuple, list[Record]], solving: bool) -> None:
        """Chunk `index`: its cases, those the store holds, and whether a task solves the rest."""
        self.plans[index] = _Chunk(cases, stored, waiting=solving)
        if solving:
            self.task_chunk.append(index)

    def solved(self, task_index: int, records: list[Record]) -> None:
        """A task finished: fill its chunk, and report every chunk now complete."""
        plan = self.plans[self.task_chunk[task_index]]
        plan.new, plan.waiting = records, False
        self.emit_ready()

    def emit_ready(self) -> None:
        """Feed the comparison the complete chunks at the head of the order."""
        while self.emitted in self.plans and not self.plans[self.emitted].waiting:
            plan = self.plans.pop(self.emitted)
            self.emitted += 1
            fresh: dict[tuple, list[Record]] = {}
            for record in plan.new:
                fresh.setdefault(record.key, []).append(record)
            for case in plan.cases:
                records = plan.stored.get(case) or fresh.get(case)
                if records is None:  # not in the store, and not solved (report mode)
                    continue
                # the store's rows come back in its own order: put them in the backends' order
                records = sorted(
                    (r for r in records if r.backend in self.order), key=lambda record: self.order[record.backend]
                )
                self.comparison.add_case(records)
                if self.on_case:
                    self.on_case(records)


def _stored_cases(
    store: ResultStore, settings: str, cases: list[Case], backends: list[str]
) -> dict[tuple, list[Record]]:
    """The cases of a chunk that the store holds for every backend, with their records."""
    stored: dict[tuple, list[Record]] = {}
    for records in store.fetch(settings, LAYOUT, [case_dict(case) for case in cases]).values():
        if {record.backend for record in records} >= set(backends):
            stored[records[0].key] = records
    return stored


def run_comparison(
    cases: Iterable[Case],
    backends: list[str],
    options: SolveOptions,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    on_case: Callable[[list[Record]], None] | None = None,
    keep_points: bool = False,
    store: ResultStore | None = None,
    resume: bool = False,
    solve_missing: bool = True,
    settings_key: str | None = None,
) -> Comparison:
    """Run every case on every backend and compare the verdicts.

    Args:
        cases: (R, C, M) triples, in the order the report lists them.
        backends: Backend names.
        options: Shared solve options (CP workers already fitted to the executor).
        executor: What runs the tasks; None runs them in this process.
        progress: Called with a number of cases each time some are finished (or taken from the store).
        on_case: Called with each case's records, in case order (the CSV writer).
        keep_points: Keep (R, C, M, backend, verdict, seconds) per record, for plots.
        store: Where every task's records go as they arrive, if given.
        resume: Take the cases the store already holds (for every backend, same settings) from it.
        solve_missing: False leaves cases out that the store does not hold (``cpsolve report``).
        settings_key: The store's key for the settings (default: the hash of `options`' settings).

    Returns:
        The comparison, lists in case order.

    Raises:
        StoreError: A record the store holds for these cases is not what cpsolve writes.
    """
    comparison = Comparison(list(backends), keep_points=keep_points)
    executor = executor or InProcessExecutor()
    settings = (settings_key or store.register_settings(LAYOUT, layout_settings(options))) if store else ""
    order = _CaseOrder(comparison, on_case)

    def tasks() -> Iterator[tuple]:
        # called lazily by the executor, in this thread: each chunk is looked up in the store
        # just before its task is submitted, so a million-case resume never loads the whole store
        for index, chunk in enumerate(chunks(cases, chunk_size(backends))):
            stored = _stored_cases(store, settings, chunk, backends) if store and resume else {}
            comparison.resumed += len(stored)
            if progress and stored:
                progress(len(stored))
            todo = [case for case in chunk if case not in stored] if solve_missing else []
            order.plan(index, chunk, stored, solving=bool(todo))
            if todo:
                yield todo, list(backends), options

    for task_index, records in executor.run(solve_layout_chunk, tasks()):
        if store:
            store.add(settings, records)
        if progress:
            progress(len(records) // len(backends))
        order.solved(task_index, records)
    order.emit_ready()
    comparison.finish()
    return comparison
