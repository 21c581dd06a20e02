"""Answers about a position: a solution or proof of none, the exact count, the certain cells, the chances.

One engine, two speeds. The fast engine (:mod:`cpsolve.deduce.engine`: compiled C, counting in
doubles) reads the position once and gives every unknown cell's chance of a mine, the cells that
are certain (exactly: a mine weight is 0.0 only when no solution puts a mine there, see the C
file), and one solution. The exact engine (:mod:`cpsolve.deduce.weights`: Python integers) gives
the number of solutions when a count is asked, and exact fractions when ``exact=True``. CP-SAT
(:mod:`cpsolve.deduce.search`) runs only where neither DP can: a component whose frontier is too
wide for both (enumeration, or one solution), and minimal conflicts (:mod:`cpsolve.deduce.conflict`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cpsolve.cell_states import COVERED
from cpsolve.deduce import engine
from cpsolve.deduce.position import Cell, Position
from cpsolve.deduce.view import View
from cpsolve.deduce.weights import Weights, count_of, probabilities_of, weigh
from cpsolve.errors import InternalError, TimeLimitError, check_deadline
from cpsolve.outcome import Status

__all__ = ["Analysis", "Chances", "analyse"]


class Chances(Mapping[Cell, float]):
    """Each unknown cell's chance of a mine, held as a rows x cols array (NaN off the unknown cells).

    A mapping from (row, col) to the chance, so ``chances[(r, c)]`` and ``chances.items()`` read
    like a dict; writers that draw a whole board use ``grid`` directly.

    Attributes:
        grid: The chances, rows x cols, NaN on cells that are not unknown.
    """

    def __init__(self, grid: np.ndarray):
        self.grid = grid
        self._cells: list[Cell] | None = None

    def _listed(self) -> list[Cell]:
        if self._cells is None:
            rows, cols = np.nonzero(~np.isnan(self.grid))
            self._cells = list(zip(rows.tolist(), cols.tolist(), strict=True))
        return self._cells

    def __getitem__(self, cell: Cell) -> float:
        row, col = cell
        if not (0 <= row < self.grid.shape[0] and 0 <= col < self.grid.shape[1]):
            raise KeyError(cell)
        value = float(self.grid[row, col])
        if value != value:  # NaN: not an unknown cell
            raise KeyError(cell)
        return value

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._listed())

    def __len__(self) -> int:
        return len(self._listed())


@dataclass
class Analysis:
    """What :func:`analyse` found.

    Attributes:
        status: POSSIBLE (consistent, `solution` given), IMPOSSIBLE (no solution), UNKNOWN
            (the deadline passed first).
        solution: The mines among the unknown cells in one solution, when POSSIBLE.
        count: The exact number of solutions, when asked (0 when IMPOSSIBLE).
        surely_safe: Unknown cells safe in every solution, when the backbone was asked.
        surely_mine: Unknown cells that are mines in every solution, when the backbone was asked.
        probabilities: Each unknown cell's chance of holding a mine, every solution weighted
            equally, when asked: :class:`Chances` (doubles), or exact Fractions with ``exact=True``.
    """

    status: Status
    solution: frozenset[Cell] | None = None
    count: int | None = None
    surely_safe: frozenset[Cell] | None = None
    surely_mine: frozenset[Cell] | None = None
    probabilities: Mapping[Cell, float] | dict[Cell, Fraction] | None = None


def _total_fits(position: Position) -> bool:
    """Whether the total can hold at all: no fewer mines than are known, no more than cells to hold them."""
    total = position.total
    return total is None or len(position.known_mines) <= total <= len(position.known_mines) + len(position.unknown)


def analyse(
    position: Position | View,
    *,
    count: bool = False,
    backbone: bool = False,
    probabilities: bool = False,
    exact: bool = False,
    deadline: float | None = None,
) -> Analysis:
    """Decide a position and answer what is asked about it.

    The fast engine decides the position and gives a solution, the certain cells and the chances
    in one pass; the exact count (and, with `exact`, exact fractions) comes from exact integer
    counting, run only when asked.

    Args:
        position: The position, as a :class:`Position` or its flat :class:`View`.
        count: Give the exact number of solutions.
        backbone: Give the cells safe, and mined, in every solution.
        probabilities: Give each unknown cell's chance of holding a mine.
        exact: Give the probabilities as exact Fractions, and the certain cells from the exact
            counts (the same cells: certainty is exact either way).
        deadline: A ``time.perf_counter()`` value; past it the status is UNKNOWN (never IMPOSSIBLE).

    Returns:
        The analysis; the fields not asked for are None.

    Example:
        >>> p = Position(2, 2, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (1, 0), (1, 1)}), total=1)
        >>> a = analyse(p, count=True, probabilities=True)
        >>> a.count, round(a.probabilities[(1, 1)], 6)
        (3, 0.333333)
    """
    if isinstance(position, Position) and not _total_fits(position):
        return Analysis(Status.IMPOSSIBLE, count=0 if count else None)
    view = position if isinstance(position, View) else View.from_position(position)
    try:
        check_deadline(deadline)
        fast = engine.answer(view, deadline)
        # the compiled engine reads no clock (seconds on a board of millions of cells): past the
        # deadline now, nothing more is built
        check_deadline(deadline)
        if fast is None:
            return Analysis(Status.IMPOSSIBLE, count=0 if count else None)
        weights: Weights | None = None
        exact_count: int | None = None
        if count or exact:
            given = position if isinstance(position, Position) else view.position(deadline)
            if exact:
                weights = weigh(given, deadline)
                exact_count = weights.count if weights is not None else 0
            else:  # the count alone needs no cell's weight: forward passes only, a component at a time
                exact_count = count_of(given, deadline)
            if not exact_count:
                raise InternalError("the exact count found no solution where the fast engine found one")
    except TimeLimitError:
        return Analysis(Status.UNKNOWN)
    grid = view.grid
    mine, safe, placed = fast
    answer = Analysis(Status.POSSIBLE, frozenset(grid.cells(np.flatnonzero(placed))))
    if count:
        answer.count = exact_count
    if exact and weights is not None:
        exact_chances = probabilities_of(weights)
        if backbone:
            answer.surely_safe = frozenset(cell for cell, p in exact_chances.items() if p == 0)
            answer.surely_mine = frozenset(cell for cell, p in exact_chances.items() if p == 1)
        if probabilities:
            answer.probabilities = exact_chances
        return answer
    covered = np.frombuffer(view.state, dtype=np.uint8) == COVERED
    if backbone:
        answer.surely_safe = frozenset(grid.cells(np.flatnonzero(covered & (mine == 0.0))))
        answer.surely_mine = frozenset(grid.cells(np.flatnonzero(covered & (safe == 0.0))))
    if probabilities:
        # a certain mine is 1 exactly (its safe weight is 0), whatever mine / count rounds to
        chances = np.where(covered, np.where(safe == 0.0, 1.0, mine), np.nan)
        answer.probabilities = Chances(grid.inner(chances).copy())
    return answer
