"""Clue puzzles (the standard CP Minesweeper model): the reader, and the text and JSON writers.

Input, tolerant of the forms published models use: an optional header (``R`` and ``C`` on two
lines, or ``R C`` or ``R C M`` on one, M the total number of mines), then R rows of C cells,
written as C characters or C tokens separated by spaces. Cells: ``0``-``8`` a clue, ``.``
``?`` ``-`` ``_`` ``X`` unknown, ``#`` no cell, ``*`` ``F`` a known mine. Blank lines, trailing
whitespace, CRLF and a byte-order mark are ignored.

Example:
    >>> _row_cells("1 . *", "p.txt", 1), _row_cells("1.*", "p.txt", 2)
    ('1.*', '1.*')
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cpsolve.deduce import Analysis, Position
from cpsolve.errors import InputError, TimeLimitError
from cpsolve.formats.lines import MAX_CELLS, Source, display_name, read_lines
from cpsolve.formats.values import ascii_int, counted, decimal_text, describe_char, shorten
from cpsolve.outcome import Status
from cpsolve.symbols import HOLE, MINE, SAFE

__all__ = [
    "CLUE_CHARS",
    "UNKNOWN_CHARS",
    "MINE_CHARS",
    "PuzzleInput",
    "ReadingTimedOut",
    "read_puzzle",
    "STATUS_WORDS",
    "draw_solution",
    "draw_position",
    "position_json",
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


class ReadingTimedOut(TimeLimitError):
    """The time limit ran out while a valid puzzle's position was being built.

    Attributes:
        puzzle: The file's name and a position of the puzzle's size and total with no cells
            listed: enough to word the ``unknown`` answer, never to be analysed.
    """

    def __init__(self, name: str, rows: int, cols: int, total: int | None):
        super().__init__(f"{name}: the time limit ran out while reading the puzzle")
        self.puzzle = PuzzleInput(name, Position(rows, cols, {}, frozenset(), frozenset(), total))


def _row_cells(text: str, name: str, line: int) -> str:
    """The cells of one grid row, written as characters or as space-separated tokens, one character each."""
    fields = text.split()
    if len(fields) > 1:
        for field in fields:
            if len(field) != 1:
                raise InputError(f"token {shorten(field)!r} is not one cell (tokens are single characters)", name, line)
        cells = "".join(fields)
    else:
        cells = fields[0]
    if not _CELL_CHARS.issuperset(cells):
        for column, ch in enumerate(cells, start=1):
            if ch not in _CELL_CHARS:
                hint = "clues are 0 to 8" if ch == "9" else "use 0-8 . ? - _ X # * F"
                raise InputError(f"unexpected character {describe_char(ch)} in cell {column}; {hint}", name, line)
    return cells


def _grid(lines: list[tuple[int, str]], name: str) -> list[str]:
    """Rows of cells, all the same width, or InputError at the first row that differs."""
    rows: list[str] = []
    for number, text in lines:
        cells = _row_cells(text, name, number)
        if rows and len(cells) != len(rows[0]):
            raise InputError(f"row has {counted(len(cells), 'cell')}, the first row has {len(rows[0])}", name, number)
        rows.append(cells)
    return rows


def _numbers(text: str) -> list[int] | None:
    """The numbers of a header line, or None when it is not one (ASCII digits only: ``²`` is no number)."""
    numbers = [ascii_int(field) for field in text.split()]
    return None if None in numbers else [number for number in numbers if number is not None]


def _shown(value: int) -> str:
    """A header number in a message (shortened: a header may hold thousands of digits)."""
    return shorten(decimal_text(value))


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


def read_puzzle(path: Source, deadline: float | None = None) -> PuzzleInput:
    """Read one clue puzzle.

    A first line (or two) of numbers is a header when the grid after it has the shape it says;
    otherwise, if the whole file reads as a grid, it is one (a row of clues like ``1 2`` is a
    row, not a header).

    Args:
        path: The file, ``-`` for standard input, or a :class:`cpsolve.formats.lines.TextSource`.
        deadline: A ``time.perf_counter()`` value past which building the position stops (the
            whole file is still checked first, so bad input is reported whatever the limit).

    Raises:
        InputError: Naming the file and line: ragged rows, another character, a header that
            disagrees with the grid, a digit 9, an empty or binary file.
        ReadingTimedOut: The deadline passed while the (valid) position was being built.
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
        rest = lines[used:]
        if not rest and used == 1:
            # ``R C`` alone: a header missing its grid (two lone numbers on two lines are a grid)
            raise InputError(f"header says {_shown(height)}x{_shown(width)}, but no grid follows", name, header_line)
        try:
            rows = _grid(rest, name) if rest else []
            failure = None
        except InputError as error:
            rows, failure = [], error
        fits = height >= 1 and width >= 1 and len(rows) == height and bool(rows) and len(rows[0]) == width
        if not fits:
            # the numbers may be a first row instead (``1 1 1`` in a grid of tokens, ``0`` over
            # ``0``): only when every row is written the same way, so ``2 3`` over rows of
            # characters stays a header
            same_form = len({len(text.split()) > 1 for _, text in lines}) == 1
            try:
                if not same_form:
                    raise InputError("")
                rows = _grid(lines, name)
                total = None
            except InputError:
                if height < 1 or width < 1:
                    raise InputError(
                        f"header needs positive R and C, got {_shown(height)} {_shown(width)}", name, header_line
                    ) from None
                if not rest:
                    raise InputError(
                        f"header says {_shown(height)}x{_shown(width)}, but no grid follows", name, header_line
                    ) from None
                if failure is not None:
                    raise failure from None
                if len(rows[0]) != width:
                    raise InputError(
                        f"row has {counted(len(rows[0]), 'cell')}, header says {_shown(width)}", name, rest[0][0]
                    ) from None
                raise InputError(
                    f"header says {counted(height, 'row')}, the grid has {len(rows)}", name, header_line
                ) from None
    if len(rows) * len(rows[0]) > MAX_CELLS:
        raise InputError(f"{len(rows)}x{len(rows[0])} is larger than {MAX_CELLS} cells", name, lines[0][0])
    position = _position(rows, total, deadline)
    if position is None:
        raise ReadingTimedOut(name, len(rows), len(rows[0]), total)
    return PuzzleInput(name, position)


#: Each cell character's code: 0-8 a clue, then unknown, known mine, no cell (numpy lookup table).
_UNKNOWN_CODE, _MINE_CODE, _HOLE_CODE = 9, 10, 11


def _code_table() -> Any:
    import numpy as np

    table = np.full(128, _HOLE_CODE, dtype=np.uint8)
    for ch in CLUE_CHARS:
        table[ord(ch)] = int(ch)
    for chars, code in ((UNKNOWN_CHARS, _UNKNOWN_CODE), (MINE_CHARS, _MINE_CODE)):
        for ch in chars:
            table[ord(ch)] = code
    return table


#: Cells classified between two looks at the deadline while a position is built (about 0.1 s of work).
_CELLS_PER_STEP = 250_000


def _position(rows: list[str], total: int | None, deadline: float | None = None) -> Position | None:
    """The position of validated rows (ASCII cell characters, all one width), or None past `deadline`.

    Built with numpy: a Python loop over the cells of a 3000x3000 puzzle took most of its 13 s
    of reading; here the cells are classified in one lookup and only the tuples are Python. The
    tuples of a few million cells still take seconds, so they are made a band of rows at a time
    with a look at the deadline between bands: the time limit covers the reading.
    """
    import numpy as np

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    height, width = len(rows), len(rows[0])
    codes = _code_table()[np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8)].reshape(height, width)
    clue_cells: list[tuple[int, int]] = []
    clue_values: list[int] = []
    mine_cells: list[tuple[int, int]] = []
    unknown_cells: list[tuple[int, int]] = []

    def add(cells: list[tuple[int, int]], mask: Any, top: int) -> None:
        where = np.nonzero(mask)
        cells.extend(zip((where[0] + top).tolist(), where[1].tolist(), strict=True))

    band = max(1, _CELLS_PER_STEP // width)
    for top in range(0, height, band):
        if late():
            return None
        block = codes[top : top + band]
        clue_mask = block <= 8
        add(clue_cells, clue_mask, top)
        clue_values.extend(block[clue_mask].tolist())
        add(mine_cells, block == _MINE_CODE, top)
        add(unknown_cells, block == _UNKNOWN_CODE, top)
    if late():
        return None
    clues = dict(zip(clue_cells, clue_values, strict=True))
    del clue_cells, clue_values
    if late():
        return None
    mines = frozenset(mine_cells)
    unknown = frozenset(unknown_cells)
    del mine_cells, unknown_cells
    if late():
        return None
    return Position(height, width, clues, mines, unknown, total)


def _char_grid(position: Position, marks: Iterable[tuple[Iterable[tuple[int, int]], str]] = ()) -> Any:
    """The position drawn as a numpy array of characters: clues, ``*`` known mines, ``.`` unknown, ``#`` no cell.

    Args:
        position: The position.
        marks: (cells, character) pairs drawn over it, in order.
    """
    import numpy as np

    grid = np.full((position.rows, position.cols), HOLE, dtype="<U1")

    def put(cells: Iterable[tuple[int, int]], values: Any) -> None:
        cells = list(cells)
        if cells:
            rows, cols = zip(*cells, strict=True)
            grid[list(rows), list(cols)] = values

    put(position.unknown, SAFE)
    put(position.known_mines, MINE)
    put(position.clues.keys(), [str(value) for value in position.clues.values()])
    for cells, ch in marks:
        put(cells, ch)
    return grid


def draw_solution(position: Position, solution: frozenset[tuple[int, int]]) -> list[str]:
    """The solved grid: clues kept, ``*`` every mine, ``.`` safe unknown cells, ``#`` no cell."""
    return ["".join(row) for row in _char_grid(position, [(solution, MINE)])]


def draw_position(position: Position) -> list[str]:
    """The position in the puzzle format, a character a cell: clues, ``*`` known mines, ``.`` unknown, ``#`` no cell."""
    return ["".join(row) for row in _char_grid(position)]


def position_json(position: Position) -> dict[str, Any]:
    """A position as read, every way of writing it made one (the web app's Analyse page draws it).

    Keys: ``rows``, ``cols``, ``total_mines`` (null without a total) and ``grid`` (:func:`draw_position`).
    """
    return {
        "rows": position.rows,
        "cols": position.cols,
        "total_mines": position.total,
        "grid": draw_position(position),
    }


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
        answer["probabilities"] = (
            _probability_rows(position, analysis.probabilities) if analysis.probabilities is not None else None
        )
    return answer


#: The marks of the text answer's boards: a cell safe, or a mine, in every solution; a clue in the probability board.
SURELY_SAFE, SURELY_MINE, CLUE_IN_CHANCES = "s", "F", "-"
#: How many of the cells tied for the lowest chance of a mine are named (the rest are counted).
_LOWEST_SHOWN = 3


def _spaced(grid: Any) -> list[str]:
    """Rows with a space between cells: 2 characters a cell, so expert (30 wide) takes 59 columns."""
    return [" ".join(row) for row in grid]


def _where(cells: Iterable[tuple[int, int]]) -> str:
    return ", ".join(f"({r + 1},{c + 1})" for r, c in cells)


def _certain_lines(position: Position, safe: frozenset[tuple[int, int]], mine: frozenset[tuple[int, int]]) -> list[str]:
    """What holds in every solution, drawn on the board."""
    undecided = len(position.unknown) - len(safe) - len(mine)
    return [
        f"certain: {counted(len(safe), 'safe cell')} ({SURELY_SAFE}), {counted(len(mine), 'mine')} ({SURELY_MINE}), "
        f"{undecided} undecided ({SAFE})",
        *_spaced(_char_grid(position, [(safe, SURELY_SAFE), (mine, SURELY_MINE)])),
    ]


def _tenths(chance: Fraction) -> str:
    """The glyph of a cell's chance of a mine: its mark when certain, else the tenths rounded down (0 to 9)."""
    if chance == 0:
        return SURELY_SAFE
    if chance == 1:
        return SURELY_MINE
    return str(chance.numerator * 10 // chance.denominator)


def _chance_lines(position: Position, chances: dict[tuple[int, int], Fraction]) -> list[str]:
    """The chance of a mine on every unknown cell, one character each, and the lowest chance in full."""
    glyphs: dict[str, list[tuple[int, int]]] = {}
    for cell, chance in chances.items():
        glyphs.setdefault(_tenths(chance), []).append(cell)
    grid = _char_grid(
        position, [(position.clues.keys(), CLUE_IN_CHANCES), *((cells, ch) for ch, cells in glyphs.items())]
    )
    lines = [
        "chance of a mine in tenths: 0 under 10%, 1 from 10% to 20%, ..., 9 90% or more;",
        f"{SURELY_SAFE} safe and {SURELY_MINE} a mine in every solution, {CLUE_IN_CHANCES} a clue, "
        f"{MINE} a known mine, "
        f"{HOLE} no cell",
        *_spaced(grid),
    ]
    open_chances = [(chance, cell) for cell, chance in chances.items() if 0 < chance < 1]
    if open_chances:
        lowest = min(chance for chance, _ in open_chances)
        cells = sorted(cell for chance, cell in open_chances if chance == lowest)
        more = len(cells) - _LOWEST_SHOWN
        named = _where(cells[:_LOWEST_SHOWN]) + (f" and {more} more" if more > 0 else "")
        lines.append(f"lowest chance: {float(lowest) * 100:.1f}% at {named}")
    return lines


def puzzle_text(puzzle: PuzzleInput, position: Position, analysis: Analysis) -> list[str]:
    """One puzzle's answer for people: a title line, what was asked, and a solution.

    What is certain comes first, drawn on the board (``s`` safe and ``F`` a mine in every
    solution, ``.`` undecided); then the chance of a mine on each unknown cell, one character a
    cell (tenths, rounded down), with the lowest chance in full; then one solution, labelled as
    one of several when the count says so. Boards with marks put a space between cells, so
    expert (30 columns) fits in 59 characters; rows and columns in the text are 1-based.
    """
    total = "no total" if position.total is None else counted(position.total, "mine")
    lines = [
        f"{puzzle.name}: {position.rows}x{position.cols}, {total}: {STATUS_WORDS[analysis.status].replace('_', ' ')}"
    ]
    if analysis.status is Status.UNKNOWN:
        lines[0] += " (time limit reached)"
        return lines
    if analysis.count is not None:
        lines.append(f"solutions: {decimal_text(analysis.count)}")
    if analysis.surely_safe is not None and analysis.surely_mine is not None:
        lines.extend(_certain_lines(position, analysis.surely_safe, analysis.surely_mine))
    if analysis.probabilities is not None:
        lines.extend(_chance_lines(position, analysis.probabilities))
    if analysis.solution is not None:
        unique = analysis.count == 1 or (
            analysis.surely_safe is not None
            and analysis.surely_mine is not None
            and len(analysis.surely_safe) + len(analysis.surely_mine) == len(position.unknown)
        )
        if unique:
            lines.append(f"the solution ({MINE} mine, {SAFE} safe; the only one):")
        else:
            others = "others exist" if analysis.count is not None else "there may be others"
            lines.append(f"a solution ({MINE} mine, {SAFE} safe; {others}):")
        lines.extend(draw_solution(position, analysis.solution))
    return lines
