"""A board's flat padded tables, shared by every game on it and by the players' rules.

The game (:mod:`cpsolve.play.game`) builds them once per board; the rules read them
(:mod:`cpsolve.play.subset`, :mod:`cpsolve.play.perfect`) together with a game's state (a
bytearray of :mod:`cpsolve.cell_states`). Only :meth:`BoardTables.with_mines` changes what depends
on the mines, so a generator drawing many boards of one shape keeps the rest.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, replace

import numpy as np

from cpsolve.cell_states import ABSENT, COVERED
from cpsolve.grid import PaddedGrid, mine_numbers

__all__ = ["BoardTables"]


@dataclass(frozen=True)
class BoardTables:
    """One board on the flat padded layout of :class:`cpsolve.grid.PaddedGrid`.

    Attributes:
        grid: The layout (rows, cols, flat indices, neighbour offsets).
        offsets: The eight neighbour offsets, as the C loops take them.
        present: Boolean rows x cols array of existing cells.
        start_state: The flat state before any click: covered cells, absent holes and border.
        numbers: Each cell's count of mined neighbours, rows x cols.
        number: The same, flat and padded.
        mine: 1 where a mine is, flat and padded (the true board: only the game reads it).
        mine_total: Mines on the board.
        safe_total: Safe cells on the board.
    """

    grid: PaddedGrid
    offsets: array
    present: np.ndarray
    start_state: bytes
    numbers: np.ndarray
    number: bytes
    mine: bytes
    mine_total: int
    safe_total: int

    @classmethod
    def build(cls, mines: np.ndarray, present: np.ndarray) -> BoardTables:
        """The tables of a board given as boolean mines and present-cell arrays."""
        rows, cols = mines.shape
        grid = PaddedGrid(rows, cols)
        start_state = bytes(grid.pad(np.where(present, COVERED, ABSENT).astype(np.uint8), ABSENT))
        empty = cls(grid, array("q", grid.offsets), present, start_state, np.zeros(0, np.uint8), b"", b"", 0, 0)
        return empty.with_mines(mines)

    def with_mines(self, mines: np.ndarray) -> BoardTables:
        """The same cells with other mines (the tables that depend only on the shape are kept)."""
        mines = mines & self.present
        numbers = mine_numbers(mines)
        mine_total = int(np.count_nonzero(mines))
        return replace(
            self,
            numbers=numbers,
            number=bytes(self.grid.pad(numbers.astype(np.uint8))),
            mine=bytes(self.grid.pad(mines.astype(np.uint8))),
            mine_total=mine_total,
            safe_total=int(np.count_nonzero(self.present)) - mine_total,
        )
