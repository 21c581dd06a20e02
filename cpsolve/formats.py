"""Reading and writing the contest formats, with one error type that knows file and line.

Inputs are read as bytes and decoded line by line, so Windows line endings, a missing final
newline and stdin (``-``) all behave the same, and a large batch file streams: a caller can
answer case k before case k+1 is read.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

__all__ = [
    "InputError",
    "read_lines",
    "LayoutCase",
    "parse_case_numbers",
    "read_layout_cases",
    "OutputCase",
    "read_layout_output",
    "MAX_CELLS",
    "TEMPLATE_CHARS",
    "read_template",
    "CasualInput",
    "read_casual_boards",
]

#: The largest board (R*C) accepted: the output of a bigger one would not fit in memory.
MAX_CELLS = 100_000_000


class InputError(Exception):
    """Bad input: a one-line message naming what is wrong and where (file and line)."""

    def __init__(self, message: str, source: str | None = None, line: int | None = None):
        self.message = message
        self.source = source
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source if self.line is None else f"{self.source}, line {self.line}"
            where += ": "
        return where + self.message


def _display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def read_lines(path: str) -> Iterator[tuple[int, str]]:
    """Yield (line number, text) for each line of a text file, ``-`` meaning stdin.

    Line endings (LF or CRLF) are removed. A missing, unreadable, empty or binary file raises
    InputError before anything else is yielded for that problem.

    Args:
        path: File path, or ``-`` for standard input.

    Yields:
        1-based line numbers and the decoded line without its ending.
    """
    name = _display_name(path)
    stream: IO[bytes]
    if path == "-":
        stream = sys.stdin.buffer
    else:
        file_path = Path(path)
        if not file_path.exists():
            raise InputError("no such file", name)
        if file_path.is_dir():
            raise InputError("is a directory, not a file", name)
        try:
            stream = file_path.open("rb")
        except OSError as error:
            raise InputError(f"cannot read: {error.strerror}", name) from None
    try:
        any_text = False
        for number, raw in enumerate(stream, start=1):
            if b"\0" in raw:
                raise InputError("binary data (NUL byte), expected text", name, number)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError("binary data (not UTF-8 text)", name, number) from None
            text = text.rstrip("\r\n")
            if text.startswith("\ufeff") and number == 1:
                text = text[1:]  # a byte-order mark some Windows editors write
            any_text = any_text or bool(text.strip())
            yield number, text
        if not any_text:
            raise InputError("empty file", name)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


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
    for label, field in zip("RCM", fields):
        try:
            values.append(int(field))
        except ValueError:
            raise InputError(f"{label} is not an integer: {field!r}", source, line) from None
    rows, cols, mines = values
    if rows < 1 or cols < 1:
        raise InputError(f"rows and columns must be at least 1, got R={rows} C={cols}", source, line)
    if rows * cols > MAX_CELLS:
        raise InputError(f"board of {rows}x{cols} is larger than {MAX_CELLS} cells", source, line)
    if mines < 0 or mines >= rows * cols:
        raise InputError(f"mines must be in 0..{rows * cols - 1} for a {rows}x{cols} board, got M={mines}", source, line)
    return rows, cols, mines


def read_layout_cases(path: str) -> Iterator[LayoutCase]:
    """Stream the cases of a Code Jam layout input: a line T, then T lines ``R C M``.

    Blank lines are skipped. A T that does not match the number of case lines, junk, or a case
    out of range raises InputError naming the line; cases before it have been yielded already.
    """
    name = _display_name(path)
    expected: int | None = None
    count = 0
    last_line = 0
    for number, text in read_lines(path):
        last_line = number
        fields = text.split()
        if not fields:
            continue
        if expected is None:
            if len(fields) != 1:
                raise InputError(f"first line should be the number of cases T, got {text.strip()!r}", name, number)
            try:
                expected = int(fields[0])
            except ValueError:
                raise InputError(f"T is not an integer: {fields[0]!r}", name, number) from None
            if expected < 1:
                raise InputError(f"T must be at least 1, got {expected}", name, number)
            continue
        if count == expected:
            raise InputError(f"more case lines than T={expected}", name, number)
        rows, cols, mines = parse_case_numbers(fields, name, number)
        count += 1
        yield LayoutCase(count, rows, cols, mines, number)
    if expected is None:
        raise InputError("empty file", name)
    if count < expected:
        raise InputError(f"T={expected} but only {count} case lines", name, last_line)


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
    name = _display_name(path)
    current: int | None = None
    start = 0
    body: list[str] = []
    for number, text in read_lines(path):
        stripped = text.strip()
        if not stripped:
            continue
        if stripped.startswith("Case #"):
            head, sep, rest = stripped.partition(":")
            if not sep:
                raise InputError(f"case header without ':': {stripped!r}", name, number)
            try:
                case_number = int(head[len("Case #"):])
            except ValueError:
                raise InputError(f"case header with a bad number: {stripped!r}", name, number) from None
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


TEMPLATE_CHARS = "#*.?c"


def read_template(path: str) -> tuple[str, ...]:
    """Read a board sketch for ``layout --template``.

    One character per cell: ``#`` no cell, ``*`` a mine, ``.`` safe, ``?`` either, ``c`` the click.
    Blank lines at the ends are ignored and trailing whitespace is dropped; a row shorter than the
    longest is padded with ``#`` (no cell), so a ragged sketch draws a non-rectangular board.

    Raises:
        InputError: For an unknown character, more than one ``c``, a blank line inside the
            sketch, or a sketch with no cell.
    """
    name = _display_name(path)
    numbered = [(number, text.rstrip()) for number, text in read_lines(path)]
    while numbered and not numbered[-1][1]:
        numbered.pop()
    while numbered and not numbered[0][1]:
        numbered.pop(0)
    clicks = 0
    for number, text in numbered:
        if not text:
            raise InputError("blank line inside the template", name, number)
        for column, ch in enumerate(text, start=1):
            if ch not in TEMPLATE_CHARS:
                raise InputError(f"unexpected character {ch!r} at column {column}; use # * . ? c", name, number)
        clicks += text.count("c")
        if clicks > 1:
            raise InputError("more than one click cell 'c'", name, number)
    rows = [text for _, text in numbered]
    width = max(len(row) for row in rows)
    rows = [row.ljust(width, "#") for row in rows]
    if all(set(row) == {"#"} for row in rows):
        raise InputError("template has no cells", name)
    return tuple(rows)


CASUAL_CHARS = "M*.#"


@dataclass(frozen=True)
class CasualInput:
    """One board of a casual-player input: its number, first line, and rows."""

    number: int
    line: int
    rows: tuple[str, ...]


_CASUAL_SET = frozenset(CASUAL_CHARS)


def _check_casual_row(text: str, width: int | None, name: str, board: int, line: int) -> None:
    if not _CASUAL_SET.issuperset(text):
        _report_casual_character(text, name, board, line)
    if width is not None and len(text) != width:
        raise InputError(f"board {board}: row has {len(text)} cells, expected {width}", name, line)


def _report_casual_character(text: str, name: str, board: int, line: int) -> None:
    for column, ch in enumerate(text, start=1):
        if ch not in CASUAL_CHARS:
            raise InputError(f"board {board}: unexpected character {ch!r} at column {column}; use M * . #", name, line)


def read_casual_boards(path: str) -> Iterator[CasualInput]:
    """Stream the boards of an ACM 2003 "mines" input.

    Boards are ``r c`` then r rows of ``M``/``*`` (mine), ``.`` (safe) or ``#`` (no cell), until
    a line ``0 0`` or the end of the file. A file whose first line is not a header is read as one
    bare grid. Trailing whitespace and blank lines between boards are ignored.

    Raises:
        InputError: Naming the board and the line: a header that is not two positive integers,
            fewer rows than the header says, ragged rows, or other characters.
    """
    name = _display_name(path)
    lines = read_lines(path)
    board_number = 0
    for number, text in lines:
        fields = text.split()
        if not fields:
            continue
        if len(fields) == 1 and not fields[0].lstrip("-").isdigit():
            # a bare grid: this line and every following non-blank line are its rows
            board_number += 1
            rows = [text.strip()]
            width = len(rows[0])
            _check_casual_row(rows[0], None, name, board_number, number)
            for row_line, row_text in lines:
                row = row_text.strip()
                if not row:
                    continue
                _check_casual_row(row, width, name, board_number, row_line)
                rows.append(row)
            yield CasualInput(board_number, number, tuple(rows))
            return
        board_number += 1
        try:
            height, width = (int(field) for field in fields)
        except ValueError:
            raise InputError(f"board {board_number}: header should be two integers 'r c', got {text.strip()!r}", name, number) from None
        if (height, width) == (0, 0):
            return
        if height < 1 or width < 1:
            raise InputError(f"board {board_number}: header needs positive r and c, got {height} {width}", name, number)
        if height * width > MAX_CELLS:
            raise InputError(f"board {board_number}: {height}x{width} is larger than {MAX_CELLS} cells", name, number)
        rows = []
        for row_line, row_text in lines:
            row = row_text.strip()
            _check_casual_row(row, width, name, board_number, row_line)
            rows.append(row)
            if len(rows) == height:
                break
        if len(rows) < height:
            raise InputError(f"board {board_number}: header says {height} rows, file ends after {len(rows)}", name, number)
        yield CasualInput(board_number, number, tuple(rows))
