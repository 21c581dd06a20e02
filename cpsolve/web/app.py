"""The ASGI application: the pages, their static files, the JSON API and its OpenAPI description.

:func:`create_app` builds it. Every API request is answered by a solver process of the
:class:`cpsolve.web.pool.SolverPool` (:func:`cpsolve.web.work.answer`), never on the event loop,
so the pages and ``GET /api/health`` answer at once whatever the solvers are doing. Requests go to
one of two lanes, each with processes and a queue of its own (:func:`lane_of` decides from the
request): the quick lane (a position, a hint, a game's move, a small puzzle) never waits behind
the long one (generation, layouts, large inputs). What comes back for a bad request is always
``{"error": "<one line>"}`` with a 4xx status:

- 400: the body is not JSON, or not a JSON object;
- 413: the body is larger than :data:`MAX_BODY` bytes (refused before it is read whole);
- 415: the body is not sent as JSON (``Content-Type: application/json``): FastAPI's strict check,
  which keeps a page from another site from posting to this unauthenticated local server;
- 422: a field unknown, missing or of the wrong type, a value the command line refuses (with the
  command line's own message, naming the field), a value past the server's bounds (an integer of
  more than 30 digits, a value nested more than 32 deep, a count over :data:`MAX_BOARDS`), or work
  that needed more memory than a solver process may have;

and, for what the server cannot do now:

- 503: the request's lane is full (every solver busy and its queue too): try again after the
  ``Retry-After`` header's seconds; or the server is stopping;
- 504: the time limit ran out with no answer to give (an answer that says ``unknown`` is a 200,
  as the command line prints it).

A client that goes away while its request is solved has that work stopped (its process ended and
replaced). The pages are static files shipped in the package (``cpsolve/web/static``): plain
HTML, CSS and JavaScript with no build step and nothing fetched from another site, so they work
offline. The browser draws, takes the clicks and runs the clock; every answer (the game's
reveals and cascades included) comes from the server, which keeps no game between requests.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cpsolve import __version__
from cpsolve.answers.checks import check_time_limit
from cpsolve.errors import ParameterError, TimeLimitError
from cpsolve.web.body import MAX_DEPTH, MAX_DIGITS, BodyError, field_name, read_json
from cpsolve.web.models import (
    CasualRequest,
    GameRequest,
    GenerateRequest,
    Health,
    HintRequest,
    LayoutRequest,
    PositionRequest,
    PuzzleRequest,
)
from cpsolve.web.pool import Busy, Lane, OutOfMemory, SolverPool, Stopped, Stopping, WorkerLost
from cpsolve.web.work import PRELOAD, answer, error_json, warm
from cpsolve.words import shorten

__all__ = [
    "MAX_BODY",
    "MAX_BOARDS",
    "MAX_CELLS",
    "GRACE",
    "MEMORY_MIB",
    "RECYCLE_MIB",
    "QUICK_TEXT",
    "QUICK_CELLS",
    "QUICK",
    "LONG",
    "create_app",
    "lane_of",
]

#: The largest request body accepted, in bytes (a 1000x1000 position takes about 1 MB).
MAX_BODY = 1_000_000
#: The most boards one ``/api/generate`` request may ask for.
MAX_BOARDS = 100
#: The largest board ``/api/layout`` and ``/api/generate`` make, in cells (the library takes up to
#: 10^8, which a command on one's own machine may ask for; an answer of this size is about as large
#: as the largest body the server reads, and a few bytes of request cannot tie up a solver for minutes).
MAX_CELLS = 1_000_000
#: Seconds past a request's time limit before its work is stopped outright: the library answers
#: "unknown" at its time limit by itself; this catches work that cannot look at the clock. It is
#: also what the requests in progress are given when the server is told to stop.
GRACE = 5.0
#: The most memory one solver process may allocate, in MiB, unless the server is told otherwise: 4
#: processes at this bound take a third of the 24 GiB machine the load test ran on.
MEMORY_MIB = 2048
#: A solver process that still holds more than this (MiB) after a request, once it has handed back
#: what it freed, is replaced by a fresh one (which holds about 30 MiB; one that has imported OR-Tools
#: for a CP layout about 100 MiB, and is kept, so the next layout does not import it again).
RECYCLE_MIB = 128
#: The quick lane's name: what a person at a page waits for, and small inputs.
QUICK = "quick"
#: The long lane's name: generation, layouts, large inputs.
LONG = "long"
#: The longest text (a position, the casual boards) the quick lane takes, in characters: a 50x50
#: board with its header and Windows line ends fits. Past it the engine's work (an exact count, the
#: chances) can take its whole time limit and gigabytes (a 100x100 position, a 10x300 clue strip),
#: which is long work. A game is always quick work: at most 100x100, it is the Play page's every move.
QUICK_TEXT = 2_700
#: The largest plain greedy layout the quick lane takes, in cells.
QUICK_CELLS = 10_000
#: The seconds a request refused by a full lane is told to wait before it tries again.
RETRY_QUICK, RETRY_LONG = 1, 10
#: The static files: the pages, their script and style.
STATIC = files("cpsolve.web") / "static"


def _error(status: int, message: str) -> Response:
    return Response(error_json(message), status_code=status, media_type="application/json")


class _BodyLimit:
    """Refuse a body over `limit` bytes with 413, by its Content-Length or as it streams in."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = _error(413, f"the request body is larger than {self.limit} bytes")
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await too_large(scope, receive, send)
                return
        received = 0
        refused = False

        async def counted_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    # the app reads no more of it; whatever it answers is replaced by the 413 below
                    refused = True
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def watched_send(message: Message) -> None:
            if not refused:
                await send(message)
            elif message["type"] == "http.response.start":
                await too_large(scope, receive, send)

        await self.app(scope, counted_receive, watched_send)


def _field(location: tuple[Any, ...]) -> str:
    """A field's place in the body as text: ``moves[3].cell`` (list places 1-based, as people count)."""
    return field_name(tuple(part for part in location if part != "body"))


def lane_of(kind: str, fields: dict[str, Any]) -> str:
    """The lane a request goes to, decided from the request itself (:data:`QUICK` or :data:`LONG`).

    Quick: what a person at a page waits for and what is small (a position, a hint or a puzzle of
    at most :data:`QUICK_TEXT` characters, a game's move, the casual player on a short text, a plain
    greedy layout of at most :data:`QUICK_CELLS` cells). Long: generation, the deep hint, the CP and
    MiniZinc layouts (whose first use in a process also imports OR-Tools), and anything larger.
    """
    if kind == "generate":
        return LONG
    if kind == "game":  # at most 100x100, and a no-guess deal is kept by the process for the moves after it
        return QUICK
    if kind == "hint" and fields.get("deep"):  # a few hundred games played out: seconds
        return LONG
    if kind == "layout":
        plain = fields["template"] is None and fields["click"] is None and fields["backend"] in (None, "greedy")
        return QUICK if plain and 0 < _cells(fields["rows"], fields["cols"]) <= QUICK_CELLS else LONG
    text = fields["boards"] if kind == "casual" else fields["position"]
    return QUICK if len(text) <= QUICK_TEXT else LONG


def _cells(rows: int | None, cols: int | None) -> int:
    """A board's cells, or 0 when its size is not given or not positive (the library's to refuse)."""
    return rows * cols if rows is not None and cols is not None and rows > 0 and cols > 0 else 0


def _hard_limit(kind: str, fields: dict[str, Any], limit: float) -> float:
    """The seconds after which a request's work is stopped outright: its time limit's worth of work, then
    :data:`GRACE`. Generate's limit is for each board, and a game's is for the deal and again for the answers."""
    runs = {"generate": max(1, fields.get("count", 1)), "game": 2}.get(kind, 1)
    return limit * runs + GRACE


class _BodyRefused(StarletteHTTPException):
    """A body past the reader's limits (:mod:`cpsolve.web.body`): its status and one line."""


class _LimitedRequest(Request):
    """A request whose body is read as JSON by :func:`cpsolve.web.body.read_json`, within the server's limits."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = read_json(await self.body())
            except BodyError as error:
                # FastAPI passes an HTTPException through as it is (any other error becomes its own 400)
                raise _BodyRefused(error.status, error.message) from None
        return self._json


class _Route(APIRoute):
    """FastAPI's route, its request's body read by :class:`_LimitedRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def handle_read_here(request: Request) -> Response:
            return await handle(_LimitedRequest(request.scope, request.receive))

        return handle_read_here


def _validation_message(error: dict[str, Any]) -> tuple[int, str]:
    """One line for pydantic's first complaint, worded like the command line's."""
    kind, location = error.get("type", ""), tuple(error.get("loc", ()))
    field = _field(location)
    if kind == "json_invalid":
        return 400, f"the request body is not JSON: {error.get('ctx', {}).get('error', 'invalid')}"
    if not field:  # the body itself: empty, or not an object
        return 400, "the request body must be a JSON object"
    if kind in ("model_attributes_type", "dict_type", "model_type"):  # an item inside it (a move)
        return 422, f"{field}: must be a JSON object"
    if kind == "extra_forbidden":
        return 422, f"unknown field {field!r}"
    if kind == "missing":
        return 422, f"field {field!r} is required"
    message = str(error.get("msg", "invalid")).rstrip(".")
    return 422, f"{field}: {message[:1].lower()}{message[1:]}, got {shorten(repr(error.get('input')), 40)}"


def _limits(
    workers: int, queue: int, long_workers: int, long_queue: int, time_limit: float, memory_mib: int, grace: float
) -> str:
    """The server's own limits, with their numbers, for the OpenAPI description (and so the /api page)."""
    return (
        "**This server's limits.** "
        f"A body of at most {MAX_BODY:,} bytes (413 past it), an integer of at most {MAX_DIGITS} digits and a "
        f"value nested at most {MAX_DEPTH} deep (422). "
        f"Boards of at most {MAX_CELLS:,} cells from `/api/layout` and `/api/generate`, at most {MAX_BOARDS} "
        "boards a `/api/generate` request, games of at most 100 x 100. "
        f"`time_limit` at most {time_limit:g} s, and its default; the time counts from when a solver takes the "
        f"request, reading the input included, and {grace:g} s past it (past count times it for `generate`, twice "
        "it for `game`: the deal, then the answers) the work is stopped (504). "
        f"Two lanes, each with solver processes and a queue of its own: the quick lane ({workers} processes, "
        f"{queue} requests solving or waiting at once) takes `/api/position`, `/api/hint` and `/api/puzzle` of "
        f"at most {QUICK_TEXT:,} characters, `/api/game`, `/api/casual` of at most {QUICK_TEXT:,} characters and "
        f"plain greedy layouts of at most {QUICK_CELLS:,} cells; the long lane ({long_workers} processes at a "
        f"lower CPU priority, {long_queue} requests at once) takes the rest. A full lane answers 503 at once "
        f"with `Retry-After` ({RETRY_QUICK} s for the quick lane, {RETRY_LONG} s for the long one). "
        f"Each solver process may allocate at most {memory_mib:,} MiB (work past it is stopped: 422), and one "
        f"that holds more than {RECYCLE_MIB} MiB after a request is replaced. On a stop (Ctrl-C, SIGTERM) the "
        f"requests in progress have {grace:g} s to finish, then get 503."
    )


def create_app(
    workers: int = 2,
    queue: int = 64,
    time_limit: float = 30.0,
    *,
    long_workers: int = 2,
    long_queue: int = 8,
    memory_mib: int = MEMORY_MIB,
    grace: float = GRACE,
) -> FastAPI:
    """The web app, its solver pool started with the app and stopped with it.

    Args:
        workers: The quick lane's solver processes.
        queue: Requests running or waiting at once in the quick lane; past it, 503.
        time_limit: The most seconds a request may ask for, and the default.
        long_workers: The long lane's solver processes.
        long_queue: Requests running or waiting at once in the long lane; past it, 503.
        memory_mib: The most memory one solver process may allocate (MiB).
        grace: Seconds past its time limit before a request's work is stopped, and what the requests
            in progress are given when the server stops.
    """
    lanes = (
        Lane(QUICK, workers, queue, nice=0, retry_after=RETRY_QUICK),
        # the long lane yields the cores to the quick one when both have work (nice 10 of 19)
        Lane(LONG, long_workers, long_queue, nice=10, retry_after=RETRY_LONG),
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = SolverPool(lanes, memory_mib=memory_mib, recycle_mib=RECYCLE_MIB, preload=PRELOAD)
        app.state.pool = pool
        try:
            await pool.start(warm)
            yield
        finally:
            pool.close()

    app = FastAPI(
        title="cpsolve",
        version=__version__,
        summary="Minesweeper by constraint programming: the command line's answers over HTTP.",
        description=(
            "Each endpoint takes a command's options as JSON fields and answers exactly the object that "
            "command prints with `--format json` for one input (less the `file` key). Errors are "
            '`{"error": "<one line>"}` with a 4xx status (503 and 504 when the server cannot answer now).\n\n'
            + _limits(workers, queue, long_workers, long_queue, time_limit, memory_mib, grace)
        ),
        lifespan=lifespan,
        docs_url=None,  # FastAPI's own pages load their scripts from a CDN; /api is drawn from the package
        redoc_url=None,
    )
    app.router.route_class = _Route
    app.state.time_limit = time_limit
    app.state.grace = grace

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> Response:
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if request.method == "POST" and not (media == "application/json" or media.endswith("+json")):
            # read as JSON only when it says it is: a page elsewhere cannot post here without the browser asking first
            return _error(415, "send the body as JSON, with the header Content-Type: application/json")
        status, message = _validation_message(error.errors()[0])
        return _error(status, message)

    @app.exception_handler(_BodyRefused)
    async def _refused(request: Request, error: _BodyRefused) -> Response:
        return _error(error.status_code, str(error.detail))

    def refusal(kind: str, fields: dict[str, Any]) -> str | None:
        """The server's own bounds on a request's fields, checked before any work: the message, or None."""
        rows, cols = fields.get("rows"), fields.get("cols")
        if kind in ("layout", "generate") and _cells(rows, cols) > MAX_CELLS:
            return f"rows x cols must be at most {MAX_CELLS:,} cells on this server, got {rows}x{cols}"
        if kind == "generate" and fields["count"] < 1:  # the library's words, before the hard limit is reckoned
            return str(ParameterError("count", f"must be 1 or more, got {fields['count']}"))
        if kind == "generate" and fields["count"] > MAX_BOARDS:
            return str(ParameterError("count", f"must be at most {MAX_BOARDS} on this server, got {fields['count']}"))
        if kind == "layout" and fields["workers"] is not None and not 1 <= fields["workers"] <= workers * 4:
            return str(ParameterError("workers", f"must be from 1 to {workers * 4} on this server"))
        return None

    async def solve(request: Request, kind: str, body: Any) -> Response:
        fields = body.model_dump()
        limit = fields.get("time_limit")
        if limit is None:
            limit = app.state.time_limit
        else:
            limit = float(limit)
            try:
                check_time_limit(limit)
            except ParameterError as error:
                return _error(422, str(error))
            if limit > app.state.time_limit:
                return _error(422, f"time_limit must be at most {app.state.time_limit:g} seconds on this server")
        fields["time_limit"] = limit
        refused = refusal(kind, fields)
        if refused is not None:
            return _error(422, refused)
        pool: SolverPool = app.state.pool
        # the library honours the limit itself; the pool's stop is the net for work that cannot look at the clock
        hard = _hard_limit(kind, fields, limit)
        try:
            status, text, headers = await pool.run(
                lane_of(kind, fields), answer, (kind, fields), hard, request.is_disconnected
            )
        except Busy as busy:
            return Response(
                error_json(str(busy)),
                status_code=503,
                media_type="application/json",
                headers={"Retry-After": str(busy.retry_after)},
            )
        except Stopping:
            return _error(503, "the server is stopping; the request was not answered")
        except TimeLimitError:
            return _error(504, f"the time limit of {limit:g} s ran out before an answer; the work was stopped")
        except OutOfMemory as memory:
            return _error(
                422,
                f"the work needed more than {memory.limit_mib:,} MiB of memory, the most a request may use on "
                "this server; it was stopped",
            )
        except WorkerLost as lost:
            return _error(500, f"internal error: {lost}")
        except Stopped:
            return _error(499, "the client went away")  # nobody reads it
        return Response(text, status_code=status, media_type="application/json", headers=headers)

    errors: dict[int | str, dict[str, Any]] = {
        code: {"description": words, "content": {"application/json": {"example": {"error": "..."}}}}
        for code, words in (
            (400, "The body is not a JSON object."),
            (413, f"The body is larger than {MAX_BODY:,} bytes."),
            (415, "The body is not sent as JSON (Content-Type: application/json)."),
            (
                422,
                "A field unknown, missing, mistyped or refused (the command line's one line), a value past the "
                f"server's bounds, or work that needed more memory than a solver process may have ({memory_mib:,} "
                "MiB).",
            ),
            (
                503,
                "The request's lane is full (try again after the Retry-After header's seconds), or the server "
                "is stopping.",
            ),
            (504, "The time limit ran out with no answer to give."),
        )
    }

    def documented(summary: str, answer_words: str) -> dict[str, Any]:
        return {
            "summary": summary,
            "response_class": Response,
            "responses": {200: {"description": answer_words, "content": {"application/json": {}}}, **errors},
            "tags": ["answers"],
        }

    @app.post("/api/puzzle", **documented("Solve a clue puzzle", "`cpsolve puzzle --format json`'s object."))
    async def puzzle(request: Request, body: PuzzleRequest) -> Response:
        """A solution or proof of none, and on request the exact count, what is certain and each chance."""
        return await solve(request, "puzzle", body)

    @app.post("/api/position", **documented("Read a position", "The position: rows, cols, total_mines and its grid."))
    async def position(request: Request, body: PositionRequest) -> Response:
        """The position as the reader sees it, one character a cell (0-8 clues, * known mines, . covered, # none)."""
        return await solve(request, "position", body)

    @app.post("/api/hint", **documented("The best move in a position", "`cpsolve hint --format json`'s object."))
    async def hint(request: Request, body: HintRequest) -> Response:
        """The certain cells, or the best guess with its exact safety and why; a contradiction's minimal clues."""
        return await solve(request, "hint", body)

    @app.post("/api/layout", **documented("A one-click board", "`cpsolve layout --format json`'s object."))
    async def layout(request: Request, body: LayoutRequest) -> Response:
        """A board won with one click, or Impossible (proved), or unknown when the time ran out."""
        return await solve(request, "layout", body)

    @app.post(
        "/api/casual", **documented("What a casual player leaves", "A list of `cpsolve casual --format json`'s lines.")
    )
    async def casual(request: Request, body: CasualRequest) -> Response:
        """The fewest safe cells a casual player leaves covered, for each board of the text."""
        return await solve(request, "casual", body)

    @app.post("/api/generate", **documented("No-guess boards", "A list of `cpsolve generate --format json`'s lines."))
    async def generate(request: Request, body: GenerateRequest) -> Response:
        """Boards the player wins without a guess from the first click, uniform over such boards."""
        return await solve(request, "generate", body)

    @app.post("/api/game", **documented("A game, replayed", "The game as the Play page draws it."))
    async def game(request: Request, body: GameRequest) -> Response:
        """The deal and the moves replayed by the game's rules; on request the chances, the hint, the verdicts."""
        return await solve(request, "game", body)

    @app.get(
        "/api/health",
        tags=["server"],
        summary="The server answers",
        response_description='`{"status": "ok", "version": "..."}`: the server is up, with its cpsolve version.',
    )
    async def health() -> Health:
        """Answered at once, whatever the solvers are doing: no solver process takes part."""
        return Health(status="ok", version=__version__)

    def page(name: str) -> Callable[[], Awaitable[FileResponse]]:
        async def serve_page() -> FileResponse:
            return FileResponse(str(STATIC / name), media_type="text/html")

        return serve_page

    for path, name in (
        ("/", "play.html"),
        ("/analyse", "analyse.html"),
        ("/layout", "layout.html"),
        ("/api", "api.html"),
    ):
        app.api_route(path, methods=["GET", "HEAD"], include_in_schema=False)(page(name))
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404:
            return _error(404, f"no such page: {request.url.path}")
        if error.status_code == 405:
            return _error(405, f"{request.method} is not allowed on {request.url.path}")
        if error.status_code == 400:  # FastAPI could not read the body at all (not UTF-8, say)
            return _error(400, f"the request body is not JSON: {str(error.detail).lower()}")
        return _error(error.status_code, str(error.detail))

    app.add_middleware(_BodyLimit, limit=MAX_BODY)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> Response:
        return JSONResponse({"error": f"internal error: {type(error).__name__}"}, status_code=500)

    return app
