"""What a local Dask worker process of a sweep does when it starts: leave the terminal's session.

A Ctrl-C at the terminal goes to every process of the foreground process group, and a local
cluster's worker processes are in it. There it did harm: CP-SAT catches SIGINT while it searches
(as :mod:`cpsolve.interrupt` explains), and in a Dask worker, where the solve runs off the
main thread, its handler ends the process with C++ ``terminate called`` lines; Dask's own handler
prints tracebacks. The driver already turns Ctrl-C into a clean stop (pending tasks cancelled,
what finished kept in the store, exit 130) and closes the cluster, so the workers need not hear it.

:class:`OwnSession` is a Dask worker plugin (Dask's public extension point: its ``setup`` runs in
each worker process before the worker registers with the scheduler, so before any task) that
moves the worker into a session of its own, out of reach of the terminal's signals. A worker
still ends with its driver: Dask's nanny keeps a pipe to each worker process, and a worker whose
pipe closes exits at once.

When the driver closes the cluster with a solve still running (after Ctrl-C, its task was
cancelled, but a thread inside CP-SAT cannot be stopped), the worker would wait for it, be
terminated by its nanny seconds later, and log that the scheduler went away meanwhile. The
plugin's ``teardown``, the first step of the worker's close, ends such a worker at once instead:
every result that mattered is already in the driver's hands.

This module imports dask; only :class:`cpsolve.sweep.executors.DaskExecutor` imports it.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

__all__ = ["OwnSession"]


class OwnSession(WorkerPlugin):
    """Put the worker process in a new session, so the terminal's Ctrl-C (and Ctrl-Z) reach only the driver."""

    name = "cpsolve-own-session"

    def setup(self, worker: Any) -> None:
        if hasattr(os, "setsid"):  # POSIX; elsewhere a console's Ctrl-C works differently anyway
            # OSError: already a session or group leader, started apart from the terminal
            with contextlib.suppress(OSError):
                os.setsid()

    def teardown(self, worker: Any) -> None:
        if worker.state.executing_count:  # includes cancelled tasks whose thread still runs
            os._exit(0)
