"""Clue puzzles (the standard CP Minesweeper model): the reader, and the text and JSON writers.

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce import Analysis, Chances, Position, View
from cpsolve.errors import InputError
from cpsolve.formats.grids import ruled, ruled_width
from cpsolve.formats.lines import MAX_CELLS, Source, display_name, read_lines
from cpsolve.formats.values import ascii_int
from cpsolve.grid import PaddedGrid
from cpsolve.outcome import Status
from cpsolve.symbols import CERTAIN_MINE, CERTAIN_SAFE, HOLE, MINE, SAFE
from cpsolve.words import counted, decimal_text, describe_char, shorten

__all__ = [
    "GAME_POSITION",
    "CLUE_PUZZLE",
    "CLUE_CHARS",
    "UNKNOWN_CHARS",
    "MINE_CHARS",
    "PuzzleInput",
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


def read_puzzle(path: Source) -> PuzzleInput:
    """Read one clue puzzle.

    A first line (or two) of numbers is a header when the grid after it has the shape it says;
    otherwise, if the whole file reads as a grid, it is one (a row of clues like ``1 2`` is a
    row, not a header).

    Args:
        path: The file, ``-`` for standard input, or a :class:`cpsolve.formats.lines.TextSource`.

    Raises:
        InputError: Naming the file and line: ragged rows, another character, a header that
            disagrees with the grid or states a negative total, a digit 9, an empty or binary file.
    """
    name = display_name(path)
    lines = [(number, text.strip(_SEPARATORS)) for number, text in read_lines(path) if text.strip(_SEPARATORS)]
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
            same_form = len({len(_fields(text)) > 1 for _, text in lines}) == 1
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


def _char_grid(position: Position, marks: Iterable[tuple[Iterable[tuple[int, int]], str]] = ()) -> Any:
    """The position drawn as a numpy array of characters: clues, ``*`` known mines, ``.`` unknown, ``#`` no cell.

    Args:
        position: The position.
        marks: (cells, character) pairs drawn over it, in order.
    """
    import numpy as np

    grid = np.full((position.rows, position.cols), HOLE, dtype="<U2")  # a mark may be a percentage

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


def draw_solution(position: Position | View, solution: frozenset[tuple[int, int]]) -> list[str]:
    """The solved grid: clues kept, ``*`` every mine, ``.`` safe unknown cells, ``#`` no cell."""
    if isinstance(position, Position):
        return ["".join(row) for row in _char_grid(position, [(solution, MINE)])]
    import numpy as np

    view = position
    grid = view.grid
    state = grid.inner(np.frombuffer(view.state, dtype=np.uint8))
    shown = grid.inner(np.frombuffer(view.shown, dtype=np.uint8))
    chars = np.full(state.shape, ord(HOLE), dtype=np.uint8)
    chars[state == COVERED] = ord(SAFE)
    chars[state == FLAGGED] = ord(MINE)
    clues = state == CLEARED
    chars[clues] = shown[clues] + ord("0")
    if solution:
        rows, cols = zip(*solution, strict=True)
        chars[list(rows), list(cols)] = ord(MINE)
    text = chars.tobytes().decode("ascii")
    width = grid.cols
    return [text[k : k + width] for k in range(0, len(text), width)]


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


def _probability_rows(view: View, chances: Mapping[tuple[int, int], float | Fraction]) -> list[list[float | None]]:
    """Rows of probabilities: 1 on known mines, null on clues and holes."""
    import numpy as np

    grid = view.grid
    if isinstance(chances, Chances):
        values = chances.grid
    else:
        values = np.full((grid.rows, grid.cols), np.nan)
        for (row, col), chance in chances.items():
            values[row, col] = float(chance)
    flagged = grid.inner(np.frombuffer(view.state, dtype=np.uint8)) == FLAGGED
    rows = np.where(flagged, 1.0, values).tolist()
    return [[None if value != value else value for value in row] for row in rows]  # NaN is null


def puzzle_json(
    puzzle: PuzzleInput, analysis: Analysis, *, count: bool, deduce: bool, probabilities: bool
) -> dict[str, Any]:
    """The JSON object of one puzzle's answer (``puzzle --format json``, one per line).

    Args:
        puzzle: The puzzle analysed (its total after ``--mines`` / ``--no-total``).
        analysis: The engine's answer.
        count: Whether ``count`` was asked; likewise `deduce` and `probabilities`.
    """
    view = puzzle.view
    solved = analysis.status is Status.POSSIBLE
    answer: dict[str, Any] = {
        "file": puzzle.name,
        "rows": view.grid.rows,
        "cols": view.grid.cols,
        "total_mines": puzzle.total,
        "status": STATUS_WORDS[analysis.status],
        "kind": puzzle.kind,
        "solution": draw_solution(view, analysis.solution) if solved and analysis.solution is not None else None,
    }
    if count:
        answer["count"] = analysis.count
    if deduce:
        answer["surely_safe"] = _one_based(analysis.surely_safe) if analysis.surely_safe is not None else None
        answer["surely_mine"] = _one_based(analysis.surely_mine) if analysis.surely_mine is not None else None
    if probabilities:
        answer["probabilities"] = (
            _probability_rows(view, analysis.probabilities) if analysis.probabilities is not None else None
        )
    return answer


#: The marks of the text answer's boards: a cell safe, or a mine, in every solution (the marks ``hint``
#: and the game draw); a clue in the chances board.
SURELY_SAFE, SURELY_MINE, CLUE_IN_CHANCES = CERTAIN_SAFE, CERTAIN_MINE, "-"
#: How many of the cells tied for the lowest chance of a mine are named (the rest are counted).
_LOWEST_SHOWN = 3
#: The width the text answer fits when none is given (a terminal's usual width).
TEXT_WIDTH = 80


def _where(cells: Iterable[tuple[int, int]]) -> str:
    return ", ".join(f"({r + 1},{c + 1})" for r, c in cells)


def _board(grid: Any, cell_width: int) -> list[str]:
    """A character grid drawn with its row and column numbers, each cell right-aligned in `cell_width`."""
    return ruled([[f"{ch:>{cell_width - 1}} " for ch in row] for row in grid], cell_width)


def _certain_lines(position: Position, safe: frozenset[tuple[int, int]], mine: frozenset[tuple[int, int]]) -> list[str]:
    """What holds in every solution, drawn on the board."""
    undecided = len(position.unknown) - len(safe) - len(mine)
    return [
        f"certain: {counted(len(safe), 'safe cell')} ({SURELY_SAFE}), {counted(len(mine), 'mine')} ({SURELY_MINE}), "
        f"{undecided} undecided ({SAFE})",
        *_board(_char_grid(position, [(safe, SURELY_SAFE), (mine, SURELY_MINE)]), 2),
    ]


def _chance_mark(chance: float | Fraction, percent: bool) -> str:
    """A cell's chance of a mine: its mark when certain; else the percentage rounded into 1-99, or
    the tenths rounded down (0 to 9)."""
    if chance == 0:
        return SURELY_SAFE
    if chance == 1:
        return SURELY_MINE
    if percent:
        return str(min(99, max(1, round(float(chance) * 100))))
    return str(min(9, int(float(chance) * 10 + 1e-9)))  # 0.3 in doubles is just under 3/10


def percent_width(cols: int) -> int:
    """The text width from which the chances of a board `cols` wide are drawn as percentages."""
    return ruled_width(cols, 3)


def _chance_lines(position: Position, chances: Mapping[tuple[int, int], float | Fraction], width: int) -> list[str]:
    """The chance of a mine on every unknown cell, as percentages where `width` holds three columns a
    cell (else tenths), the lowest chance in full, and where the exact values are."""
    percent = position.cols < 100 and percent_width(position.cols) <= width
    marks: dict[str, list[tuple[int, int]]] = {}
    for cell, chance in chances.items():
        marks.setdefault(_chance_mark(chance, percent), []).append(cell)
    grid = _char_grid(
        position, [(position.clues.keys(), CLUE_IN_CHANCES), *((cells, mark) for mark, cells in marks.items())]
    )
    scale = (
        "chance of a mine in percent, rounded (1 to 99 when not certain);"
        if percent
        else "chance of a mine in tenths: 0 under 10%, 1 from 10% to 20%, ..., 9 90% or more;"
    )
    lines = [
        scale,
        f"{SURELY_SAFE} safe and {SURELY_MINE} a mine in every solution, {CLUE_IN_CHANCES} a clue, "
        f"{MINE} a known mine, {HOLE} no cell",
        *_board(grid, 3 if percent else 2),
    ]
    open_chances = [(chance, cell) for cell, chance in chances.items() if 0 < chance < 1]
    if open_chances:
        lowest = min(chance for chance, _ in open_chances)
        # the fast engine's chances are doubles: cells whose chances are equal may differ in the last
        # bits (1/8 as 0.12499999999999976), so the cells within a billionth of the lowest are named
        near = lowest * 1e-9 if isinstance(lowest, float) else 0
        cells = sorted(cell for chance, cell in open_chances if chance - lowest <= near)
        more = len(cells) - _LOWEST_SHOWN
        named = _where(cells[:_LOWEST_SHOWN]) + (f" and {more} more" if more > 0 else "")
        lines.append(f"lowest chance: {float(lowest) * 100:.1f}% at {named}")
    if percent or position.cols >= 100:
        lines.append("each cell's chance in full: --format json --probabilities")
    else:
        lines.append(f"in percent from --width {percent_width(position.cols)}; in full: --format json --probabilities")
    return lines


def puzzle_text(
    puzzle: PuzzleInput,
    position: Position,
    analysis: Analysis,
    *,
    solution: bool | None = None,
    width: int = TEXT_WIDTH,
) -> list[str]:
    """One puzzle's answer for people: a title line, what was found, and for a clue puzzle a solution.

    What is certain comes first, drawn on the board (``S`` safe and ``M`` a mine in every
    solution, ``.`` undecided); then the chance of a mine on each unknown cell, one mark a cell:
    its percentage where `width` holds three columns a cell, else its tenths (rounded down), with
    the lowest chance in full; then one solution, labelled as one of several when the count says
    so. The boards carry their row and column numbers (1-based, as every cell in the text).

    Args:
        puzzle: The file read (its name and kind).
        position: The position analysed (its total after ``--mines`` / ``--no-total``).
        analysis: The engine's answer.
        solution: Show the solution: by default for a clue puzzle and not for a game position,
            whose one solution among many is no help to a player.
        width: The columns the answer may use (the chances are drawn as percentages when they fit).
    """
    total = "no total" if position.total is None else counted(position.total, "mine")
    game = puzzle.kind == GAME_POSITION
    word = "game position" if game and analysis.status is Status.POSSIBLE else STATUS_WORDS[analysis.status]
    lines = [f"{puzzle.name}: {position.rows}x{position.cols}, {total}: {word.replace('_', ' ')}"]
    if analysis.status is Status.UNKNOWN:
        lines[0] += " (time limit reached)"
        return lines
    if analysis.count is not None:
        lines.append(f"solutions: {decimal_text(analysis.count)}")
    if analysis.surely_safe is not None and analysis.surely_mine is not None:
        lines.extend(_certain_lines(position, analysis.surely_safe, analysis.surely_mine))
    if analysis.probabilities is not None:
        lines.extend(_chance_lines(position, analysis.probabilities, width))
    if analysis.solution is not None and (solution if solution is not None else not game):
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
