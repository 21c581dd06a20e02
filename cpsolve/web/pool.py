"""The solver pool: a fixed number of worker processes, a bounded number of requests, work that can be stopped.

Solver work is CPU-bound Python (and C that holds the GIL), so it runs in processes, never on the
server's event loop: a slow request cannot hold up a page or the health check. Each worker is
one process at the end of a pipe; the event loop sends it a call and is woken by the pipe when the
answer is there (``loop.add_reader``), with no thread in between. A worker's call can be stopped
at any point by ending that process and starting another, which is what a client that went away,
or work past its hard time limit, needs. Requests beyond the bound (solving and waiting together)
are refused at once (:class:`Busy`), so a burst never queues without end.

Why not a library pool: the standard library's ``ProcessPoolExecutor`` cannot stop one running
call (a worker ended by hand breaks the whole pool), and Pebble's ``ProcessPool``, which can,
hands every call through three threads of the server's process; under load those threads took
the server's own time (the load test's throughput rose by half without them).

Workers are forked from a forkserver that imported the solvers once, so a worker started to
replace a stopped one is ready in milliseconds; they ignore Ctrl-C (the server ends them when it
stops) and end by themselves when the server's end of their pipe closes.
"""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import signal
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

__all__ = ["Busy", "Stopped", "HardTimeLimit", "WorkerLost", "SolverPool"]

T = TypeVar("T")

#: How often a running call looks whether its client went away (seconds).
_POLL = 0.1


class Busy(Exception):
    """Every place in the pool is taken: the request is refused (503), not queued."""


class Stopped(Exception):
    """The client went away: its work was stopped."""


class HardTimeLimit(Exception):
    """The work ran past its hard time limit and was stopped."""


class WorkerLost(Exception):
    """The worker process died under the work (out of memory, a crash): the request fails, the pool goes on."""


def _serve(connection: Connection) -> None:
    """A worker's life: take ``(function, args)``, send back ``(True, result)`` or ``(False, error words)``."""
    # Ctrl-C in the terminal reaches every process of its group: the server ends the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            function, args = connection.recv()
        except (EOFError, OSError):
            return  # the server is gone
        try:
            answer: tuple[bool, Any] = (True, function(*args))
        except Exception as error:
            answer = (False, f"{type(error).__name__}: {error}")
        connection.send(answer)


class _Worker:
    """One solver process and the server's end of its pipe."""

    def __init__(self, context: Any):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True, name="cpsolve-solver")
        self.process.start()
        child.close()

    def end(self) -> None:
        """End the process at once, whatever it is doing."""
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)


class SolverPool:
    """A fixed number of solver processes and a bound on the requests they take.

    Args:
        workers: Processes, each solving one request at a time.
        queue: Requests solving or waiting at once; one more is refused with :class:`Busy`.
        preload: Modules the forkserver imports once, so every worker starts with them.
    """

    def __init__(self, workers: int, queue: int, preload: tuple[str, ...] = ()):
        self._context: Any = multiprocessing.get_context("forkserver")
        if preload:
            self._context.set_forkserver_preload(list(preload))
        self.workers = workers
        self.limit = max(queue, workers)
        self.taken = 0
        #: Requests whose work was stopped because their client went away.
        self.stopped = 0
        self._idle: list[_Worker] = []
        self._waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self._all: set[_Worker] = set()
        self._closed = False

    async def start(self, warm: Callable[[], Any]) -> None:
        """Start the workers, and run `warm` once in each, before the first request."""
        loop = asyncio.get_running_loop()
        started = await asyncio.gather(*(loop.run_in_executor(None, self._spawn) for _ in range(self.workers)))
        for worker in started:
            await self._call(worker, warm, (), 60.0, _present)
            self._release(worker)

    def _spawn(self) -> _Worker:
        worker = _Worker(self._context)
        self._all.add(worker)
        return worker

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
            WorkerLost: The worker died under the work, or the function raised (it should not).
        """
        if self.taken >= self.limit:
            raise Busy(f"the server is busy: {self.taken} requests are being answered; try again shortly")
        self.taken += 1
        try:
            worker = await self._acquire()
            try:
                result = await self._call(worker, function, args, timeout, gone)
            except BaseException:
                self._replace(worker)
                raise
            self._release(worker)
            return result
        finally:
            self.taken -= 1

    async def _call(
        self,
        worker: _Worker,
        function: Callable[..., T],
        args: tuple[Any, ...],
        timeout: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> T:
        loop = asyncio.get_running_loop()
        connection = worker.connection
        try:
            connection.send((function, args))
        except OSError:
            raise WorkerLost("the solver process ended unexpectedly") from None
        answered: asyncio.Future[None] = loop.create_future()
        descriptor = connection.fileno()

        def wake() -> None:
            if not answered.done():
                answered.set_result(None)

        loop.add_reader(descriptor, wake)
        try:
            deadline = loop.time() + timeout
            while not answered.done():
                left = deadline - loop.time()
                if left <= 0:
                    raise HardTimeLimit
                await asyncio.wait({answered}, timeout=min(_POLL, left))
                if not answered.done() and await gone():
                    self.stopped += 1
                    raise Stopped
        finally:
            loop.remove_reader(descriptor)
        try:
            done, value = connection.recv()
        except (EOFError, OSError):
            raise WorkerLost(f"the solver process ended unexpectedly (exit code {worker.process.exitcode})") from None
        if not done:
            raise WorkerLost(f"the solver process failed: {value}")
        return value

    async def _acquire(self) -> _Worker:
        if self._idle:
            return self._idle.pop()
        waiting: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiting)
        try:
            return await waiting
        except asyncio.CancelledError:
            if waiting.done() and not waiting.cancelled():
                self._release(waiting.result())  # handed over just as the request was cancelled
            raise

    def _release(self, worker: _Worker) -> None:
        if self._closed:
            return
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_result(worker)
                return
        self._idle.append(worker)

    def _replace(self, worker: _Worker) -> None:
        """End a worker whose call was stopped or failed, and start another in its place."""
        self._all.discard(worker)
        worker.end()
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        replacement = loop.run_in_executor(None, self._spawn)
        replacement.add_done_callback(lambda started: self._release(started.result()))

    def close(self) -> None:
        """End every worker (running work is abandoned)."""
        self._closed = True
        for waiting in self._waiting:
            waiting.cancel()
        for worker in list(self._all):
            worker.end()
        self._all.clear()
        self._idle.clear()


async def _present() -> bool:
    return False
