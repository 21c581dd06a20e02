"""What ``puzzle`` writes about a clue puzzle: its text answer, its JSON, a drawn position or solution.

The reader and the file format are in :mod:`cpsolve.formats.puzzle`. Every drawing starts from the
flat view (:class:`cpsolve.deduce.View`) and works in numpy arrays, so a board of millions of cells
is drawn in a fraction of a second.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from itertools import chain
from typing import Any

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.deduce import Analysis, Chances, Position, View
from cpsolve.errors import check_deadline
from cpsolve.formats.grids import ruled_rows, ruled_width
from cpsolve.formats.puzzle import GAME_POSITION, PuzzleInput
from cpsolve.outcome import Status
from cpsolve.symbols import CERTAIN_MINE, CERTAIN_SAFE, HOLE, MINE, SAFE
from cpsolve.words import counted, decimal_text

__all__ = [
    "STATUS_WORDS",
    "TEXT_WIDTH",
    "draw_solution",
    "draw_position",
    "percent_width",
    "position_json",
    "puzzle_json",
    "puzzle_text",
]

#: How each status is worded for a clue puzzle.
STATUS_WORDS = {Status.POSSIBLE: "solved", Status.IMPOSSIBLE: "no_solution", Status.UNKNOWN: "unknown"}


def _as_view(position: Position | View) -> View:
    return position if isinstance(position, View) else View.from_position(position)


def _chars(view: View) -> Any:
    """The position as a rows x cols numpy array of character codes: clues, ``*`` known mines, ``.``
    unknown, ``#`` no cell. A few array operations: a 3000 x 3000 board drawn from Python sets of
    cells took minutes and gigabytes."""
    import numpy as np

    grid = view.grid
    state = grid.inner(np.frombuffer(view.state, dtype=np.uint8))
    shown = grid.inner(np.frombuffer(view.shown, dtype=np.uint8))
    chars = np.full(state.shape, ord(HOLE), dtype=np.uint8)
    chars[state == COVERED] = ord(SAFE)
    chars[state == FLAGGED] = ord(MINE)
    clues = state == CLEARED
    chars[clues] = shown[clues] + ord("0")
    return chars


def _put(chars: Any, cells: Iterable[tuple[int, int]], ch: str) -> None:
    """Draw character `ch` on `cells` of a character array."""
    import numpy as np

    listed = cells if isinstance(cells, list) else list(cells)
    if listed:
        at = np.fromiter(chain.from_iterable(listed), dtype=np.int64, count=2 * len(listed)).reshape(-1, 2)
        chars[at[:, 0], at[:, 1]] = ord(ch)


def _lines(chars: Any) -> list[str]:
    """The rows of a character array as text."""
    width = chars.shape[1]
    text = chars.tobytes().decode("ascii")
    return [text[k : k + width] for k in range(0, len(text), width)]


def draw_solution(position: Position | View, solution: frozenset[tuple[int, int]]) -> list[str]:
    """The solved grid: clues kept, ``*`` every mine, ``.`` safe unknown cells, ``#`` no cell."""
    chars = _chars(_as_view(position))
    _put(chars, solution, MINE)
    return _lines(chars)


def draw_position(position: Position | View) -> list[str]:
    """The position in the puzzle format, a character a cell: clues, ``*`` known mines, ``.`` unknown, ``#`` no cell."""
    return _lines(_chars(_as_view(position)))


def position_json(position: PuzzleInput | Position | View, deadline: float | None = None) -> dict[str, Any]:
    """A position as read, every way of writing it made one (the web app's Analyse page draws it).

    Args:
        position: The position: as read (:func:`cpsolve.formats.puzzle.read_puzzle`), or its view or Position.
        deadline: A ``time.perf_counter()`` value, read before the position is drawn (the drawing is
            a few array operations on the view).

    Returns:
        ``rows``, ``cols``, ``total_mines`` (null without a total) and ``grid`` (:func:`draw_position`).

    Raises:
        TimeLimitError: The deadline passed.

    Example:
        >>> from cpsolve.formats.lines import TextSource
        >>> from cpsolve.formats.puzzle import read_puzzle
        >>> position_json(read_puzzle(TextSource("position", "1 3 1\\n1 . ?\\n")))
        {'rows': 1, 'cols': 3, 'total_mines': 1, 'grid': ['1..']}
    """
    view = position.view if isinstance(position, PuzzleInput) else _as_view(position)
    check_deadline(deadline)
    return {
        "rows": view.grid.rows,
        "cols": view.grid.cols,
        "total_mines": None if view.total < 0 else view.total,
        "grid": draw_position(view),
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


def _board(chars: Any, cell_width: int, high: Any = None) -> list[str]:
    """A character array drawn with its row and column numbers, each cell's text right-aligned in
    `cell_width` less one characters, then a space; `high`, for three-character cells, holds each
    cell's first character (a space, or the tens of a percentage)."""
    import numpy as np

    rows, cols = chars.shape
    cells = np.full((rows, cols, cell_width), ord(" "), dtype=np.uint8)
    cells[:, :, cell_width - 2] = chars
    if high is not None:
        cells[:, :, 0] = high
    return ruled_rows(_lines(cells.reshape(rows, cols * cell_width)), cols, cell_width)


def _covered(view: View) -> int:
    import numpy as np

    return int(np.count_nonzero(np.frombuffer(view.state, dtype=np.uint8) == COVERED))


def _certain_lines(view: View, safe: frozenset[tuple[int, int]], mine: frozenset[tuple[int, int]]) -> list[str]:
    """What holds in every solution, drawn on the board."""
    undecided = _covered(view) - len(safe) - len(mine)
    chars = _chars(view)
    _put(chars, safe, SURELY_SAFE)
    _put(chars, mine, SURELY_MINE)
    return [
        f"certain: {counted(len(safe), 'safe cell')} ({SURELY_SAFE}), {counted(len(mine), 'mine')} ({SURELY_MINE}), "
        f"{undecided} undecided ({SAFE})",
        *_board(chars, 2),
    ]


def percent_width(cols: int) -> int:
    """The text width from which the chances of a board `cols` wide are drawn as percentages."""
    return ruled_width(cols, 3)


def _chance_grid(view: View, chances: Mapping[tuple[int, int], float | Fraction]) -> tuple[Any, Any, Any]:
    """The chances as a rows x cols array of doubles (NaN off the unknown cells), and where they are
    exactly 0 and exactly 1 (an exact chance a hair above 0 may be 0.0 as a double)."""
    import numpy as np

    if isinstance(chances, Chances):
        values = chances.grid
        return values, values == 0.0, values == 1.0
    shape = (view.grid.rows, view.grid.cols)
    values = np.full(shape, np.nan)
    safe, mine = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
    for (row, col), chance in chances.items():
        values[row, col] = float(chance)
        safe[row, col], mine[row, col] = chance == 0, chance == 1
    return values, safe, mine


def _lowest(chances: Mapping[tuple[int, int], float | Fraction], values: Any, open_cells: Any) -> tuple[Any, list]:
    """The lowest chance below certainty, and the cells that have it, in reading order.

    The fast engine's chances are doubles: cells whose chances are equal may differ in the last bits
    (1/8 as 0.12499999999999976), so the cells within a billionth of the lowest are named; exact
    chances are compared exactly.
    """
    import numpy as np

    if isinstance(chances, Chances):
        lowest = float(values[open_cells].min())
        rows, cols = np.nonzero(open_cells & (values - lowest <= lowest * 1e-9))
        return lowest, list(zip(rows.tolist(), cols.tolist(), strict=True))
    exact = [(chance, cell) for cell, chance in chances.items() if 0 < chance < 1]
    least = min(chance for chance, _ in exact)
    near = least * 1e-9 if isinstance(least, float) else 0
    return least, sorted(cell for chance, cell in exact if chance - least <= near)


def _chance_lines(view: View, chances: Mapping[tuple[int, int], float | Fraction], width: int) -> list[str]:
    """The chance of a mine on every unknown cell, as percentages where `width` holds three columns a
    cell (else tenths), the lowest chance in full, and where the exact values are.

    A cell's mark: ``S`` or ``M`` when certain; else its percentage rounded into 1-99, or its tenths
    rounded down (0 to 9; 0.3 in doubles is just under 3/10, hence a billionth added).
    """
    import numpy as np

    cols = view.grid.cols
    percent = cols < 100 and percent_width(cols) <= width
    values, safe, mine = _chance_grid(view, chances)
    open_cells = ~np.isnan(values) & ~safe & ~mine
    low = _chars(view)  # each cell's last character: its mark, or what the position shows
    low[(low >= ord("0")) & (low <= ord("8"))] = ord(CLUE_IN_CHANCES)
    low[safe] = ord(SURELY_SAFE)
    low[mine] = ord(SURELY_MINE)
    high = None
    if percent:
        shown = np.clip(np.rint(np.where(open_cells, values, 0.0) * 100), 1, 99).astype(np.uint8)
        low[open_cells] = ord("0") + shown[open_cells] % 10
        high = np.full(low.shape, ord(" "), dtype=np.uint8)
        tens = open_cells & (shown >= 10)
        high[tens] = ord("0") + shown[tens] // 10
    else:
        tenths = np.minimum(9, np.floor(np.where(open_cells, values, 0.0) * 10 + 1e-9)).astype(np.uint8)
        low[open_cells] = ord("0") + tenths[open_cells]
    scale = (
        "chance of a mine in percent, rounded (1 to 99 when not certain);"
        if percent
        else "chance of a mine in tenths: 0 under 10%, 1 from 10% to 20%, ..., 9 90% or more;"
    )
    lines = [
        scale,
        f"{SURELY_SAFE} safe and {SURELY_MINE} a mine in every solution, {CLUE_IN_CHANCES} a clue, "
        f"{MINE} a known mine, {HOLE} no cell",
        *_board(low, 3 if percent else 2, high),
    ]
    if open_cells.any():
        lowest, cells = _lowest(chances, values, open_cells)
        more = len(cells) - _LOWEST_SHOWN
        named = _where(cells[:_LOWEST_SHOWN]) + (f" and {more} more" if more > 0 else "")
        lines.append(f"lowest chance: {float(lowest) * 100:.1f}% at {named}")
    if percent or cols >= 100:
        lines.append("each cell's chance in full: --format json --probabilities")
    else:
        lines.append(f"in percent from --width {percent_width(cols)}; in full: --format json --probabilities")
    return lines


def puzzle_text(
    puzzle: PuzzleInput,
    position: Position | View,
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
    so. The boards carry their row and column numbers (1-based, as every cell in the text). Drawn
    from the flat view in array operations, so a board of millions of cells takes seconds.

    Args:
        puzzle: The file read (its name and kind).
        position: The position analysed (its total after ``--mines`` / ``--no-total``): its view, or
            the Position.
        analysis: The engine's answer.
        solution: Show the solution: by default for a clue puzzle and not for a game position,
            whose one solution among many is no help to a player.
        width: The columns the answer may use (the chances are drawn as percentages when they fit).
    """
    view = _as_view(position)
    rows, cols = view.grid.rows, view.grid.cols
    total = "no total" if view.total < 0 else counted(view.total, "mine")
    game = puzzle.kind == GAME_POSITION
    word = "game position" if game and analysis.status is Status.POSSIBLE else STATUS_WORDS[analysis.status]
    lines = [f"{puzzle.name}: {rows}x{cols}, {total}: {word.replace('_', ' ')}"]
    if analysis.status is Status.UNKNOWN:
        lines[0] += " (time limit reached)"
        return lines
    if analysis.count is not None:
        lines.append(f"solutions: {decimal_text(analysis.count)}")
    if analysis.surely_safe is not None and analysis.surely_mine is not None:
        lines.extend(_certain_lines(view, analysis.surely_safe, analysis.surely_mine))
    if analysis.probabilities is not None:
        lines.extend(_chance_lines(view, analysis.probabilities, width))
    if analysis.solution is not None and (solution if solution is not None else not game):
        unique = analysis.count == 1 or (
            analysis.surely_safe is not None
            and analysis.surely_mine is not None
            and len(analysis.surely_safe) + len(analysis.surely_mine) == _covered(view)
        )
        if unique:
            lines.append(f"the solution ({MINE} mine, {SAFE} safe; the only one):")
        else:
            others = "others exist" if analysis.count is not None else "there may be others"
            lines.append(f"a solution ({MINE} mine, {SAFE} safe; {others}):")
        lines.extend(draw_solution(view, analysis.solution))
    return lines
