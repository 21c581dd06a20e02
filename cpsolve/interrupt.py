"""Ctrl-C: an honest interruption, never mistaken for a time limit or a verdict.

OR-Tools' CP-SAT catches SIGINT while it searches by default: the search stops and the case comes
back UNKNOWN, which a command would report as a time limit run out and a store would keep as if it
were one; and after a solve it leaves SIGINT at the system default, so a later Ctrl-C kills the
process outright. So cpsolve never lets CP-SAT catch it (:func:`solve` turns that off) and holds
Ctrl-C itself, in one of two ways:

- :func:`interrupts_stop_solves`, around every command (``cpsolve.cli.app``): a press stops the
  CP-SAT searches running (``stop_search``) and raises KeyboardInterrupt in the main thread, so a
  command ends at once with exit 130, whatever the solver was doing.
- :func:`interrupts_between_solves`, around a sweep: a press waits for the running solves to end,
  so every task is whole in the store, then raises KeyboardInterrupt. Inside a command it switches
  the held Ctrl-C to this mode for its duration.

How it is held: SIGINT is blocked in every thread (threads started inside inherit the mask), and a
watcher thread takes it with ``sigtimedwait``. A second Ctrl-C exits at once (the store's
transactions make that safe). Threads started before Ctrl-C is held keep it unblocked, and the
system may hand it to one of them: OR-Tools starts one when it is imported, so Ctrl-C is held
before any command imports it (``compare`` checks the built-in backend names without importing
them). Where signals cannot be masked (not the main thread, or no ``pthread_sigmask``), the
contexts do nothing: CP-SAT then finishes its search and Python raises KeyboardInterrupt after.

Two helpers cover the seconds a local Dask cluster takes to start, in
:class:`cpsolve.sweep.executors.DaskExecutor`: :func:`interrupts_deferred` holds a Ctrl-C back
until the start-up is over (Dask turns an interrupt in the middle of it into errors of its own),
and :func:`children_ignore_interrupts` starts the worker processes with Ctrl-C ignored, until
they leave the terminal's session (``cpsolve.sweep._dask_worker``): a terminal sends Ctrl-C to
every process of its foreground group, workers included.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from cpsolve.errors import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = [
    "caused_by_interrupt",
    "interrupts_stop_solves",
    "interrupts_between_solves",
    "interrupts_deferred",
    "children_ignore_interrupts",
    "mark_answered",
    "exit_after_answer",
    "answered",
    "solve",
]


class _Held:
    """Whether Ctrl-C is held and how, whether a press waits for a deferred block to end, and the
    CP-SAT solvers running now (a press stops them when solves may be stopped)."""

    def __init__(self) -> None:
        self.active = False
        self.stop_solves = False
        self.deferring = 0
        self.pending = False
        self.pressed = False
        self.answered = False
        self.exit_after_answer = False
        self.solvers: set[cp_model.CpSolver] = set()
        self.lock = threading.Lock()


_held = _Held()


def caused_by_interrupt(error: BaseException) -> bool:
    """Whether a KeyboardInterrupt lies in the chain of causes of `error` (Ctrl-C while a module was being
    imported surfaces as that import's own error: OR-Tools raises "initialization failed")."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def solve(
    solver: cp_model.CpSolver, model: cp_model.CpModel, callback: cp_model.CpSolverSolutionCallback | None = None
) -> cp_model.CpSolverStatus:
    """``solver.solve(model, callback)``, stoppable by Ctrl-C where a command holds it.

    CP-SAT's own SIGINT handling is turned off: it would end the search as if the time limit had
    run out. Returns CP-SAT's status code.

    Raises:
        KeyboardInterrupt: Ctrl-C was pressed before or during the solve (inside
            :func:`interrupts_stop_solves`).
    """
    solver.parameters.catch_sigint_signal = False
    with _held.lock:
        if _held.pressed and _held.stop_solves:
            raise KeyboardInterrupt
        _held.solvers.add(solver)
    try:
        return solver.solve(model, callback) if callback is not None else solver.solve(model)
    finally:
        with _held.lock:
            _held.solvers.discard(solver)


@contextmanager
def interrupts_stop_solves() -> Iterator[None]:
    """Hold Ctrl-C for a command: a press stops the running CP-SAT searches and raises KeyboardInterrupt."""
    with _holding(stop_solves=True):
        yield


@contextmanager
def interrupts_between_solves() -> Iterator[None]:
    """Turn Ctrl-C into a KeyboardInterrupt between solves (a plain context where signals cannot be masked)."""
    if _held.active:  # held by an outer context: let its solves finish while inside
        with _held.lock:
            outer, _held.stop_solves = _held.stop_solves, False
        try:
            yield
        finally:
            with _held.lock:
                _held.stop_solves = outer
        return
    with _holding(stop_solves=False):
        yield


@contextmanager
def _holding(stop_solves: bool) -> Iterator[None]:
    _held.answered = False  # a new command, or a sweep, has not ended yet
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    if _held.active:
        yield
        return
    _held.active = True
    _held.stop_solves = stop_solves
    _held.pressed = False
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    done = threading.Event()

    def watch() -> None:
        presses = 0
        while not done.is_set():
            if signal.sigtimedwait({signal.SIGINT}, 0.2) is None:
                continue
            presses += 1
            if presses > 1:
                os._exit(EXIT_INTERRUPTED)
            with _held.lock:
                if _held.answered:  # the command has ended with its whole answer: nothing left to stop
                    continue
                if _held.deferring:
                    _held.pending = True
                    continue
                _held.pressed = True
                if _held.stop_solves:
                    for running in list(_held.solvers):
                        running.stop_search()
            import _thread

            _thread.interrupt_main()

    watcher = threading.Thread(target=watch, name="cpsolve-sigint", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        _held.active = False
        # not joined: the watcher sees `done` within its 0.2 s wait, and a command need not wait for
        # it to end; a press it still takes meanwhile interrupts the main thread as it should
        done.set()
        if _held.answered:
            # a press the watcher had not taken yet would interrupt an answer already whole: drop it
            while signal.sigtimedwait({signal.SIGINT}, 0) is not None:
                pass
        if _held.answered and _held.exit_after_answer:
            # the process only exits from here on: a press would raise KeyboardInterrupt wherever Python
            # is then (an import's clean-up prints "Exception ignored ..."), so the answer stands alone
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        else:
            # CP-SAT may have left SIGINT at the system default: put Python's handler back first
            signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def mark_answered() -> None:
    """Say that the command holding Ctrl-C has ended and written its whole answer.

    From then on a press changes nothing (:func:`answered`): it would otherwise end a finished
    command, its answer already written whole, with exit 130.
    """
    _held.answered = True


def exit_after_answer() -> None:
    """Say that this process ends once its command has answered (the console script, not a library user):
    from the answer on, Ctrl-C is ignored instead of raising KeyboardInterrupt during the exit."""
    _held.exit_after_answer = True


def answered() -> bool:
    """Whether the last command that held Ctrl-C ended with its whole answer (:func:`mark_answered`)."""
    return _held.answered


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Inside, a Ctrl-C (held by :func:`interrupts_between_solves`) waits, and is raised when the block ends."""
    with _held.lock:
        _held.deferring += 1
    try:
        yield
    finally:
        with _held.lock:
            _held.deferring -= 1
            raise_now = _held.pending and not _held.deferring
            if raise_now:
                _held.pending = False
    if raise_now:
        raise KeyboardInterrupt


@contextmanager
def children_ignore_interrupts() -> Iterator[None]:
    """Processes started inside begin with Ctrl-C ignored (the disposition survives fork and exec).

    Only while Ctrl-C is held: then it is blocked in every thread of this process, and a blocked
    signal is not discarded for being ignored (Linux keeps it for the watcher; where a system
    discards it, a press in these seconds is lost, never fatal). Elsewhere this does nothing.
    """
    if not _held.active or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
