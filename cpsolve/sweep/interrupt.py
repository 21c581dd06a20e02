"""Ctrl-C during a sweep: stop between solves, never inside one.

OR-Tools' CP-SAT catches SIGINT while it searches: the search stops and the case comes back
UNKNOWN, which a store would keep as if the time limit had run out; and after a solve it leaves
SIGINT at the system default, so a later Ctrl-C kills the process outright. Inside
:func:`interrupts_between_solves`, SIGINT is blocked in every thread (threads and worker
processes started inside inherit the mask), and a watcher thread takes it with ``sigtimedwait``
and raises KeyboardInterrupt in the main thread, which Python delivers as soon as the running
solve returns. A second Ctrl-C exits at once (the store's transactions make that safe).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from cpsolve.errors import EXIT_INTERRUPTED

__all__ = ["interrupts_between_solves"]


@contextmanager
def interrupts_between_solves() -> Iterator[None]:
    """Turn Ctrl-C into a KeyboardInterrupt between solves (a plain context where signals cannot be masked)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
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
            import _thread

            _thread.interrupt_main()

    watcher = threading.Thread(target=watch, name="cpsolve-sigint", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        # CP-SAT may have left SIGINT at the system default: put Python's handler back first
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
