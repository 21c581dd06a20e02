"""The terminal game's solver jobs: each step of the solver in a thread worker, with a deadline.

The screen goes on while the solver works: a job runs ``work(deadline)`` in a Textual thread
worker and hands its result (or the exception it raised) to ``done`` on the screen's thread. A
job asked about one state of the game is dropped if the game moved on meanwhile, so no answer
is drawn over a game it was not computed for. The job the info line shows (its label and when it
began) is :attr:`Jobs.busy`, for the spinner (:class:`cpsolve.game.lines.InfoLine`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from textual.css.query import NoMatches
from textual.reactive import var
from textual.widget import Widget
from textual.worker import Worker, WorkerState

__all__ = ["Working", "Jobs"]


@dataclass(frozen=True)
class Working:
    """What the spinner shows: a job's label and when it began (``time.perf_counter()``)."""

    label: str
    began: float


@dataclass(frozen=True)
class _Job:
    label: str
    began: float
    done: Callable[[Any], None]
    about: Hashable | None


class Jobs(Widget):
    """The solver's jobs (a widget that draws nothing: it owns their workers and hears them end).

    Args:
        time_limit: Seconds each job may take: its work gets the deadline.
        now: The game as it is now: a job asked about another state is dropped when it ends.
    """

    DEFAULT_CSS = """
    Jobs { display: none; }
    """

    #: The first labelled job still running, for the spinner; None when the solver is idle.
    busy: var[Working | None] = var(None)

    def __init__(self, time_limit: float, now: Callable[[], Hashable]) -> None:
        super().__init__()
        self.time_limit = time_limit
        self.now = now
        self._jobs: dict[Worker[Any], _Job] = {}

    @property
    def running(self) -> int:
        """The jobs started and not yet ended nor cancelled."""
        return len(self._jobs)

    def run(
        self,
        label: str,
        work: Callable[[float], Any],
        done: Callable[[Any], None],
        group: str,
        *,
        exclusive: bool = True,
        about: Hashable | None = None,
    ) -> None:
        """Run ``work(deadline)`` in a thread worker; ``done(result)`` on the screen's thread after.

        Args:
            label: What the spinner says meanwhile ("" for a job that shows none).
            work: The solver's step; it gets a ``time.perf_counter()`` deadline.
            done: Takes the work's return value, or the exception it raised
                (:class:`cpsolve.errors.TimeLimitError` when the time limit ran out).
            group: The kind of job: an exclusive job replaces the group's running one, whose
                result is then never used.
            exclusive: Whether to replace the group's running job.
            about: The game (a value of ``now()``) the job answers for: when it ends with the game
                moved on, its result is dropped. None: always handed on.
        """

        def body() -> Any:
            try:
                return work(time.perf_counter() + self.time_limit)
            except Exception as error:  # handed to done(), which says what happened
                return error

        if exclusive:
            self.cancel(group)
        worker = self.run_worker(body, group=group, exclusive=exclusive, thread=True, exit_on_error=False)
        self._jobs[worker] = _Job(label, time.perf_counter(), done, about)
        self._show_busy()

    def cancel(self, group: str) -> None:
        """Cancel the group's jobs and forget them: a worker cancelled before it started never
        reports that it stopped, so the spinner must not wait for it."""
        for worker in [worker for worker in self._jobs if worker.group == group]:
            worker.cancel()
            del self._jobs[worker]
        self._show_busy()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        event.stop()  # the jobs' own: nothing above needs it
        job = self._jobs.get(event.worker)
        if job is None or event.state in (WorkerState.PENDING, WorkerState.RUNNING):
            return
        del self._jobs[event.worker]
        self._show_busy()
        if event.state != WorkerState.SUCCESS or (job.about is not None and job.about != self.now()):
            return
        with suppress(NoMatches):  # the app is closing (its workers are cancelled then): nothing to draw on
            job.done(event.worker.result)

    def _show_busy(self) -> None:
        labelled = [job for worker, job in self._jobs.items() if job.label and not worker.is_cancelled]
        self.busy = Working(labelled[0].label, labelled[0].began) if labelled else None
