"""Clue puzzles (the standard CP Minesweeper model): the reader (the writers: :mod:`cpsolve.formats.puzzle_output`).

Input, tolerant of the forms published models use: an optional header (``R`` and ``C`` on two
lines, or ``R C`` or ``R C M`` on one, M the total number of mines), then R rows of C cells,
written as C characters or C tokens separated by spaces. Cells: ``0``-``8`` a clue, ``.``
``?`` ``-`` ``_`` ``X`` unknown, ``#`` no cell, ``*`` ``F`` a known mine. Blank lines, trailing
whitespace, CRLF and a byte-order mark are ignored.

A file is a **game position** (what a player sees: numbers, covered cells, flags) unless some
``0`` touches an unknown cell: a game opens every neighbour of a ``0`` it shows (the opening
cascade), so such a file can only be a **clue puzzle**. The text answer leads a game position with
what a player can use (the certain cells, then the chances) and gives a solution on request; a clue
puzzle's answer is its solution.

Example:
    >>> _row_cells("1 . *", "p.txt", 1), _row_cells("1.*", "p.txt", 2)
    ('1.*', '1.*')
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce import Position, View
from cpsolve.errors import InputError, TimeLimitError
from cpsolve.formats.lines import MAX_CELLS, Source, display_name, read_lines
from cpsolve.formats.values import ascii_int
from cpsolve.grid import PaddedGrid
from cpsolve.symbols import HOLE
from cpsolve.words import counted, decimal_text, describe_char, shorten

__all__ = [
    "GAME_POSITION",
    "CLUE_PUZZLE",
    "CLUE_CHARS",
    "UNKNOWN_CHARS",
    "MINE_CHARS",
    "PuzzleInput",
    "read_puzzle",
]

CLUE_CHARS = "012345678"
UNKNOWN_CHARS = ".?-_X"
MINE_CHARS = "*F"
_CELL_CHARS = frozenset(CLUE_CHARS + UNKNOWN_CHARS + MINE_CHARS + HOLE)

#: A file with no ``0`` beside an unknown cell: what a game can show (module docstring).
GAME_POSITION = "game_position"
#: A file with a ``0`` beside an unknown cell: no game shows that, so it is a clue puzzle.
CLUE_PUZZLE = "clue_puzzle"


@dataclass(frozen=True)
class PuzzleInput:
    """One puzzle file: its name in messages and the position it states (the header's total, if any).

    The position is read into the flat :class:`cpsolve.deduce.View` the fast engine takes, in a few
    array operations however large the puzzle; the :class:`cpsolve.deduce.Position` (cells as
    (row, col) sets) is built from it only when something asks for it.

    Attributes:
        name: The file's name in messages (``<stdin>`` for ``-``).
        view: The position, flat.
    """

    name: str
    view: View

    @cached_property
    def position(self) -> Position:
        """The position as a :class:`cpsolve.deduce.Position`."""
        return self.view.position()

    @cached_property
    def kind(self) -> str:
        """:data:`CLUE_PUZZLE` when some ``0`` has an unknown neighbour (no game shows one), else
        :data:`GAME_POSITION`."""
        import numpy as np

        view = self.view
        state = np.frombuffer(view.state, dtype=np.uint8)
        zeros = np.flatnonzero((state == CLEARED) & (np.frombuffer(view.shown, dtype=np.uint8) == 0))
        # the padded border is absent, so every zero's eight neighbours are cells of the flat array
        around = zeros[:, None] + view.offsets[None, :]
        return CLUE_PUZZLE if bool((state[around] == COVERED).any()) else GAME_POSITION

    @property
    def total(self) -> int | None:
        """The total number of mines, or None when the puzzle does not state it."""
        return None if self.view.total < 0 else self.view.total

    def with_total(self, total: int | None) -> PuzzleInput:
        """The same puzzle with another total (None: unknown).

        Raises:
            ValueError: If `total` is negative.
        """
        if total is not None and total < 0:
            raise ValueError(f"a total of mines cannot be negative, got {total}")
        view = View(self.view.grid, self.view.state, self.view.shown, -1 if total is None else total)
        return replace(self, view=view)


#: What separates tokens and surrounds a line: ASCII spaces and tabs only. A no-break space or
#: another Unicode space is a character like any other, so it is named, not silently read as a gap.
_SEPARATORS = " \t"
_ROW_CHARS = _CELL_CHARS | frozenset(_SEPARATORS)


def _fields(text: str) -> list[str]:
    """The tokens of a line, split at runs of ASCII spaces and tabs."""
    return [field for field in re.split("[ \t]+", text) if field]


def _row_cells(text: str, name: str, line: int) -> str:
    """The cells of one grid row, written as characters or as space-separated tokens, one character each."""
    if _CELL_CHARS.issuperset(text):
        return text  # a row of characters (the set test runs in C; splitting each row took seconds)
    if not _ROW_CHARS.issuperset(text):
        cell = 0
        for ch in text:
            if ch in _SEPARATORS:
                continue
            cell += 1
            if ch not in _CELL_CHARS:
                hint = "clues are 0 to 8" if ch == "9" else "use 0-8 . ? - _ X # * F"
                raise InputError(f"unexpected character {describe_char(ch)} in cell {cell}; {hint}", name, line)
    fields = _fields(text)
    if len(fields) > 1:
        for field in fields:
            if len(field) != 1:
                raise InputError(f"token {shorten(field)!r} is not one cell (tokens are single characters)", name, line)
    return "".join(fields)


def _grid(lines: list[tuple[int, str]], name: str, deadline: float | None = None) -> list[str]:
    """Rows of cells, all the same width, or InputError at the first row that differs.

    Raises:
        TimeLimitError: The deadline passed (read every :data:`_ROWS_A_LOOK` rows).
    """
    rows: list[str] = []
    for number, text in lines:
        if rows and not len(rows) % _ROWS_A_LOOK:
            _check_reading(deadline, name)
        cells = _row_cells(text, name, number)
        if rows and len(cells) != len(rows[0]):
            raise InputError(f"row has {counted(len(cells), 'cell')}, the first row has {len(rows[0])}", name, number)
        rows.append(cells)
    return rows


def _numbers(text: str) -> list[int] | None:
    """The numbers of a header line, or None when it is not one (ASCII digits only: ``²`` is no number)."""
    numbers = [ascii_int(field) for field in _fields(text)]
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


#: Reading looks at the clock once every this many lines (a few milliseconds of a 3000-column puzzle).
_ROWS_A_LOOK = 256


def _check_reading(deadline: float | None, name: str) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeLimitError(f"{name}: the time limit ran out while reading it")


def read_puzzle(path: Source, deadline: float | None = None) -> PuzzleInput:
    """Read one clue puzzle.

    A first line (or two) of numbers is a header when the grid after it has the shape it says;
    otherwise, if the whole file reads as a grid, it is one (a row of clues like ``1 2`` is a
    row, not a header).

    Args:
        path: The file, ``-`` for standard input, or a :class:`cpsolve.formats.lines.TextSource`.
        deadline: A ``time.perf_counter()`` value, read every few hundred lines: a 3000 x 3000
            puzzle reads in about half a second, and the largest (10^8 cells) in seconds.

    Raises:
        InputError: Naming the file and line: ragged rows, another character, a header that
            disagrees with the grid or states a negative total, a digit 9, an empty or binary file.
        TimeLimitError: The deadline passed while reading (its message names the file).
    """
    name = display_name(path)
    lines = []
    for number, text in read_lines(path):
        if not number % _ROWS_A_LOOK:
            _check_reading(deadline, name)
        stripped = text.strip(_SEPARATORS)
        if stripped:
            lines.append((number, stripped))
    header = _header(lines)
    total = None
    if header is None:
        rows = _grid(lines, name, deadline)
    else:
        (height, width, total), used = header
        header_line = lines[0][0]
        rest = lines[used:]
        if not rest and used == 1:
            # ``R C`` alone: a header missing its grid (two lone numbers on two lines are a grid)
            raise InputError(f"header says {_shown(height)}x{_shown(width)}, but no grid follows", name, header_line)
        try:
            rows = _grid(rest, name, deadline) if rest else []
            failure = None
        except InputError as error:
            rows, failure = [], error
        fits = height >= 1 and width >= 1 and len(rows) == height and bool(rows) and len(rows[0]) == width
        if not fits:
            # the numbers may be a first row instead (``1 1 1`` in a grid of tokens, ``0`` over
            # ``0``): only when every row is written the same way, so ``2 3`` over rows of
            # characters stays a header
            same_form = len({len(_fields(text)) > 1 for _, text in lines}) == 1
            try:
                if not same_form:
                    raise InputError("")
                rows = _grid(lines, name, deadline)
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
    if total is not None and total < 0:
        raise InputError(f"header's total of mines must be 0 or more, got {_shown(total)}", name, lines[0][0])
    return PuzzleInput(name, _view(rows, total))


#: Each cell character's state on the flat layout (:mod:`cpsolve.cell_states`), and the number a
#: clue character shows (numpy lookup tables, built once).
_STATE_OF: Any = None
_NUMBER_OF: Any = None


def _tables() -> tuple[Any, Any]:
    global _STATE_OF, _NUMBER_OF
    if _STATE_OF is None:
        import numpy as np

        state = np.full(128, ABSENT, dtype=np.uint8)
        number = np.zeros(128, dtype=np.uint8)
        for ch in CLUE_CHARS:
            state[ord(ch)] = CLEARED
            number[ord(ch)] = int(ch)
        for ch in UNKNOWN_CHARS:
            state[ord(ch)] = COVERED
        for ch in MINE_CHARS:
            state[ord(ch)] = FLAGGED
        _STATE_OF, _NUMBER_OF = state, number
    return _STATE_OF, _NUMBER_OF


def _view(rows: list[str], total: int | None) -> View:
    """The flat view of validated rows (ASCII cell characters, all one width): two table lookups.

    A Python loop over the cells of a 3000x3000 puzzle took seconds; these array operations take a
    fraction of one, so reading needs no look at the clock.
    """
    import numpy as np

    grid = PaddedGrid(len(rows), len(rows[0]))
    chars = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(grid.rows, grid.cols)
    state_of, number_of = _tables()
    state = grid.pad(state_of[chars], ABSENT)
    shown = grid.pad(number_of[chars])
    return View(grid, bytearray(state.tobytes()), bytearray(shown.tobytes()), -1 if total is None else total)
