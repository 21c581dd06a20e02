"""``cpsolve serve``: play and analyse in the browser, and the command line's answers over HTTP.

A view over the library, with no engine of its own: every answer is a :mod:`cpsolve.answers`
function's, the one the command line prints, computed in a solver process.

Modules:
    app:    the ASGI application (FastAPI): the pages, the JSON API, its errors and limits, each request's lane.
    models: the API's request bodies (the commands' options as fields).
    body:   a request's body read as JSON within the server's limits (digits, depth), refusals naming the field.
    work:   what a solver process does for one request: fields in, the command's JSON out.
    pool:   lanes of solver processes with bounded queues; work stopped by time, memory, a client that
            leaves or the server's stop; processes handed back their memory or replaced.
    forkserver_setup: imported by the solvers' forkserver alone, so that it ends with the server.
    server: uvicorn on a socket bound here, its address printed, stopped cleanly by any signal.
    static: the pages (Play, Analyse, Layout, the API's), their scripts and style: no build step.

Needs the ``web`` extra (FastAPI, uvicorn); nothing else in cpsolve imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app"]


def create_app(**settings: Any) -> FastAPI:
    """The web app (:func:`cpsolve.web.app.create_app`), FastAPI loaded only now."""
    from cpsolve.web.app import create_app as build

    return build(**settings)
