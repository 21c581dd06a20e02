"""Executors: one way to run a sweep's tasks, whatever runs them.

Every executor takes a module-level function and an iterable of argument tuples, and yields
``(index, result)`` as each task finishes, in whatever order they finish. The index is the
task's position in the iterable: callers key results by it (and the store keys records by case),
so a task that runs twice (its worker died and Dask ran it again) is never counted twice.

- :class:`InProcessExecutor`: one task after the other in this process (``--jobs 1``; no
  start-up cost, and backends registered at run time, such as the tests' fakes, are seen).
- :class:`PoolExecutor`: a local ``multiprocessing`` pool (kept for comparison in the benchmarks).
- :class:`DaskExecutor`: a Dask cluster, local (``--jobs N``) or at a scheduler's address. Dask is
  imported only here, and only when this executor is built.

Example:
    >>> with InProcessExecutor() as executor:
    ...     sorted(executor.run(pow, [(2, 3), (3, 2)]))
    [(0, 8), (1, 9)]
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cpsolve.errors import InputError, InternalError, parameter
from cpsolve.interrupt import children_ignore_interrupts, interrupts_deferred
from cpsolve.temporary import temporary_folder
from cpsolve.words import shorten

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

    from dask.distributed import Client, LocalCluster

__all__ = [
    "Executor",
    "InProcessExecutor",
    "PoolExecutor",
    "DaskExecutor",
    "CONNECT_TIMEOUT",
    "probe_address",
    "check_scheduler",
]

#: Seconds to wait for a scheduler address to answer before saying it does not.
CONNECT_TIMEOUT = 4.0

#: The options these errors name, as the library calls them (the command line prints the flags).
_SCHEDULER, _JOBS = parameter("scheduler"), parameter("jobs")


def probe_address(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast, before Dask is even imported, when nothing listens at a ``tcp://`` or ``tls://host:port`` address.

    Dask's own connect retries a refused address until its timeout (and over TLS without its
    settings fails before it even tries); a plain socket says at once. Addresses of other schemes
    (``ucx://``, ``inproc://``) are left to Dask.

    Raises:
        InputError: The address is malformed, or refused or timed out.
    """
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp", "tls"):
        return
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError(f"{_SCHEDULER} {shorten(address, 80)}: expected {scheme or 'tcp'}://host:port")
    import socket

    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InputError(f"{_SCHEDULER} {address}: no Dask scheduler answers ({reason})") from None


class Executor:
    """The interface: run tasks, yield (index, result) as they finish; close when done."""

    #: How many tasks can run at once.
    workers: int = 1

    def run(self, function: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[tuple[int, Any]]:
        """Call ``function(*args)`` for every args tuple; yield ``(index, result)`` as each finishes."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the workers (idempotent)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class InProcessExecutor(Executor):
    """Runs every task here, in order."""

    def run(self, function: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[tuple[int, Any]]:
        for index, args in enumerate(tasks):
            yield index, function(*args)


def check_scheduler(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail within `timeout`, with one line, unless a Dask scheduler answers at `address`.

    A plain socket cannot tell a scheduler from anything else that listens, and a synchronous
    ``Client`` that fails half-way through connecting (something answered, but not Dask) is
    left to close itself at exit: seconds, and a traceback. An asynchronous ``Client`` is
    built before it connects, so this probe holds it and closes it whatever happens; and the
    whole handshake is bounded (a listener that never answers would hold Dask's forever).

    Raises:
        InputError: Nothing answered in time, or what answered is not a Dask scheduler.
    """
    import asyncio

    from dask.distributed import Client

    async def probe() -> None:
        client = Client(address, asynchronous=True, timeout=timeout, set_as_default=False)
        try:
            await asyncio.wait_for(client, timeout)
        finally:
            # any error: it never connected, so there is nothing left to close
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), timeout)

    try:
        asyncio.run(probe())
    except (asyncio.TimeoutError, TimeoutError):
        raise InputError(f"{_SCHEDULER} {address}: no Dask scheduler answered there within {timeout:g} s") from None
    except OSError as error:  # refused, or closed on us
        reason = error.strerror or type(error).__name__
        raise InputError(f"{_SCHEDULER} {address}: no Dask scheduler answers there ({reason})") from None
    except TypeError as error:
        if "ssl_context" not in str(error):
            raise InputError(f"{_SCHEDULER} {address}: what answers there is not a Dask scheduler") from None
        # tls:// without Dask's TLS settings: Dask fails before it connects
        raise InputError(
            f"{_SCHEDULER} {address}: something listens there, but a tls:// address needs Dask's TLS settings "
            "(distributed.comm.tls in its configuration: the client's certificate and key)"
        ) from None
    except Exception:  # it answered, but not as a scheduler (Dask's own error then says nothing useful)
        raise InputError(f"{_SCHEDULER} {address}: what answers there is not a Dask scheduler") from None


def _indexed_call(item: tuple[int, Callable[..., Any], tuple]) -> tuple[int, Any]:
    index, function, args = item
    return index, function(*args)


class PoolExecutor(Executor):
    """A ``multiprocessing`` pool of `workers` processes on this machine (fork where there is fork)."""

    def __init__(self, workers: int):
        import multiprocessing

        self.workers = workers
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        self._pool: Pool | None = context.Pool(workers)

    def run(self, function: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[tuple[int, Any]]:
        import queue

        pool = self._pool
        if pool is None:
            raise InternalError("a closed executor was given tasks")
        # The tasks are drawn here, in the caller's thread, a window at a time: drawing one may read the
        # store (a resumed sweep), whose SQLite connection belongs to this thread. (imap_unordered drew
        # them in the pool's own thread, and a resumed sweep called its store damaged.)
        pending = enumerate(tasks)
        finished: queue.SimpleQueue = queue.SimpleQueue()
        running = 0

        def submit(count: int) -> None:
            nonlocal running
            for index, args in itertools.islice(pending, count):
                pool.apply_async(
                    _indexed_call, ((index, function, args),), callback=finished.put, error_callback=finished.put
                )
                running += 1

        submit(max(8, 3 * self.workers))
        while running:
            try:
                outcome = finished.get(timeout=0.2)  # a timeout, so a Ctrl-C held for the sweep gets through
            except queue.Empty:
                continue
            running -= 1
            if isinstance(outcome, BaseException):
                raise outcome
            submit(1)
            yield outcome

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class DaskExecutor(Executor):
    """Tasks on a Dask cluster: a local one of `workers` processes, or the scheduler at `address`.

    Tasks are submitted a window at a time (a few per worker thread), so a sweep of a million
    cases never holds a million futures, and results are taken as they finish. When a worker
    dies, the scheduler runs its tasks again elsewhere; each future still yields once.

    Args:
        address: ``tcp://host:port`` of a running scheduler, or None for a local cluster.
        workers: Worker processes of the local cluster (one thread each: the solvers hold the GIL).
        connect_timeout: Seconds to wait for `address` to answer.

    Raises:
        InputError: dask.distributed is not installed, or nothing answered at `address` in time.
    """

    def __init__(self, address: str | None = None, workers: int = 1, connect_timeout: float = CONNECT_TIMEOUT):
        if address:
            probe_address(address, connect_timeout)
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            raise InputError("running on Dask needs dask.distributed: pip install 'dask[distributed]'") from None
        self._cluster: LocalCluster | None = None
        self._client: Client | None = None
        try:
            self._start(address, workers, connect_timeout)
        except BaseException:  # a Ctrl-C held back until the start-up was over, or a failure: stop what started
            self.close()
            raise

    def _start(self, address: str | None, workers: int, connect_timeout: float) -> None:
        from dask.distributed import Client, LocalCluster

        # Dask turns a Ctrl-C in the middle of its start-up into errors of its own: take it after
        with interrupts_deferred():
            if address:
                check_scheduler(address, connect_timeout)
                try:
                    self._client = Client(address, timeout=connect_timeout, set_as_default=False)
                except OSError as error:  # it went away since the probe (Dask closes such a client itself)
                    raise InputError(
                        f"{_SCHEDULER} {address}: the Dask scheduler stopped answering ({error})"
                    ) from None
            else:
                from cpsolve.sweep._dask_worker import OwnSession

                _make_room_for(workers)
                temporary_folder()  # the workers' scratch folders go there: refuse a TMPDIR they cannot use
                # children_ignore_interrupts: until OwnSession takes them out of the terminal's reach.
                # Dask logs a failed start as tracebacks of its own: the one line below says it instead
                with children_ignore_interrupts(), _distributed_logs_silenced():
                    try:
                        self._cluster = LocalCluster(
                            n_workers=workers,
                            threads_per_worker=1,
                            processes=True,
                            dashboard_address=":0",  # any free port: other sweeps on this machine may hold :8787
                            # the sweep reports what fails through the tasks' results; a worker's own log of a
                            # connection lost while the cluster shuts down is noise on the user's terminal
                            silence_logs=logging.CRITICAL,
                            plugins=[OwnSession()],  # Ctrl-C is the driver's to handle, not the workers'
                        )
                    except Exception as error:  # the machine's limits (open files, processes, memory, ports)
                        raise InputError(
                            f"the local Dask cluster of {workers} workers could not start ({_root_cause(error)}); "
                            f"try fewer {_JOBS}, or {_JOBS} 1 to run here"
                        ) from None
                self._client = Client(self._cluster, set_as_default=False)
        self.workers = max(1, sum(self._client.nthreads().values()))

    @property
    def client(self) -> Client | None:
        """The ``dask.distributed.Client`` (for tests that restart or kill workers)."""
        return self._client

    def run(self, function: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[tuple[int, Any]]:
        from dask.distributed import as_completed

        client = self._client
        if client is None:
            raise InternalError("a closed executor was given tasks")
        # enough queued work that no worker waits for the next task, few enough to stay small
        window = max(8, 3 * self.workers)
        pending = enumerate(tasks)
        index_of: dict[Any, int] = {}

        def submit(count: int) -> list[Any]:
            futures = []
            for index, args in itertools.islice(pending, count):
                future = client.submit(function, *args, pure=False)
                index_of[future] = index
                futures.append(future)
            return futures

        first = submit(window)
        if not first:
            return
        finished = as_completed(first, loop=client.loop)
        try:
            for future in finished:
                result = future.result()
                index = index_of.pop(future)
                future.release()
                for future in submit(1):
                    finished.add(future)
                yield index, result
        finally:
            # interrupted or abandoned: drop what is still queued, the cluster may be shared
            if index_of and self._client is not None:  # (a closed client cancelled everything)
                self._client.cancel(list(index_of))

    def close(self) -> None:
        # Closing races the cluster's own connections (after a Ctrl-C the workers are already going):
        # the scheduler then logs a lost connection as an error with a traceback, noise at this point
        with _distributed_logs_silenced():
            if self._client is not None:
                self._client.close(timeout=10)
                self._client = None
            if self._cluster is not None:
                self._cluster.close(timeout=10)
                self._cluster = None


#: Open files a local cluster's driver holds: about 21 and 9 a worker, measured (sockets and pipes to each
#: worker, the scheduler's listeners); this leaves room for the peaks of start-up.
_FILES_BASE, _FILES_PER_WORKER = 32, 12


def _make_room_for(workers: int) -> None:
    """Make sure this process may open the files a local cluster of `workers` needs, raising its soft limit
    up to the hard one if it must.

    With too few, Dask fails half-way through starting (one traceback a worker), or its event loop spins
    on the error for ever.

    Raises:
        InputError: The hard limit is below what the cluster needs.
    """
    try:
        import resource
    except ImportError:  # not a POSIX system: no such limit to meet
        return
    needed = _FILES_BASE + _FILES_PER_WORKER * workers
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        raise InputError(
            f"a local Dask cluster of {workers} workers needs about {needed} open files, and this process may "
            f"open {hard} (ulimit -n); raise the limit, or give fewer {_JOBS} ({_JOBS} 1 runs here)"
        )
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def _root_cause(error: BaseException) -> str:
    """What lies at the bottom of a chain of errors, in a few words: the system's reason when there is one."""
    seen: set[int] = set()
    current: BaseException | None = error
    found = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.strerror:
            return current.strerror
        found = current
        current = current.__cause__ or current.__context__
    text = " ".join(str(found).split()) or type(found).__name__
    return text if len(text) <= 100 else text[:97] + "..."


@contextlib.contextmanager
def _distributed_logs_silenced() -> Iterator[None]:
    """Hold back every ``distributed`` log record for the duration, then restore the levels."""
    loggers = [logging.getLogger("distributed")]
    loggers += [
        logger
        for name, logger in logging.root.manager.loggerDict.items()
        if name.startswith("distributed.") and isinstance(logger, logging.Logger)
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
