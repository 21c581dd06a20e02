"""What a solver process does for one API request: the fields translated to :mod:`cpsolve.answers`, the answer as JSON.

Each endpoint's fields are the command's options by their library names, so the translation is
short: text fields become :class:`cpsolve.formats.lines.TextSource` inputs named after the field
(an error reads "position, line 3: ..."), 1-based cells become 0-based, and the answer is the
object the command's ``--format json`` prints, less the ``file`` key. Nothing here computes.

Every outcome comes back as ``(HTTP status, JSON text)``, errors included, so nothing but plain
data crosses between processes and no traceback ever reaches a client: bad input is 422 with the
command line's one line, a time limit that ran out with no answer to give is 504, and a bug is
500 with its one line (its traceback goes to the server's log). A ``MemoryError`` (the process's
memory bound, :mod:`cpsolve.web.pool`) is left to the pool, which answers it and replaces the
process. The time limit counts from the reading of the input: a position read in 2 s of a 5 s
limit leaves 3 s for the hint. A list cut short by the time limit
(``generate`` found some of its boards) is a 200 with the boards found, as the command prints them
before its exit 3, and the reason in the header :data:`TIMED_OUT_HEADER`.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Iterator
from time import perf_counter
from typing import Any

from cpsolve.answers import games, generated, hints, layouts, players, puzzles
from cpsolve.errors import CpsolveError, InputError, InternalError, TimeLimitError, UsageError
from cpsolve.formats.casual import read_casual_boards
from cpsolve.formats.lines import TextSource
from cpsolve.formats.puzzle_output import position_json
from cpsolve.formats.values import json_line
from cpsolve.layout import SolveOptions, parse_phases
from cpsolve.words import one_line

__all__ = ["HANDLERS", "PRELOAD", "TIMED_OUT_HEADER", "answer", "error_json", "warm"]

#: What the forkserver the solver processes are forked from imports once: this module, which imports every
#: answer's module and their engines (OR-Tools is imported by the cp backend only when it runs: it starts
#: threads when imported, and a fork keeps none of them).
PRELOAD = (__name__,)

#: The HTTP status of each kind of error the library raises.
_STATUS = ((TimeLimitError, 504), (InternalError, 500), (InputError, 422), (UsageError, 422), (CpsolveError, 500))


def error_json(message: str) -> str:
    """The body of every error: ``{"error": message}``, the message as one line (:func:`cpsolve.words.one_line`)."""
    return json_line({"error": one_line(message)})


class PartialAnswer(Exception):
    """The time limit ran out after part of a list was found: the part is the answer, the message says why."""

    def __init__(self, found: list[Any], message: str):
        super().__init__(message)
        self.found = found


def _cell(value: list[int] | None) -> tuple[int, int] | None:
    """A 1-based ``[row, col]`` as the library's 0-based cell."""
    return None if value is None else (value[0] - 1, value[1] - 1)


def _unfiled(answer: dict[str, Any]) -> dict[str, Any]:
    """The command's object less its ``file`` key (a request has no file)."""
    return {key: value for key, value in answer.items() if key != "file"}


def _puzzle(fields: dict[str, Any]) -> Any:
    read = puzzles.read_puzzle_timed(TextSource("position", fields["position"]), fields["time_limit"])
    answer = puzzles.puzzle(
        read,
        count=fields["count"],
        deduce=fields["deduce"],
        probabilities=fields["probabilities"],
        mines=fields["mines"],
        no_total=fields["no_total"],
        time_limit=fields["time_limit"],
    )
    return _unfiled(answer.json())


def _read_in_time(fields: dict[str, Any]) -> tuple[puzzles.PuzzleRead, float]:
    """The position read, and the seconds of its time limit left after the reading (which counts against it).

    Raises:
        TimeLimitError: The reading took the whole time limit.
    """
    limit = fields["time_limit"]
    read = puzzles.read_puzzle_timed(TextSource("position", fields["position"]), limit)
    if read.seconds >= limit:
        raise TimeLimitError(f"the time limit of {limit:g} s ran out while the position was read")
    return read, limit - read.seconds


def _position(fields: dict[str, Any]) -> Any:
    read, left = _read_in_time(fields)
    # drawn from the flat view, never the Position of a million cells; the time left still holds
    return position_json(read.puzzle, perf_counter() + left)


def _hint(fields: dict[str, Any]) -> Any:
    read, left = _read_in_time(fields)
    answer = hints.hint(
        read.puzzle,
        mines=fields["mines"],
        no_total=fields["no_total"],
        seed=fields["seed"],
        time_limit=left,
        deep=fields["deep"],
    )
    return _unfiled(answer.json())


def _layout(fields: dict[str, Any]) -> Any:

    template = fields["template"]
    if template is None:
        if fields["rows"] is None or fields["cols"] is None:
            raise InputError("give rows, cols and mines, or mines and a template")
        numbers = [str(fields["rows"]), str(fields["cols"]), str(fields["mines"])]
    else:
        if fields["rows"] is not None or fields["cols"] is not None:
            raise InputError("with a template give only mines: the template sets rows and cols")
        numbers = [str(fields["mines"])]
    problem = layouts.layout_problem(
        numbers, None if template is None else TextSource("template", template), _cell(fields["click"])
    )
    options = SolveOptions(
        time_limit=fields["time_limit"],
        workers=fields["workers"],
        seed=fields["seed"],
        encoding=fields["encoding"],
        dominance=fields["dominance"],
        phases=parse_phases(fields["phases"]),
        model=fields["model"],
    )
    return layouts.layout(problem, fields["backend"], options, fields["solver"]).json()


def _casual(fields: dict[str, Any]) -> Any:

    # each board is quick, but a body may hold tens of thousands: the time limit is checked between them
    deadline = perf_counter() + fields["time_limit"]

    def answered() -> Iterator[Any]:
        for number, board in enumerate(read_casual_boards(TextSource("boards", fields["boards"])), start=1):
            if perf_counter() > deadline:
                raise TimeLimitError(f"the time limit of {fields['time_limit']:g} s ran out before board {number}")
            yield players.casual(board)

    return _collected(answered())


def _generate(fields: dict[str, Any]) -> Any:
    boards = generated.generate(
        fields["rows"],
        fields["cols"],
        fields["mines"],
        player=fields["player"],
        no_total=fields["no_total"],
        first=_cell(fields["first"]),
        start=fields["start"],
        count=fields["count"],
        seed=fields["seed"],
        time_limit=fields["time_limit"],
    )
    return _collected(boards)


def _collected(answered: Iterator[Any]) -> list[Any]:
    """Each answer's JSON object, in turn; when the time runs out after some, those (as the command
    prints them before its exit 3), and none at all is the time limit's error.

    Raises:
        PartialAnswer: The time ran out after some answers; TimeLimitError: before any.
    """
    found: list[Any] = []
    try:
        for item in answered:
            found.append(item.json())
    except TimeLimitError as error:
        if not found:
            raise
        raise PartialAnswer(found, str(error)) from None
    return found


def _game(fields: dict[str, Any]) -> Any:
    moves = [(move["action"], _cell(move["cell"])) for move in fields["moves"]]
    return games.game(
        fields["rows"],
        fields["cols"],
        fields["mines"],
        start=fields["start"],
        no_guess=fields["no_guess"],
        seed=fields["seed"],
        moves=moves,
        chances=fields["chances"],
        hint=fields["hint"],
        judge=fields["judge"],
        time_limit=fields["time_limit"],
    ).json()


#: Each endpoint's work, by name.
HANDLERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "puzzle": _puzzle,
    "position": _position,
    "hint": _hint,
    "layout": _layout,
    "casual": _casual,
    "generate": _generate,
    "game": _game,
}


def warm() -> int:
    """Nothing: run once per solver process when the server starts, so the first request finds it ready."""
    import os

    return os.getpid()


#: The response header that says a list is shorter than asked because the time limit ran out (its
#: value: the command's line, as ``cpsolve generate`` prints it on stderr before exit 3).
TIMED_OUT_HEADER = "X-Cpsolve-Timed-Out"


def answer(kind: str, fields: dict[str, Any]) -> tuple[int, str, dict[str, str]]:
    """Answer one request in this process: ``(HTTP status, JSON text, headers)``, whatever happens.

    Args:
        kind: The endpoint (a key of :data:`HANDLERS`).
        fields: The request's fields, checked for type already, ``time_limit`` set.
    """
    headers: dict[str, str] = {}
    try:
        payload = HANDLERS[kind](fields)
    except PartialAnswer as partial:
        payload = partial.found
        headers[TIMED_OUT_HEADER] = one_line(str(partial)).encode("ascii", "replace").decode()
    except CpsolveError as error:
        status = next(code for kind_of_error, code in _STATUS if isinstance(error, kind_of_error))
        return status, error_json(str(error)), headers
    except MemoryError:
        raise  # the process's memory bound: the pool answers it and replaces the process
    except Exception as error:  # a bug: one line for the client, the traceback for the server's log
        traceback.print_exc(file=sys.stderr)
        return 500, error_json(f"internal error: {type(error).__name__}: {error}"), headers
    if isinstance(payload, list):
        return 200, "[" + ", ".join(json_line(item) for item in payload) + "]", headers
    return 200, json_line(payload), headers
