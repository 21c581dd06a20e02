"""A position on the flat padded layout: what the fast engine (:mod:`cpsolve.deduce.engine`) reads.

A :class:`cpsolve.deduce.Position` names its cells as (row, col) sets, which suits puzzles read
from files and exact counting. The compiled engine and the players' hot loops want flat arrays
instead: a :class:`View` holds the same position on the layout of :class:`cpsolve.grid.PaddedGrid`
(a border of absent cells, so every cell has eight neighbour slots). The two convert both ways.

Example:
    >>> from cpsolve.deduce import Position
    >>> p = Position(1, 3, {(0, 1): 1}, frozenset(), frozenset({(0, 0), (0, 2)}), total=1)
    >>> View.from_position(p).position() == p
    True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce.position import on_grid
from cpsolve.errors import check_deadline
from cpsolve.grid import Cell, PaddedGrid

if TYPE_CHECKING:
    from cpsolve.deduce.position import Position

__all__ = ["View", "view_position"]


@dataclass
class View:
    """What a player sees, on the flat padded layout of :class:`cpsolve.grid.PaddedGrid`.

    Attributes:
        grid: The layout.
        state: Each cell's state (:mod:`cpsolve.cell_states`); the border is absent.
        shown: The number each cleared cell shows (other entries are never read).
        total: The number of mines on the board, or -1 when unknown.
        offsets: The eight neighbour offsets, as the engine takes them.
    """

    grid: PaddedGrid
    state: bytearray
    shown: bytearray
    total: int
    offsets: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.offsets = np.array(self.grid.offsets, dtype=np.int64)

    @classmethod
    def from_position(cls, position: Position) -> View:
        """The view of a :class:`cpsolve.deduce.Position` (its holes are absent cells).

        Raises:
            ValueError: If the position's total is negative (no view holds it: -1 means unknown).
        """
        if position.total is not None and position.total < 0:
            raise ValueError(f"a total of mines cannot be negative, got {position.total}")
        grid = PaddedGrid(position.rows, position.cols)
        state = np.full(grid.size, ABSENT, dtype=np.uint8)
        shown = np.zeros(grid.size, dtype=np.uint8)
        if position.clues:
            clues = _indices(grid, position.clues)
            state[clues] = CLEARED
            shown[clues] = list(position.clues.values())
        state[_indices(grid, position.known_mines)] = FLAGGED
        state[_indices(grid, position.unknown)] = COVERED
        total = -1 if position.total is None else position.total
        return cls(grid, bytearray(state.tobytes()), bytearray(shown.tobytes()), total)

    def position(self, deadline: float | None = None) -> Position:
        """The view as a :class:`cpsolve.deduce.Position` (seconds for millions of cells: with a
        ``time.perf_counter()`` `deadline`, TimeLimitError once it has passed, read between its sets)."""
        return view_position(self.state, self.shown, self.grid, self.total, deadline)


def _indices(grid: PaddedGrid, cells: Iterable[Cell]) -> np.ndarray:
    """The flat indices of (row, col) cells, in their iteration order."""
    pairs = np.array(cells if isinstance(cells, list) else list(cells), dtype=np.int64).reshape(-1, 2)
    return (pairs[:, 0] + 1) * grid.stride + pairs[:, 1] + 1


def view_position(
    state: bytes | bytearray, shown: bytes | bytearray, grid: PaddedGrid, total: int, deadline: float | None = None
) -> Position:
    """The position a flat view shows (absent cells are holes; `total` -1 when unknown).

    Raises:
        TimeLimitError: The `deadline` (a ``time.perf_counter()`` value) passed: read before each set of cells.
    """

    flat = np.frombuffer(state, dtype=np.uint8)
    check_deadline(deadline)
    clues = np.flatnonzero(flat == CLEARED)
    numbers = np.frombuffer(shown, dtype=np.uint8)[clues].tolist()
    clue_map = dict(zip(grid.cells(clues), numbers, strict=True))
    check_deadline(deadline)
    flags = frozenset(grid.cells(np.flatnonzero(flat == FLAGGED)))
    check_deadline(deadline)
    covered = frozenset(grid.cells(np.flatnonzero(flat == COVERED)))
    return on_grid(grid.rows, grid.cols, clue_map, flags, covered, None if total < 0 else total)
