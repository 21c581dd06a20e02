"""The solver pool: lanes of worker processes, each with a bounded queue, and work stopped by time, memory or stop.

Solver work is CPU-bound Python (and C that holds the GIL), so it runs in processes, never on the
server's event loop: a slow request cannot hold up a page or the health check. Work is split into
**lanes** (:class:`Lane`), each with processes of its own and a bound on the requests it takes
(solving and waiting together): the quick lane answers a person's questions (a position, a hint,
a game's move) and the long lane generation and large layouts, so a long request can never make
a quick one wait for a process. The long lane's processes also run at a lower CPU priority
(``nice``), so on a busy machine the quick lane's work gets the cores first. A request past its
lane's bound is refused at once (:class:`Busy`, with the seconds after which to try again).

Each worker is one process at the end of a pipe; the event loop sends it a call and is woken by
the pipe when the answer is there (``loop.add_reader``), with no thread in between. A call is
stopped at any point by ending its process and starting another: when its client went away
(:class:`Stopped`), when it ran past its hard time limit (:class:`cpsolve.errors.TimeLimitError`),
or when the server stops (:class:`Stopping`). Each process has a bound on its memory
(``RLIMIT_DATA``: an allocation past it fails, the call answers :class:`OutOfMemory` and the
process is replaced), and after each call it hands back what it freed (``malloc_trim``) or, if it
still holds more than ``recycle_mib``, ends so a fresh one takes its place: an idle server holds
what it held at start.

Why a pool of its own rather than a library's (``benchmarks/serve_pools.py`` measured them on
the same hints, see docs/benchmarks.md): the standard library's ``ProcessPoolExecutor`` and loky
cannot stop one running call (ending a worker by hand breaks the whole pool); Pebble's
``ProcessPool``, which can, hands every call through three threads of the server's process,
which cost the server's time under load; none of them has lanes or per-process memory bounds.

Workers are forked from a forkserver that imported the solvers once, so a worker started to
replace a stopped one is ready in milliseconds. No process outlives the server, however it ends:
workers ignore Ctrl-C and SIGTERM (the server ends them when it stops, after its grace), end when
the server's end of their pipe closes, and are killed by the kernel when the forkserver ends
(``PR_SET_PDEATHSIG``), which it does as soon as the server's process is gone, even after SIGKILL.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import ctypes.util
import multiprocessing
import multiprocessing.forkserver
import os
import resource
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from cpsolve.errors import TimeLimitError

__all__ = [
    "FORKSERVER_PARENT",
    "end_with_parent",
    "Lane",
    "Busy",
    "Stopped",
    "Stopping",
    "OutOfMemory",
    "WorkerLost",
    "SolverPool",
]

T = TypeVar("T")

#: How often a running call looks whether its client went away, or the server is stopping (seconds).
_POLL = 0.1
#: What a worker sends back: the call's result, its error in words, or "memory ran out".
_DONE, _FAILED, _MEMORY = "done", "failed", "memory"
#: Linux's prctl option that has the kernel signal a process when its parent ends.
_PR_SET_PDEATHSIG = 1
_MIB = 1 << 20
#: The environment variable that tells the forkserver which process started it
#: (:mod:`cpsolve.web.forkserver_setup`).
FORKSERVER_PARENT = "CPSOLVE_FORKSERVER_PARENT"
#: The module the forkserver imports first, to end with the server.
_SETUP = "cpsolve.web.forkserver_setup"


@dataclass(frozen=True)
class Lane:
    """A set of worker processes with a queue of its own.

    Attributes:
        name: How requests name it (``"quick"``, ``"long"``).
        workers: Processes, each solving one request at a time.
        queue: Requests solving or waiting at once (at least `workers`); one more is refused with :class:`Busy`.
        nice: How much lower than the server's its processes' CPU priority is (0 to 19).
        retry_after: The seconds a refused request is told to wait (the ``Retry-After`` header).
    """

    name: str
    workers: int
    queue: int
    nice: int = 0
    retry_after: int = 1


class Busy(Exception):
    """Every place in the lane is taken: the request is refused (503), not queued.

    Attributes:
        retry_after: Seconds after which to try again.
    """

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class Stopped(Exception):
    """The client went away: its work was stopped."""


class Stopping(Exception):
    """The server is stopping: the request was not started, or its work was stopped after the grace."""


class OutOfMemory(Exception):
    """The work needed more memory than a worker may have: it was stopped and its process replaced.

    Attributes:
        limit_mib: The bound, in MiB.
    """

    def __init__(self, limit_mib: int):
        super().__init__(f"the work needed more than {limit_mib:,} MiB of memory")
        self.limit_mib = limit_mib


class WorkerLost(Exception):
    """The worker process died under the work (a crash): the request fails, the pool goes on."""


# -- the worker's side -----------------------------------------------------------------------------


def _libc() -> Any:
    """The C library, for prctl and malloc_trim (None where there is none to load)."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name, use_errno=True) if name else None
    except OSError:
        return None


def end_with_parent(parent: int | None = None) -> None:
    """Have the kernel kill this process when its parent ends (Linux's ``PR_SET_PDEATHSIG``; elsewhere nothing).

    Args:
        parent: The parent's process id, if known: a process whose parent has already ended (so that
            nobody will signal it) ends at once.
    """
    parent = os.getppid() if parent is None else parent
    libc = _libc()
    if libc is None or not sys.platform.startswith("linux"):
        return
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def _resident() -> int:
    """This process's resident memory, in bytes (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _serve(connection: Connection, nice: int, memory_bytes: int, recycle_bytes: int) -> None:
    """A worker's life: take ``(function, args)``, send back ``(outcome, value, resident bytes, retiring)``.

    It ends when the server's end of the pipe closes, and after a call that left it holding more
    than `recycle_bytes` (the server starts another in its place).
    """
    end_with_parent()  # the forkserver, which ends with the server (cpsolve.web.forkserver_setup)
    libc = _libc()
    # Ctrl-C reaches every process of the terminal's group, and a service manager may send SIGTERM to
    # all of them: the server decides when work stops (after its grace), and ends the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if nice:
        os.nice(nice)
    if memory_bytes:
        # RLIMIT_DATA counts what the process allocates (heap, anonymous maps), not the libraries it
        # maps: an allocation past it fails with MemoryError instead of taking the machine's memory
        resource.setrlimit(resource.RLIMIT_DATA, (memory_bytes, memory_bytes))
    while True:
        answer: tuple[str, Any]
        try:
            function, args = connection.recv()
        except (EOFError, OSError):
            return  # the server is gone
        except MemoryError:  # its arguments alone passed the bound
            answer = (_MEMORY, None)
        else:
            try:
                answer = (_DONE, function(*args))
            except MemoryError:
                answer = (_MEMORY, None)
            except Exception as error:
                answer = (_FAILED, f"{type(error).__name__}: {error}")
        # Python frees what a call used, but the C allocator keeps it for later: hand it back to
        # the system, and if the process still holds more than it should, end it (a fresh one is forked)
        resident = _resident()
        if resident > recycle_bytes and libc is not None:
            libc.malloc_trim(0)
            resident = _resident()
        retiring = answer[0] == _MEMORY or resident > recycle_bytes
        try:
            connection.send((*answer, resident, retiring))
        except MemoryError:
            connection.send((_MEMORY, None, resident, True))
            return
        except OSError:
            return  # the server went away (or stopped this call) while it was answered
        if retiring:
            return


# -- the server's side -----------------------------------------------------------------------------


class _Worker:
    """One solver process and the server's end of its pipe."""

    def __init__(self, context: Any, lane: Lane, memory_bytes: int, recycle_bytes: int):
        self.lane = lane
        self.connection, child = context.Pipe()
        self.process = context.Process(
            target=_serve,
            args=(child, lane.nice, memory_bytes, recycle_bytes),
            daemon=True,
            name=f"cpsolve-{lane.name}",
        )
        self.process.start()
        child.close()
        #: The worker asked to be replaced after its last call (it is ending).
        self.retiring = False

    def kill(self) -> None:
        """End the process at once, whatever it is doing (it is reaped by :meth:`reap`)."""
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()

    def reap(self) -> None:
        """Wait for the ended process (a blocking call, for a thread)."""
        self.process.join(timeout=5)


class _LaneState:
    """A lane's processes: the idle ones, the requests waiting for one, how many the lane holds."""

    def __init__(self, lane: Lane):
        self.lane = lane
        self.idle: list[_Worker] = []
        self.waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self.taken = 0


#: Pools started and not yet closed in this process: the forkserver (one per process) is stopped
#: with the last of them, since every worker of every pool is its child.
_open_pools = 0


class SolverPool:
    """Lanes of solver processes, each bounded in the requests it takes and in each process's memory.

    Args:
        lanes: The lanes, by name.
        memory_mib: The most memory a worker may allocate (MiB; 0: no bound).
        recycle_mib: A worker holding more than this after a call (MiB), once it has handed back
            what it freed, is replaced by a fresh one.
        preload: Modules the forkserver imports once, so every worker starts with them.
    """

    def __init__(
        self, lanes: Sequence[Lane], *, memory_mib: int = 0, recycle_mib: int = 128, preload: tuple[str, ...] = ()
    ):
        self._context: Any = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload([_SETUP, *preload])
        self.lanes = {lane.name: lane for lane in lanes}
        self.memory_mib = memory_mib
        self._memory_bytes = memory_mib * _MIB
        self._recycle_bytes = recycle_mib * _MIB
        self._state = {lane.name: _LaneState(lane) for lane in lanes}
        #: Requests whose work was stopped because their client went away.
        self.stopped = 0
        #: Workers replaced after a call that left them too large, or that ran out of memory.
        self.recycled = 0
        self._all: set[_Worker] = set()
        #: Guards _all and _closed between the event loop and the threads that start workers.
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_at: float | None = None
        self._closed = False
        self._started = False

    def taken(self, lane: str) -> int:
        """Requests the lane is solving or holding in its queue now."""
        return self._state[lane].taken

    def pids(self) -> list[int]:
        """The worker processes' ids."""
        with self._lock:
            workers = list(self._all)
        return [worker.process.pid for worker in workers if worker.process.pid is not None]

    async def start(self, warm: Callable[[], Any]) -> None:
        """Start the workers, and run `warm` once in each, before the first request."""
        global _open_pools
        self._loop = asyncio.get_running_loop()
        # the forkserver is started from this thread, not from one of the executor's threads below, as
        # the kernel ends it when the thread that started it ends (cpsolve.web.forkserver_setup)
        os.environ[FORKSERVER_PARENT] = str(os.getpid())
        multiprocessing.forkserver.ensure_running()
        _open_pools += 1
        self._started = True
        started = await asyncio.gather(
            *(
                self._loop.run_in_executor(None, self._spawn, lane)
                for lane in self.lanes.values()
                for _ in range(lane.workers)
            )
        )
        for worker in started:
            await self._call(worker, warm, (), 60.0, _present)
            self._release(worker)

    def _spawn(self, lane: Lane) -> _Worker:
        """Start a worker (a blocking call, for a thread); one started as the pool closed is ended at once."""
        worker = _Worker(self._context, lane, self._memory_bytes, self._recycle_bytes)
        with self._lock:
            if not self._closed:
                self._all.add(worker)
                return worker
        # the pool closed while this one started: it must not keep the forkserver waiting for it
        worker.kill()
        worker.reap()
        return worker

    async def run(
        self,
        lane: str,
        function: Callable[..., T],
        args: tuple[Any, ...],
        timeout: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> T:
        """Run ``function(*args)`` in a worker of `lane` and return its result, without blocking the event loop.

        Args:
            lane: The lane's name.
            function: A module-level function (it is pickled by name).
            args: Its arguments (pickled).
            timeout: Seconds, from when a worker takes it, after which the work is stopped.
            gone: Whether the client went away; asked every 0.1 s while the work runs.

        Raises:
            Busy: The lane is full; nothing was started.
            Stopping: The server is stopping: not started, or stopped after the grace.
            Stopped: The client went away; the work was stopped.
            TimeLimitError: The work ran past `timeout` and was stopped.
            OutOfMemory: The work needed more than the memory bound and was stopped.
            WorkerLost: The worker died under the work, or the function raised (it should not).
        """
        if self._stop_at is not None or self._closed:
            raise Stopping("the server is stopping")
        state = self._state[lane]
        if state.taken >= max(state.lane.queue, state.lane.workers):
            raise Busy(
                f"the server is busy: {state.taken} requests of the {lane} lane are being answered; "
                f"try again in {state.lane.retry_after} s",
                state.lane.retry_after,
            )
        state.taken += 1
        try:
            worker = await self._acquire(state)
            if await gone():  # it waited in the queue, and its client did not
                self.stopped += 1
                self._release(worker)
                raise Stopped("the client went away")
            try:
                result = await self._call(worker, function, args, timeout, gone)
            except BaseException:
                self._replace(worker)
                raise
            if worker.retiring:
                self._replace(worker)
            else:
                self._release(worker)
            return result
        finally:
            state.taken -= 1

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
            raise self._lost(worker) from None
        answered: asyncio.Future[None] = loop.create_future()
        descriptor = connection.fileno()

        def wake() -> None:
            if not answered.done():
                answered.set_result(None)

        loop.add_reader(descriptor, wake)
        try:
            deadline = loop.time() + timeout
            while not answered.done():
                now = loop.time()
                if self._stop_at is not None and now >= self._stop_at:
                    raise Stopping("the server is stopping")
                if now >= deadline:
                    raise TimeLimitError(f"the work ran past its hard limit of {timeout:g} s")
                wait = min(_POLL, deadline - now)
                await asyncio.wait({answered}, timeout=wait)
                if not answered.done() and await gone():
                    self.stopped += 1
                    raise Stopped("the client went away")
        finally:
            loop.remove_reader(descriptor)
        try:
            outcome, value, _resident_bytes, retiring = connection.recv()
        except (EOFError, OSError):
            raise self._lost(worker) from None
        worker.retiring = retiring
        if outcome == _MEMORY:
            raise OutOfMemory(self.memory_mib)
        if outcome == _FAILED:
            raise WorkerLost(f"the solver process failed: {value}")
        return value

    def _lost(self, worker: _Worker) -> Exception:
        """What a worker that died under its work means: the server stopping it, or a crash."""
        if self._stop_at is not None or self._closed:
            return Stopping("the server is stopping")
        worker.process.join(timeout=1)
        code = worker.process.exitcode
        how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit code {code}"
        return WorkerLost(f"the solver process ended unexpectedly ({how})")

    async def _acquire(self, state: _LaneState) -> _Worker:
        if state.idle:
            return state.idle.pop()
        waiting: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        state.waiting.append(waiting)
        try:
            return await waiting
        except asyncio.CancelledError:
            if waiting.done() and not waiting.cancelled() and waiting.exception() is None:
                self._release(waiting.result())  # handed over just as the request was cancelled
            raise

    def _release(self, worker: _Worker) -> None:
        if self._closed or worker not in self._all:
            return
        state = self._state[worker.lane.name]
        while state.waiting:
            waiting = state.waiting.popleft()
            if not waiting.done():
                waiting.set_result(worker)
                return
        state.idle.append(worker)

    def _replace(self, worker: _Worker) -> None:
        """End a worker whose call was stopped, failed or left it too large, and start another in its place."""
        self._all.discard(worker)
        worker.kill()
        if worker.retiring:
            self.recycled += 1
        loop = asyncio.get_running_loop()
        loop.run_in_executor(None, worker.reap)
        if self._closed or self._stop_at is not None:
            return
        replacement = loop.run_in_executor(None, self._spawn, worker.lane)

        def ready(started: asyncio.Future[_Worker]) -> None:
            if not started.cancelled() and started.exception() is None:
                self._release(started.result())

        replacement.add_done_callback(ready)

    def stop(self, grace: float) -> None:
        """Begin the server's stop: take no new work, refuse the waiting requests, stop running work after `grace` s.

        Safe to call from a signal handler in the event loop's thread; a second call may shorten the grace.
        """
        loop = self._loop
        if loop is None or self._closed:
            return
        stop_at = loop.time() + grace
        self._stop_at = stop_at if self._stop_at is None else min(self._stop_at, stop_at)
        loop.call_soon_threadsafe(self._refuse_waiting)

    def _refuse_waiting(self) -> None:
        for state in self._state.values():
            while state.waiting:
                waiting = state.waiting.popleft()
                if not waiting.done():
                    waiting.set_exception(Stopping("the server is stopping"))

    def close(self) -> None:
        """End every worker (running work is abandoned), and the forkserver with the last pool open."""
        global _open_pools
        if self._closed:
            return
        with self._lock:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
        for state in self._state.values():
            for waiting in state.waiting:
                if not waiting.done():
                    waiting.cancel()
            state.waiting.clear()
            state.idle.clear()
        for worker in workers:
            worker.kill()
        for worker in workers:
            worker.reap()
        if self._started:
            _open_pools -= 1
            if _open_pools == 0:
                _stop_forkserver()


def _stop_forkserver() -> None:
    """End the forkserver (and so the resource tracker it keeps open) now, not when this process exits.

    The standard library keeps the call private (its tests use it); without it the forkserver
    still ends when this process does, as its pipe to this process closes.
    """
    stop = getattr(getattr(multiprocessing.forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        with contextlib.suppress(OSError):  # already gone
            stop()


async def _present() -> bool:
    return False
