"""The solver pool: a fixed number of worker processes, a bounded number of requests, work that can be stopped.

Solver work is CPU-bound Python (and C without the GIL released), so it runs in processes, never
on the server's event loop: a slow request cannot hold up a page or the health check. The pool is
Pebble's ``ProcessPool`` (a well-kept library for exactly this): unlike the standard library's,
it can stop one running task by ending its worker and starting a fresh one, which is what a
client that went away, or a request past its hard time limit, needs. Requests beyond the
bound (running and waiting together) are refused at once (:class:`Busy`), so a burst never
queues without end.

Workers are forked from a forkserver that has imported the solvers already, so a worker started
to replace a stopped one is ready in milliseconds; they ignore Ctrl-C (the server stops them
when it stops).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import signal
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

__all__ = ["Busy", "Stopped", "HardTimeLimit", "WorkerLost", "SolverPool"]

T = TypeVar("T")

#: How often a waiting request looks whether its client went away (seconds).
_POLL = 0.1


class Busy(Exception):
    """Every place in the pool is taken: the request is refused (503), not queued."""


class Stopped(Exception):
    """The client went away: its work was stopped."""


class HardTimeLimit(Exception):
    """The work ran past its hard time limit and was stopped."""


class WorkerLost(Exception):
    """The worker process died under the work (out of memory, a crash): the request fails, the pool goes on."""


def _start_worker() -> None:
    # Ctrl-C in the terminal reaches every process of its group: the server stops the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class SolverPool:
    """A fixed number of solver processes and a bound on the requests they take.

    Args:
        workers: Processes, each solving one request at a time.
        queue: Requests running or waiting at once; one more is refused with :class:`Busy`.
        preload: Modules the forkserver imports once, so every worker starts with them.
    """

    def __init__(self, workers: int, queue: int, preload: tuple[str, ...] = ()):
        import pebble

        context: Any = multiprocessing.get_context("forkserver")
        if preload:
            context.set_forkserver_preload(list(preload))
        self.workers = workers
        self.limit = max(queue, workers)
        self.taken = 0
        #: Requests whose work was stopped because their client went away.
        self.stopped = 0
        self._pool = pebble.ProcessPool(max_workers=workers, initializer=_start_worker, context=context)

    async def run(
        self,
        function: Callable[..., T],
        args: tuple[Any, ...],
        timeout: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> T:
        """Run ``function(*args)`` in a worker and return its result, without blocking the event loop.

        Args:
            function: A module-level function (it is pickled by name).
            args: Its arguments (pickled).
            timeout: Seconds after which the work is stopped (:class:`HardTimeLimit`).
            gone: Whether the client went away; asked every 0.1 s while the work runs.

        Raises:
            Busy: The pool is full; nothing was started.
            Stopped: The client went away; the work was stopped.
            HardTimeLimit: The work ran past `timeout` and was stopped.
            WorkerLost: The worker died under the work.
        """
        import pebble

        if self.taken >= self.limit:
            raise Busy(f"the server is busy: {self.taken} requests are being answered; try again shortly")
        self.taken += 1
        future = self._pool.schedule(function, args=args, timeout=timeout)
        try:
            waiting = asyncio.wrap_future(future)
            while True:
                done, _ = await asyncio.wait({waiting}, timeout=_POLL)
                if done:
                    break
                if await gone():
                    future.cancel()  # Pebble ends the worker running it and starts another
                    self.stopped += 1
                    raise Stopped
            try:
                return waiting.result()
            except concurrent.futures.TimeoutError:
                raise HardTimeLimit from None
            except pebble.ProcessExpired as error:
                raise WorkerLost(f"the solver process ended unexpectedly (exit code {error.exitcode})") from None
            except Exception as error:  # the pool itself failed (the work's own errors come back as answers)
                raise WorkerLost(f"the solver pool failed: {type(error).__name__}: {error}") from None
        except asyncio.CancelledError:
            future.cancel()
            raise
        finally:
            self.taken -= 1

    async def start(self, warm: Callable[[], Any]) -> None:
        """Start the workers now (`warm` run once per worker), not on the first request."""
        await asyncio.gather(*(asyncio.wrap_future(self._pool.schedule(warm)) for _ in range(self.workers)))

    def close(self) -> None:
        """Stop every worker (running work is abandoned) and wait for them."""
        self._pool.stop()
        self._pool.join(timeout=10)
