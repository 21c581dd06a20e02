"""Code Jam 2014 "Minesweeper Master": the batch input, and the output read and written.

Input: a line T, then T lines ``R C M``. Output: ``Case #k:`` on its own line, then the board's
rows, or ``Impossible`` (``Unknown`` when a time limit ran out, cpsolve's own addition).

Example:
    >>> print(format_layout_case(2, ["Impossible"]), end="")
    Case #2:
    Impossible
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cpsolve.errors import InputError
from cpsolve.formats.lines import MAX_CELLS, Source, display_name, read_lines
from cpsolve.formats.values import ascii_int
from cpsolve.words import counted, decimal_text, shorten

__all__ = [
    "IMPOSSIBLE",
    "UNKNOWN",
    "LayoutCase",
    "parse_case_numbers",
    "read_layout_cases",
    "OutputCase",
    "read_layout_output",
    "format_layout_case",
    "answer_lines",
    "layout_json",
]

#: The verdict line of a case with no one-click board.
IMPOSSIBLE = "Impossible"
#: The line of a case whose time limit ran out (never a verdict).
UNKNOWN = "Unknown"
_HEADER = "Case #"
#: The longest line of a layout input: ``R C M`` within MAX_CELLS takes under 30 characters, so
#: this leaves room for any spacing (and for a T of thousands of digits, refused with its own
#: message) and stops a file without newlines from being read whole.
MAX_CASE_LINE = 100_000


@dataclass(frozen=True)
class LayoutCase:
    """One case of a layout batch: rows, columns and mines, and the line it came from."""

    number: int
    rows: int
    cols: int
    mines: int
    line: int | None = None


def parse_case_numbers(fields: list[str], source: str | None = None, line: int | None = None) -> tuple[int, int, int]:
    """Validate the three numbers R C M of a layout case.

    Raises:
        InputError: When there are not exactly three integers, or R < 1, C < 1, M < 0,
            M >= R*C, or the board has more than MAX_CELLS cells.
    """
    if len(fields) != 3:
        raise InputError(f"expected three integers R C M, got {len(fields)} fields", source, line)
    values = []
    for label, field in zip("RCM", fields, strict=True):
        value = ascii_int(field)  # ASCII digits only: int() also takes other scripts' digits and '1_0'
        if value is None:
            raise InputError(f"{label} is not an integer: {shorten(field)!r}", source, line)
        values.append(value)
    rows, cols, mines = values
    shown_rows, shown_cols, shown_mines = (shorten(field) for field in fields)
    if rows < 1 or cols < 1:
        raise InputError(f"rows and columns must be at least 1, got R={shown_rows} C={shown_cols}", source, line)
    if rows * cols > MAX_CELLS:
        raise InputError(f"board of {shown_rows}x{shown_cols} is larger than {MAX_CELLS} cells", source, line)
    if mines < 0 or mines >= rows * cols:
        raise InputError(
            f"mines must be in 0..{rows * cols - 1} for a {rows}x{cols} board, got M={shown_mines}", source, line
        )
    return rows, cols, mines


def read_layout_cases(path: Source) -> Iterator[LayoutCase]:
    """Stream the cases of a Code Jam layout input: a line T, then T lines ``R C M``.

    Blank lines are skipped. A T that does not match the number of case lines, junk, or a case
    out of range raises InputError naming the line; cases before it have been yielded already.
    """
    name = display_name(path)
    expected: int | None = None
    count = 0
    last_line = 0
    for number, text in read_lines(path, max_length=MAX_CASE_LINE):
        last_line = number
        fields = text.split()
        if not fields:
            continue
        if expected is None:
            if len(fields) != 1:
                raise InputError(
                    f"first line should be the number of cases T, got {shorten(text.strip())!r}", name, number
                )
            expected = ascii_int(fields[0])
            if expected is None:
                raise InputError(f"T is not an integer: {shorten(fields[0])!r}", name, number)
            if expected < 1:
                raise InputError(f"T must be at least 1, got {shorten(fields[0])}", name, number)
            continue
        if count == expected:
            raise InputError(f"more case lines than T={shorten(decimal_text(expected))}", name, number)
        rows, cols, mines = parse_case_numbers(fields, name, number)
        count += 1
        yield LayoutCase(count, rows, cols, mines, number)
    if expected is None:
        raise InputError("empty file", name)
    if count < expected:
        raise InputError(f"T={shorten(decimal_text(expected))} but only {counted(count, 'case line')}", name, last_line)


@dataclass(frozen=True)
class OutputCase:
    """One case of a layout output: its number, its text lines and where it started."""

    number: int
    lines: tuple[str, ...]
    line: int


def read_layout_output(path: str) -> Iterator[OutputCase]:
    """Stream the cases of a Code Jam layout output (``Case #k:`` then rows or Impossible).

    Trailing whitespace and blank lines are ignored; text after ``Case #k:`` on the same line is
    taken as the case's first line. Text before the first case header raises InputError.
    """
    name = display_name(path)
    current: int | None = None
    start = 0
    body: list[str] = []
    for number, text in read_lines(path):
        stripped = text.strip()
        if not stripped:
            continue
        if stripped.startswith(_HEADER):
            head, sep, rest = stripped.partition(":")
            if not sep:
                raise InputError(f"case header without ':': {stripped!r}", name, number)
            case_number = ascii_int(head[len(_HEADER) :].strip())
            if case_number is None:
                raise InputError(f"case header with a bad number: {shorten(stripped)!r}", name, number)
            if current is not None:
                yield OutputCase(current, tuple(body), start)
            current, start, body = case_number, number, []
            if rest.strip():
                body.append(rest.strip())
            continue
        if current is None:
            raise InputError(f"text before the first 'Case #1:' header: {stripped[:40]!r}", name, number)
        body.append(stripped)
    if current is not None:
        yield OutputCase(current, tuple(body), start)


def format_layout_case(number: int, lines: Iterable[str]) -> str:
    """One case of a layout output: ``Case #k:`` on its own line, then the answer's lines."""
    return f"{_HEADER}{number}:\n" + "".join(f"{line}\n" for line in lines)


def answer_lines(status: str, rows: list[str] | None) -> list[str]:
    """A layout answer's lines: the board's rows, ``Impossible``, or ``Unknown``.

    Args:
        status: ``possible``, ``impossible`` or ``unknown`` (a :class:`cpsolve.outcome.Status` value).
        rows: The board's rows when possible.
    """
    if status == "possible" and rows is not None:
        return list(rows)
    return [IMPOSSIBLE if status == "impossible" else UNKNOWN]


def layout_json(problem: Any, result: Any, case: int | None = None) -> dict[str, Any]:
    """The JSON object of one layout answer (``--format json``; one per line in a batch).

    Args:
        problem: A :class:`cpsolve.layout.LayoutProblem`.
        result: Its :class:`cpsolve.layout.LayoutResult`.
        case: The case number in a batch, written first; None for a single problem.
    """
    board = result.board
    payload: dict[str, Any] = {} if case is None else {"case": case}
    payload.update(
        {
            "rows": problem.rows,
            "cols": problem.cols,
            "mines": problem.mines,
            "status": result.status.value,
            "board": board.to_rows() if board is not None else None,
            "click": [board.click[0] + 1, board.click[1] + 1] if board is not None and board.click else None,
            "backend": result.backend,
            "repeatable": result.repeatable,
            "seconds": round(result.seconds, 6),
            "stats": result.stats,
        }
    )
    return payload
