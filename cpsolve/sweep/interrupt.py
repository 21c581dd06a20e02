"""Ctrl-C during a sweep: stop between solves, never inside one.

OR-Tools' CP-SAT catches SIGINT while it searches: the search stops and the case comes back
UNKNOWN, which a store would keep as if the time limit had run out; and after a solve it leaves
SIGINT at the system default, so a later Ctrl-C kills the process outright. Inside
:func:`interrupts_between_solves`, SIGINT is blocked in every thread (threads started inside
inherit the mask), and a watcher thread takes it with ``sigtimedwait``
and raises KeyboardInterrupt in the main thread, which Python delivers as soon as the running
solve returns. A second Ctrl-C exits at once (the store's transactions make that safe).

It nests: inside it, entering it again changes nothing (one watcher counts the presses), so a
command can hold Ctrl-C around its progress bar and the sweep it calls holds it again. Threads
started inside (a progress bar's, a Dask client's) inherit the mask, which is why the progress
bar is started inside.

Two helpers cover the seconds a local Dask cluster takes to start, in
:class:`cpsolve.sweep.executors.DaskExecutor`: :func:`interrupts_deferred` holds a Ctrl-C back
until the start-up is over (Dask turns an interrupt in the middle of it into errors of its own),
and :func:`children_ignore_interrupts` starts the worker processes with Ctrl-C ignored, until
they leave the terminal's session (``cpsolve.sweep._dask_worker``): a terminal sends Ctrl-C to
every process of its foreground group, workers included.

Threads started before Ctrl-C is held keep it unblocked, and the system may hand it to one of
them: OR-Tools starts one when it is imported, so a sweep imports OR-Tools only inside (``compare``
checks the built-in backend names without importing them).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from cpsolve.errors import EXIT_INTERRUPTED

__all__ = ["interrupts_between_solves", "interrupts_deferred", "children_ignore_interrupts"]


class _Held:
    """Whether Ctrl-C is held, and whether a press waits for a deferred block to end."""

    def __init__(self) -> None:
        self.active = False
        self.deferring = 0
        self.pending = False
        self.lock = threading.Lock()


_held = _Held()


@contextmanager
def interrupts_between_solves() -> Iterator[None]:
    """Turn Ctrl-C into a KeyboardInterrupt between solves (a plain context where signals cannot be masked)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    if _held.active:  # already held by an outer call
        yield
        return
    _held.active = True
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
                if _held.deferring:
                    _held.pending = True
                    continue
            import _thread

            _thread.interrupt_main()

    watcher = threading.Thread(target=watch, name="cpsolve-sigint", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        _held.active = False
        done.set()
        watcher.join()
        # CP-SAT may have left SIGINT at the system default: put Python's handler back first
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


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
