"""``cpsolve serve``: play and analyse in the browser, and the JSON API, on a local web server."""

from __future__ import annotations

from typing import Annotated

import typer

from cpsolve.answers.checks import check_count, check_time_limit
from cpsolve.cli.app import app
from cpsolve.cli.options import MAX_WORKERS
from cpsolve.errors import InputError, ParameterError, UsageError
from cpsolve.words import decimal_text, shorten

__all__ = ["serve"]

#: The most requests the quick lane takes at once, waiting ones included, without --queue.
DEFAULT_QUEUE = 64
#: The same for the long lane, without --long-queue: its requests take seconds to minutes each.
DEFAULT_LONG_QUEUE = 8
#: The most memory a solver process may allocate without --memory-limit (MiB; cpsolve.web.app.MEMORY_MIB,
#: named here too so that --help loads no part of the web extra).
DEFAULT_MEMORY_MIB = 2048
#: --memory-limit's range (MiB): room for a solver's modules and some work, up to a terabyte.
MIN_MEMORY_MIB, MAX_MEMORY_MIB = 256, 1 << 20


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
        int,
        typer.Option(
            "--workers",
            metavar="N",
            help=f"Quick-lane solver processes, 1-{MAX_WORKERS}: positions, hints, games and small puzzles "
            "solved at once.",
        ),
    ] = 2,
    queue: Annotated[
        int,
        typer.Option(
            "--queue",
            metavar="N",
            help="Quick-lane requests solving or waiting at once; past it a request gets 503 at once.",
        ),
    ] = DEFAULT_QUEUE,
    long_workers: Annotated[
        int,
        typer.Option(
            "--long-workers",
            metavar="N",
            help=f"Long-lane solver processes, 1-{MAX_WORKERS}: generation, layouts and large inputs solved at "
            "once, at a lower CPU priority.",
        ),
    ] = 2,
    long_queue: Annotated[
        int,
        typer.Option(
            "--long-queue",
            metavar="N",
            help="Long-lane requests solving or waiting at once; past it a request gets 503 at once.",
        ),
    ] = DEFAULT_LONG_QUEUE,
    memory_limit: Annotated[
        int,
        typer.Option(
            "--memory-limit",
            metavar="MIB",
            help="The most memory one solver process may allocate, in MiB; work past it is stopped (422).",
        ),
    ] = DEFAULT_MEMORY_MIB,
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
    check_count(long_workers, "long_workers", MAX_WORKERS)
    check_count(long_queue, "long_queue", 100_000)
    # below 256 MiB a solver process has little room beside its modules (about 100 MiB allocated at start)
    if not MIN_MEMORY_MIB <= memory_limit <= MAX_MEMORY_MIB:
        raise ParameterError(
            "memory_limit",
            f"must be from {MIN_MEMORY_MIB} to {MAX_MEMORY_MIB} MiB, got {shorten(decimal_text(memory_limit))}",
        )
    check_time_limit(time_limit)
    if not 0 <= port <= 65535:
        raise InputError(f"--port must be from 0 to 65535, got {port}")
    try:
        from cpsolve.web.server import run
    except ImportError as error:
        raise UsageError(
            f"cpsolve serve needs the web extra ({error.name or error} is missing): pip install 'cpsolve[web]'"
        ) from None
    run(
        host,
        port,
        workers=workers,
        queue=queue,
        time_limit=time_limit,
        long_workers=long_workers,
        long_queue=long_queue,
        memory_mib=memory_limit,
    )
