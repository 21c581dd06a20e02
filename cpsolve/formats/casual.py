"""ACM Mid-Central 2003 "mines": boards as ``r c`` then r rows, ended by ``0 0``; one integer per board out."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cpsolve.errors import InputError
from cpsolve.formats.lines import MAX_CELLS, display_name, read_lines
from cpsolve.symbols import CONTEST_MINE, HOLE, MINE, SAFE

__all__ = ["CASUAL_CHARS", "CasualInput", "read_casual_boards", "casual_json"]

CASUAL_CHARS = CONTEST_MINE + MINE + SAFE + HOLE


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
    name = display_name(path)
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


def casual_json(number: int, cells: int, result: Any) -> dict[str, Any]:
    """The JSON object of one board's answer (``casual --format json``, one per line).

    Args:
        number: The board's number in the file.
        cells: How many cells the board has.
        result: Its :class:`cpsolve.casual.CasualResult`.
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
