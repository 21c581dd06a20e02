"""``cpsolve serve``'s server: uvicorn on one socket, its address printed, stopped cleanly by a signal.

The socket is bound here, before uvicorn starts, so the address printed is the one listened on
(``--port 0`` takes any free port). Ctrl-C (SIGINT) and SIGTERM stop the server cleanly: it takes
no new request, the requests waiting for a solver get a JSON 503 at once, the ones being solved
have the grace (5 s) to finish and then get a JSON 503 too, and the solver processes are ended;
a second Ctrl-C cuts the grace short. The command then ends with its exit code (130 for Ctrl-C,
0 for SIGTERM), not by re-raising the signal as uvicorn would, and with no traceback. If the
server is killed outright (SIGKILL), its solver processes are ended by the kernel
(:mod:`cpsolve.web.pool`).

A request the HTTP parser cannot read (a malformed or negative ``Content-Length``, a header too
large) is answered as every other error: ``{"error": "<one line>"}``, not uvicorn's plain text.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from cpsolve.errors import InputError
from cpsolve.web.app import GRACE, MEMORY_MIB, create_app
from cpsolve.web.work import error_json

__all__ = ["bind", "run", "url"]


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host` and `port` (0: any free port).

    Raises:
        InputError: The address cannot be used (in use, not this machine's, not an address).
    """
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP named: asyncio turns Nagle's algorithm off only on sockets that say they are TCP,
        # and with it on, each answer waited 40 ms for the client's delayed acknowledgement
        listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    except OSError as error:
        raise InputError(f"--host {host}: {error.strerror or error}") from None
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
    except (OSError, OverflowError) as error:
        listener.close()
        reason = getattr(error, "strerror", None) or str(error)
        raise InputError(f"cannot listen on {host} port {port}: {reason}") from None
    listener.set_inheritable(True)
    return listener


def url(listener: socket.socket) -> str:
    """The http:// address of a listening socket."""
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


class _Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11, the one plain uvicorn has), its refusals of unreadable requests in JSON."""

    def send_400_response(self, msg: str) -> None:
        # called while h11's error is being handled: its words say what was wrong ("bad Content-Length")
        error = sys.exc_info()[1]
        status = getattr(error, "error_status_hint", 400)
        reason = str(error) if error is not None and str(error) else msg
        body = error_json(f"the request cannot be read as HTTP: {reason}").encode()
        head = (
            f"HTTP/1.1 {status} {'Bad Request' if status == 400 else 'Error'}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.transport.close()


class _Server(uvicorn.Server):
    """uvicorn's server, which on a signal stops cleanly and tells which signal, instead of raising it again.

    The first signal starts the solver pool's stop (:meth:`cpsolve.web.pool.SolverPool.stop`) with
    the grace; a second Ctrl-C stops the work in progress at once. Either way the requests in
    progress are answered (503) before uvicorn closes their connections.
    """

    signal_seen: int | None = None

    def __init__(self, config: uvicorn.Config, grace: float):
        super().__init__(config)
        self.grace = grace

    def _pool(self) -> Any:
        return getattr(getattr(self.config.app, "state", None), "pool", None)

    def handle_exit(self, sig: int, frame: Any) -> None:
        again = self.should_exit
        super().handle_exit(sig, frame)
        pool = self._pool()
        if pool is not None:
            pool.stop(0.0 if again else self.grace)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await super().shutdown(sockets)
        if not self.force_exit:
            return
        # after a second Ctrl-C uvicorn waits for nothing, but the pool has answered the requests in
        # progress (503): give them a moment to be written, so none is cut off by the loop's end
        for _ in range(20):
            if not self.server_state.tasks:
                break
            await asyncio.sleep(0.05)
        # and it skips the app's shutdown, whose task the loop's end would cancel with a traceback: the
        # solvers are stopped already, so the shutdown (which ends them) is quick
        await self.lifespan.shutdown()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def stop(number: int, frame: object) -> None:
            self.signal_seen = self.signal_seen or number
            self.handle_exit(number, None)

        previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)


def run(
    host: str,
    port: int,
    *,
    workers: int,
    queue: int,
    time_limit: float,
    long_workers: int = 2,
    long_queue: int = 8,
    memory_mib: int = MEMORY_MIB,
) -> None:
    """Serve until Ctrl-C or SIGTERM.

    Args:
        host: The address to listen on.
        port: The port (0: any free port).
        workers: The quick lane's solver processes.
        queue: The quick lane's requests at once.
        time_limit: The longest a request may ask for, and the default.
        long_workers: The long lane's solver processes.
        long_queue: The long lane's requests at once.
        memory_mib: The most memory a solver process may allocate (MiB).

    Raises:
        InputError: The address cannot be listened on.
        KeyboardInterrupt: After a clean stop on Ctrl-C (the command line's exit 130).
    """
    listener = bind(host, port)
    address = url(listener)
    where = "this machine only" if _loopback(host) else "every machine that can reach this one"
    print(f"cpsolve serve: {address} (open to {where}); Ctrl-C stops it", flush=True)
    app = create_app(
        workers=workers,
        queue=queue,
        time_limit=time_limit,
        long_workers=long_workers,
        long_queue=long_queue,
        memory_mib=memory_mib,
    )
    config = uvicorn.Config(
        app,
        http=_Protocol,
        # warnings are uvicorn's words for what the JSON answers already said (an unreadable request)
        log_level="error",
        access_log=False,
        # longer than the pool's grace, so the pool answers the requests in progress before uvicorn cancels them
        timeout_graceful_shutdown=int(GRACE) + 3,
    )
    server = _Server(config, GRACE)
    try:
        server.run(sockets=[listener])
    finally:
        listener.close()
        pool = getattr(app.state, "pool", None)
        if pool is not None:  # after a second Ctrl-C uvicorn skips the app's shutdown: end the solvers here
            pool.close()
    if server.signal_seen == signal.SIGINT:
        raise KeyboardInterrupt
