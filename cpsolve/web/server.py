"""``cpsolve serve``'s server: uvicorn on one socket, its address printed, stopped cleanly by Ctrl-C.

The socket is bound here, before uvicorn starts, so the address printed is the one listened on
(``--port 0`` takes any free port). Ctrl-C (SIGINT) and SIGTERM make uvicorn finish the requests
it has and stop the solver pool; after that the command ends with its exit code (130 for Ctrl-C),
not by re-raising the signal as uvicorn would.
"""

from __future__ import annotations

import contextlib
import ipaddress
import signal
import socket
import threading
from collections.abc import Iterator

import uvicorn

from cpsolve.errors import InputError
from cpsolve.web.app import create_app

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


class _Server(uvicorn.Server):
    """uvicorn's server, which on a signal stops cleanly and tells which signal, instead of raising it again."""

    signal_seen: int | None = None

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


def run(host: str, port: int, *, workers: int, queue: int, time_limit: float) -> None:
    """Serve until Ctrl-C or SIGTERM.

    Raises:
        InputError: The address cannot be listened on.
        KeyboardInterrupt: After a clean stop on Ctrl-C (the command line's exit 130).
    """
    listener = bind(host, port)
    address = url(listener)
    where = "this machine only" if _loopback(host) else "every machine that can reach this one"
    print(f"cpsolve serve: {address} (open to {where}); Ctrl-C stops it", flush=True)
    app = create_app(workers=workers, queue=queue, time_limit=time_limit)
    server = _Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=5))
    try:
        server.run(sockets=[listener])
    finally:
        listener.close()
    if server.signal_seen == signal.SIGINT:
        raise KeyboardInterrupt
