"""Clue puzzles (the standard CP Minesweeper model): the reader, and the text and JSON writers.

Input, tolerant of the forms published models use: an optional header (``R`` and ``C`` on two
lines, or ``R C`` or ``R C M`` on one, M the total number of mines), then R rows of C cells,
written as C characters or C tokens separated by spaces. Cells: ``0``-``8`` a clue, ``.``
``?`` ``-`` ``_`` ``X`` unknown, ``#`` no cell, ``*`` ``F`` a known mine. Blank lines, trailing
whitespace, CRLF and a byte-order mark are ignored.

Example:
    >>> cells, width = _row_cells("1 . *", "p.txt", 1)
    >>> cells, width
    (['1', '.', '*'], 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cpsolve.deduce import Analysis, Position
from cpsolve.errors import InputError
from cpsolve.formats.lines import MAX_CELLS, display_name, read_lines
from cpsolve.outcome import Status
from cpsolve.symbols import HOLE, MINE, SAFE

__all__ = [
    "CLUE_CHARS",
    "UNKNOWN_CHARS",
    "MINE_CHARS",
    "PuzzleInput",
    "read_puzzle",
    "STATUS_WORDS",
    "draw_solution",
    "puzzle_json",
    "puzzle_text",
]

CLUE_CHARS = "012345678"
UNKNOWN_CHARS = ".?-_X"
MINE_CHARS = "*F"
_CELL_CHARS = frozenset(CLUE_CHARS + UNKNOWN_CHARS + MINE_CHARS + HOLE)

#: How each status is worded for a clue puzzle.
STATUS_WORDS = {Status.POSSIBLE: "solved", Status.IMPOSSIBLE: "no_solution", Status.UNKNOWN: "unknown"}


@dataclass(frozen=True)
class PuzzleInput:
    """One puzzle file: its name in messages and the position it states (the header's total, if any)."""

    name: str
    position: Position


def _row_cells(text: str, name: str, line: int) -> tuple[list[str], int]:
    """The cells of one grid row, written as characters or as space-separated tokens."""
    fields = text.split()
    if len(fields) > 1:
        for field in fields:
            if len(field) != 1:
                raise InputError(f"token {field!r} is not one cell (tokens are single characters)", name, line)
        cells = fields
    else:
        cells = list(fields[0])
    for column, ch in enumerate(cells, start=1):
        if ch not in _CELL_CHARS:
            hint = "clues are 0 to 8" if ch == "9" else "use 0-8 . ? - _ X # * F"
            raise InputError(f"unexpected character {ch!r} in cell {column}; {hint}", name, line)
    return cells, len(cells)


def _grid(lines: list[tuple[int, str]], name: str) -> list[list[str]]:
    """Rows of cells, all the same width, or InputError at the first row that differs."""
    rows: list[list[str]] = []
    for number, text in lines:
        cells, width = _row_cells(text, name, number)
        if rows and width != len(rows[0]):
            raise InputError(f"row has {width} cells, the first row has {len(rows[0])}", name, number)
        rows.append(cells)
    return rows


def _numbers(text: str) -> list[int] | None:
    fields = text.split()
    if all(field.isdigit() for field in fields):
        return [int(field) for field in fields]
    return None


def _header(lines: list[tuple[int, str]]) -> tuple[tuple[int, int, int | None], int] | None:
    """The header's (R, C, M) and how many lines it takes, if the file starts with one."""
    first = _numbers(lines[0][1])
    if first is not None and len(first) in (2, 3):
        return (first[0], first[1], first[2] if len(first) == 3 else None), 1
    if first is not None and len(first) == 1 and len(lines) > 1:
        second = _numbers(lines[1][1])
        if second is not None and len(second) == 1:
            return (first[0], second[0], None), 2
    return None


def read_puzzle(path: str) -> PuzzleInput:
    """Read one clue puzzle.

    A first line (or two) of numbers is a header when the grid after it has the shape it says;
    otherwise, if the whole file reads as a grid, it is one (a row of clues like ``1 2`` is a
    row, not a header).

    Raises:
        InputError: Naming the file and line: ragged rows, another character, a header that
            disagrees with the grid, a digit 9, an empty or binary file.
    """
    name = display_name(path)
    lines = [(number, text.strip()) for number, text in read_lines(path) if text.strip()]
    header = _header(lines)
    total = None
    if header is None:
        rows = _grid(lines, name)
    else:
        (height, width, total), used = header
        header_line = lines[0][0]
        if height < 1 or width < 1:
            raise InputError(f"header needs positive R and C, got {height} {width}", name, header_line)
        if height * width > MAX_CELLS:
            raise InputError(f"{height}x{width} is larger than {MAX_CELLS} cells", name, header_line)
        rest = lines[used:]
        if not rest:
            raise InputError(f"header says {height}x{width}, but no grid follows", name, header_line)
        try:
            rows = _grid(rest, name)
            fits = len(rows) == height and bool(rows) and len(rows[0]) == width
            failure = None
        except InputError as error:
            rows, fits, failure = [], False, error
        # the numbers may be a first row instead (``1 1 1`` in a grid of tokens): only when
        # every row is written the same way, so ``2 3`` over rows of characters stays a header
        same_form = len({len(text.split()) > 1 for _, text in lines}) == 1
        if not fits:
            try:
                if not same_form:
                    raise InputError("")
                rows = _grid(lines, name)
                total = None
            except InputError:
                if failure is not None:
                    raise failure from None
                if len(rows[0]) != width:
                    raise InputError(f"row has {len(rows[0])} cells, header says {width}", name, rest[0][0]) from None
                raise InputError(f"header says {height} rows, the grid has {len(rows)}", name, header_line) from None
    return PuzzleInput(name, _position(rows, total))


def _position(rows: list[list[str]], total: int | None) -> Position:
    clues: dict[tuple[int, int], int] = {}
    mines: set[tuple[int, int]] = set()
    unknown: set[tuple[int, int]] = set()
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in CLUE_CHARS:
                clues[(r, c)] = int(ch)
            elif ch in MINE_CHARS:
                mines.add((r, c))
            elif ch in UNKNOWN_CHARS:
                unknown.add((r, c))
    return Position(len(rows), len(rows[0]), clues, frozenset(mines), frozenset(unknown), total)


def _cell_char(position: Position, cell: tuple[int, int], mines: Iterable[tuple[int, int]]) -> str:
    if cell in position.clues:
        return str(position.clues[cell])
    if cell in position.known_mines or cell in mines:
        return MINE
    if cell in position.unknown:
        return SAFE
    return HOLE


def draw_solution(position: Position, solution: frozenset[tuple[int, int]]) -> list[str]:
    """The solved grid: clues kept, ``*`` every mine, ``.`` safe unknown cells, ``#`` no cell."""
    return ["".join(_cell_char(position, (r, c), solution) for c in range(position.cols)) for r in range(position.rows)]


def _one_based(cells: frozenset[tuple[int, int]]) -> list[list[int]]:
    return [[r + 1, c + 1] for r, c in sorted(cells)]


def _probability_rows(position: Position, probabilities: dict[tuple[int, int], Fraction]) -> list[list[float | None]]:
    """Rows of probabilities: 1 on known mines, null on clues and holes."""
    rows = []
    for r in range(position.rows):
        row: list[float | None] = []
        for c in range(position.cols):
            cell = (r, c)
            if cell in probabilities:
                row.append(float(probabilities[cell]))
            elif cell in position.known_mines:
                row.append(1.0)
            else:
                row.append(None)
        rows.append(row)
    return rows


def puzzle_json(
    puzzle: PuzzleInput, position: Position, analysis: Analysis, *, count: bool, deduce: bool, probabilities: bool
) -> dict[str, Any]:
    """The JSON object of one puzzle's answer (``puzzle --format json``, one per line).

    Args:
        puzzle: The file read.
        position: The position analysed (its total after ``--mines`` / ``--no-total``).
        analysis: The engine's answer.
        count: Whether ``count`` was asked; likewise `deduce` and `probabilities`.
    """
    solved = analysis.status is Status.POSSIBLE
    answer: dict[str, Any] = {
        "file": puzzle.name,
        "rows": position.rows,
        "cols": position.cols,
        "total_mines": position.total,
        "status": STATUS_WORDS[analysis.status],
        "solution": draw_solution(position, analysis.solution) if solved and analysis.solution is not None else None,
    }
    if count:
        answer["count"] = analysis.count
    if deduce:
        answer["surely_safe"] = _one_based(analysis.surely_safe) if analysis.surely_safe is not None else None
        answer["surely_mine"] = _one_based(analysis.surely_mine) if analysis.surely_mine is not None else None
    if probabilities:
        answer["probabilities"] = _probability_rows(position, analysis.probabilities) if analysis.probabilities is not None else None
    return answer


def _cells_text(cells: frozenset[tuple[int, int]]) -> str:
    return " ".join(f"({r + 1},{c + 1})" for r, c in sorted(cells)) or "none"


def puzzle_text(puzzle: PuzzleInput, position: Position, analysis: Analysis) -> list[str]:
    """One puzzle's answer for people: a title line, the solution drawn, then what was asked.

    Probabilities are drawn as a grid of three-decimal numbers (clues shown as themselves,
    ``*`` known mines, ``#`` no cell); rows and columns in the cell lists are 1-based.
    """
    total = "no total" if position.total is None else f"{position.total} mines"
    lines = [f"{puzzle.name}: {position.rows}x{position.cols}, {total}: {STATUS_WORDS[analysis.status].replace('_', ' ')}"]
    if analysis.status is Status.UNKNOWN:
        lines[0] += " (time limit reached)"
        return lines
    if analysis.solution is not None:
        lines.extend(draw_solution(position, analysis.solution))
    if analysis.count is not None:
        lines.append(f"solutions: {analysis.count}")
    if analysis.surely_safe is not None:
        lines.append(f"surely safe: {_cells_text(analysis.surely_safe)}")
    if analysis.surely_mine is not None:
        lines.append(f"surely mine: {_cells_text(analysis.surely_mine)}")
    if analysis.probabilities is not None:
        lines.append("mine probabilities:")
        for r in range(position.rows):
            cells = []
            for c in range(position.cols):
                cell = (r, c)
                if cell in analysis.probabilities:
                    cells.append(f"{float(analysis.probabilities[cell]):5.3f}")
                else:
                    cells.append(f"{_cell_char(position, cell, ()):>5}")
            lines.append(" ".join(cells))
    return lines
