"""``cpsolve serve``: play and analyse in the browser, and the JSON API, on a local web server."""

from __future__ import annotations

from typing import Annotated

import typer

from cpsolve.answers.checks import check_count, check_time_limit
from cpsolve.cli.app import app
from cpsolve.cli.options import MAX_WORKERS
from cpsolve.errors import InputError, UsageError

__all__ = ["serve"]

#: The most requests the pool takes at once, waiting ones included, without --queue.
DEFAULT_QUEUE = 64


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host", metavar="ADDRESS", help="The address to listen on (loopback by default: this machine only)."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="N", help="The port (0: any free port, printed).")] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", metavar="N", help=f"Solver processes, 1-{MAX_WORKERS}: requests solved at once.")
    ] = 2,
    queue: Annotated[
        int,
        typer.Option(
            "--queue", metavar="N", help="Requests solving or waiting at once; past it a request gets 503 at once."
        ),
    ] = DEFAULT_QUEUE,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            metavar="S",
            help="The longest a request may ask for (its time_limit field; also its default).",
        ),
    ] = 30.0,
) -> None:
    """Serve the Play, Analyse and Layout pages and the JSON API (its OpenAPI page at /api) until Ctrl-C.

    Needs the web extra: pip install 'cpsolve\\[web]'. Binds loopback unless --host says otherwise;
    prints its address. Exit 130 after Ctrl-C, once the server has stopped.
    """
    # (the backslash before [web] keeps --help's rich markup from reading it as a style and dropping it)

    check_count(workers, "workers", MAX_WORKERS)
    check_count(queue, "queue", 100_000)
    check_time_limit(time_limit)
    if not 0 <= port <= 65535:
        raise InputError(f"--port must be from 0 to 65535, got {port}")
    try:
        from cpsolve.web.server import run
    except ImportError as error:
        raise UsageError(
            f"cpsolve serve needs the web extra ({error.name or error} is missing): pip install 'cpsolve[web]'"
        ) from None
    run(host, port, workers=workers, queue=queue, time_limit=time_limit)
