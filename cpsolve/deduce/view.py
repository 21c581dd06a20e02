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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
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
        """The view of a :class:`cpsolve.deduce.Position` (its holes are absent cells)."""
        grid = PaddedGrid(position.rows, position.cols)
        state = bytearray([ABSENT]) * grid.size
        shown = bytearray(grid.size)
        for cell, number in position.clues.items():
            index = grid.index(*cell)
            state[index] = CLEARED
            shown[index] = number
        for cell in position.known_mines:
            state[grid.index(*cell)] = FLAGGED
        for cell in position.unknown:
            state[grid.index(*cell)] = COVERED
        return cls(grid, state, shown, -1 if position.total is None else position.total)

    def position(self) -> Position:
        """The view as a :class:`cpsolve.deduce.Position`."""
        return view_position(bytes(self.state), bytes(self.shown), self.grid, self.total)


def view_position(state: bytes, shown: bytes, grid: PaddedGrid, total: int) -> Position:
    """The position a flat view shows (absent cells are holes; `total` -1 when unknown)."""
    from cpsolve.deduce.position import Position

    clues: dict[Cell, int] = {}
    flags: list[Cell] = []
    unknown: list[Cell] = []
    for index, mark in enumerate(state):
        if mark == ABSENT:
            continue
        cell = grid.cell(index)
        if mark == CLEARED:
            clues[cell] = shown[index]
        elif mark == FLAGGED:
            flags.append(cell)
        else:
            unknown.append(cell)
    return Position(grid.rows, grid.cols, clues, frozenset(flags), frozenset(unknown), None if total < 0 else total)
