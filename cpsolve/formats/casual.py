"""Boards for the players (``play``, ``casual``, ``stats``): ACM 2003 "mines" input, and every board cpsolve writes.

One reader takes every form a board comes in, each board's form told by its first line:

- the contest's: ``r c`` then r rows, boards until ``0 0`` or the end of the file;
- bare grids (``generate``'s and ``layout``'s text), boards separated by a blank line;
- ``Case #k:`` blocks (``layout --input``'s output); an ``Impossible`` or ``Unknown`` case has no board and is skipped;
- JSON lines with a ``board`` (``generate``'s and ``layout``'s ``--format json``); a null board is skipped.

Rows are ``M`` or ``*`` (mine), ``.`` (safe), ``#`` (no cell) and ``c`` (a safe cell: the first click
of a generated or one-click board, at most one per board).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cpsolve.errors import InputError
from cpsolve.formats.lines import MAX_CELLS, Source, display_name, read_lines
from cpsolve.formats.values import ascii_int
from cpsolve.symbols import CLICK, CONTEST_MINE, HOLE, MINE, SAFE
from cpsolve.words import counted, describe_char, shorten

__all__ = ["CASUAL_CHARS", "MAX_CASE_NUMBER", "CasualInput", "read_casual_boards", "casual_json"]

CASUAL_CHARS = CONTEST_MINE + MINE + SAFE + HOLE + CLICK
_CASE = "Case #"
#: The largest case number a board may carry (a signed 64-bit integer: what any JSON reader holds exactly enough
#: to echo, and far past any file's count).
MAX_CASE_NUMBER = 2**63 - 1
#: The answers of a ``Case #k:`` block that are not boards.
_NO_BOARD = ("Impossible", "Unknown")


@dataclass(frozen=True)
class CasualInput:
    """One board of a player's input: its number, first line, rows, and the first click it names.

    Attributes:
        number: The board's number: its place in the file, or its case number where it has one.
        line: The line it starts on.
        rows: Its rows, ``c`` kept.
        click: The 0-based first click the board names (its ``c``, or a JSON ``first``/``click``), if any.
    """

    number: int
    line: int
    rows: tuple[str, ...]
    click: tuple[int, int] | None = None


_CASUAL_SET = frozenset(CASUAL_CHARS)


def _check_casual_row(text: str, width: int | None, name: str, board: int, line: int) -> None:
    if not _CASUAL_SET.issuperset(text):
        _report_casual_character(text, name, board, line)
    if width is not None and len(text) != width:
        raise InputError(f"board {board}: row has {counted(len(text), 'cell')}, expected {width}", name, line)


def _report_casual_character(text: str, name: str, board: int, line: int) -> None:
    for column, ch in enumerate(text, start=1):
        if ch not in CASUAL_CHARS:
            raise InputError(
                f"board {board}: unexpected character {describe_char(ch)} at column {column}; use M * . # c", name, line
            )


def _board(number: int, line: int, rows: list[str], name: str) -> CasualInput:
    """The board of checked rows, its ``c`` (at most one) as its click."""
    clicks = [(r, row.index(CLICK)) for r, row in enumerate(rows) if CLICK in row]
    if len(clicks) > 1 or any(row.count(CLICK) > 1 for row in rows):
        raise InputError(f"board {number}: more than one click cell 'c'", name, line)
    return CasualInput(number, line, tuple(rows), clicks[0] if clicks else None)


def _block(first: tuple[int, str], lines: Iterator[tuple[int, str]], name: str, number: int) -> tuple[list[str], bool]:
    """The rows of a bare grid from its first line to a blank line; and whether the file ended."""
    rows = [first[1].strip()]
    _check_casual_row(rows[0], None, name, number, first[0])
    for row_line, row_text in lines:
        row = row_text.strip()
        if not row:
            return rows, False
        _check_casual_row(row, len(rows[0]), name, number, row_line)
        rows.append(row)
    return rows, True


def read_casual_boards(path: Source) -> Iterator[CasualInput]:
    """Stream the boards of a player's input, in any of the forms above.

    Trailing whitespace is ignored, and blank lines between boards.

    Raises:
        InputError: Naming the board and the line: a header that is not two positive integers
            (ASCII digits), fewer rows than the header says, ragged rows, other characters, more
            than one ``c``, a JSON line that is not a board.
    """
    name = display_name(path)
    lines = read_lines(path)
    board_number = 0
    pending: tuple[int, str] | None = None
    while True:
        if pending is not None:
            number, text = pending
            pending = None
        else:
            try:
                number, text = next(lines)
            except StopIteration:
                return
        fields = text.split()
        if not fields:
            continue
        if text.lstrip().startswith("{"):
            yield from _json_boards((number, text), lines, name)
            return
        if text.lstrip().startswith(_CASE):
            yield from _case_boards((number, text), lines, name)
            return
        board_number += 1
        if len(fields) == 1 and ascii_int(fields[0]) is None:
            rows, ended = _block((number, text), lines, name, board_number)
            yield _board(board_number, number, rows, name)
            if ended:
                return
            continue
        values = [ascii_int(field) for field in fields]
        height, width = values if len(values) == 2 else (None, None)
        if height is None or width is None:
            raise InputError(
                f"board {board_number}: header should be two integers 'r c', got {shorten(text.strip())!r}",
                name,
                number,
            )
        if (height, width) == (0, 0):
            return
        if height < 1 or width < 1:
            raise InputError(
                f"board {board_number}: header needs positive r and c, got {shorten(fields[0])} {shorten(fields[1])}",
                name,
                number,
            )
        if height * width > MAX_CELLS:
            raise InputError(
                f"board {board_number}: {shorten(fields[0])}x{shorten(fields[1])} is larger than {MAX_CELLS} cells",
                name,
                number,
            )
        rows = []
        for row_line, row_text in lines:
            row = row_text.strip()
            _check_casual_row(row, width, name, board_number, row_line)
            rows.append(row)
            if len(rows) == height:
                break
        if len(rows) < height:
            raise InputError(
                f"board {board_number}: header says {counted(height, 'row')}, file ends after {len(rows)}", name, number
            )
        yield _board(board_number, number, rows, name)


def _check_case_number(case: int, text: str, name: str, line: int) -> None:
    """A case number is from 1 to :data:`MAX_CASE_NUMBER` (answers name boards by it, seeds are drawn from it)."""
    if not 1 <= case <= MAX_CASE_NUMBER:
        raise InputError(f"case number must be from 1 to {MAX_CASE_NUMBER}, got {shorten(text.strip())}", name, line)


def _case_boards(first: tuple[int, str], lines: Iterator[tuple[int, str]], name: str) -> Iterator[CasualInput]:
    """The boards of ``Case #k:`` blocks (``layout --input``'s output), numbered by case."""
    current: tuple[int, int] | None = None  # (case, line)
    rows: list[str] = []

    def finish() -> Iterator[CasualInput]:
        if current is not None and rows and not (len(rows) == 1 and rows[0] in _NO_BOARD):
            yield _board(current[0], current[1], rows, name)

    for number, text in itertools.chain([first], lines):
        stripped = text.strip()
        if not stripped:
            continue
        if stripped.startswith(_CASE):
            head, colon, rest = stripped.partition(":")
            case = ascii_int(head[len(_CASE) :])
            if not colon or case is None:
                raise InputError(f"case header should be 'Case #k:', got {shorten(stripped)!r}", name, number)
            _check_case_number(case, head[len(_CASE) :], name, number)
            yield from finish()
            current, rows = (case, number), []
            stripped = rest.strip()
            if not stripped:
                continue
        assert current is not None  # the first line is a case header
        if rows and rows[0] in _NO_BOARD or (rows and stripped in _NO_BOARD):
            raise InputError(f"case {current[0]}: {shorten(stripped)!r} after the case's answer", name, number)
        if stripped not in _NO_BOARD:
            _check_casual_row(stripped, len(rows[0]) if rows else None, name, current[0], number)
        rows.append(stripped)
    yield from finish()


def _json_boards(first: tuple[int, str], lines: Iterator[tuple[int, str]], name: str) -> Iterator[CasualInput]:
    """The boards of JSON lines (``generate``/``layout --format json``): ``board`` rows, ``first`` or ``click``."""
    ordinal = 0
    for number, text in itertools.chain([first], lines):
        if not text.strip():
            continue
        ordinal += 1
        try:
            payload = json.loads(text)
        except RecursionError:
            raise InputError("JSON nested too deep (a board is an object of rows)", name, number) from None
        except ValueError as error:
            if "integer string conversion" in str(error):  # Python's 4,300-digit limit
                raise InputError("a JSON number of more than 4,300 digits", name, number) from None
            raise InputError("not a JSON object (a file of JSON lines has one object a line)", name, number) from None
        if not isinstance(payload, dict) or "board" not in payload:
            raise InputError("a JSON line needs a 'board' (rows of * . # c)", name, number)
        board_number = payload.get("case", ordinal)
        if not isinstance(board_number, int) or isinstance(board_number, bool):
            raise InputError("'case' should be an integer", name, number)
        _check_case_number(board_number, str(board_number), name, number)
        rows = payload["board"]
        if rows is None:
            continue  # a case with no board (Impossible, or its time ran out)
        if not isinstance(rows, list) or not rows or not all(isinstance(row, str) and row for row in rows):
            raise InputError(
                f"board {board_number}: 'board' should be a list of rows (strings of * . # c)", name, number
            )
        for row in rows:
            _check_casual_row(row, len(rows[0]), name, board_number, number)
        board = _board(board_number, number, rows, name)
        click = _json_click(payload, board, name, number)
        yield board if click is None else CasualInput(board.number, board.line, board.rows, click)


def _json_click(payload: dict[str, Any], board: CasualInput, name: str, line: int) -> tuple[int, int] | None:
    """The 0-based first click a JSON board names (``first``, or ``click``), checked against the board."""
    given = payload.get("first", payload.get("click"))
    if given is None:
        return board.click
    if not (
        isinstance(given, list)
        and len(given) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in given)
    ):
        raise InputError(f"board {board.number}: the first click should be [row, col], 1-based", name, line)
    row, col = given[0] - 1, given[1] - 1
    if not (0 <= row < len(board.rows) and 0 <= col < len(board.rows[0])) or board.rows[row][col] not in SAFE + CLICK:
        raise InputError(
            f"board {board.number}: the first click {given[0]},{given[1]} is not a safe cell of the board", name, line
        )
    if board.click is not None and board.click != (row, col):
        raise InputError(
            f"board {board.number}: the first click {given[0]},{given[1]} is not the board's 'c'", name, line
        )
    return row, col


def casual_json(number: int, cells: int, result: Any) -> dict[str, Any]:
    """The JSON object of one board's answer (``casual --format json``, one per line).

    Args:
        number: The board's number in the file.
        cells: How many cells the board has.
        result: Its :class:`cpsolve.play.casual.CasualResult`.
    """
    click = [result.click[0] + 1, result.click[1] + 1] if result.click else None
    return {
        "board": number,
        "answer": result.covered,
        "click": click,
        "cleared": result.cleared,
        "flagged": result.flagged,
        "covered": cells - result.cleared - result.flagged,
        "clicks_tried": result.clicks_tried,
    }
