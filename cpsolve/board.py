"""The ``Board`` type: where the mines are, which cells exist, and the click.

A board is stored as numpy boolean arrays so the judge can work on a 1000x1000 board,
or on a million small ones, without a Python loop per cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpsolve.symbols import CLICK, HOLE, MINE, SAFE

__all__ = ["Board", "MINE", "SAFE", "CLICK", "HOLE"]


@dataclass
class Board:
    """A Minesweeper board with one click cell.

    Attributes:
        mines: Boolean array of shape (rows, cols), True where a mine is.
        click: The 0-based (row, col) of the click cell, or None when the board has no click.
        present: Boolean array of the cells that exist, or None for a full rectangle. Missing
            cells (``#`` in text) are neither mines nor safe and are no one's neighbour.
    """

    mines: np.ndarray
    click: tuple[int, int] | None
    present: np.ndarray | None = None

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, cols) of the bounding rectangle."""
        rows, cols = self.mines.shape
        return rows, cols

    @property
    def present_mask(self) -> np.ndarray:
        """The cells that exist, as a boolean array (all True for a rectangle)."""
        if self.present is None:
            return np.ones(self.mines.shape, dtype=bool)
        return self.present

    @property
    def mine_count(self) -> int:
        """The number of mines on the board."""
        return int(np.count_nonzero(self.mines))

    def to_rows(self) -> list[str]:
        """The board as text rows: ``*`` mine, ``.`` safe, ``c`` click, ``#`` no cell."""
        grid = np.where(self.mines, MINE, SAFE).astype("<U1")
        if self.present is not None:
            grid[~self.present] = HOLE
        if self.click is not None:
            grid[self.click] = CLICK
        return ["".join(row) for row in grid]

    @classmethod
    def from_rows(cls, rows: list[str]) -> Board:
        """Build a board from text rows; every row must have the same length.

        Characters other than ``* . c #`` raise ValueError, as does a ragged board. More than
        one ``c`` is kept as the first one here; the judge counts clicks from the text.
        """
        if not rows:
            raise ValueError("empty board")
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise ValueError("rows of different lengths")
        grid = np.array([list(row) for row in rows], dtype="<U1").reshape(len(rows), width)
        unknown = set(np.unique(grid)) - {MINE, SAFE, CLICK, HOLE}
        if unknown:
            from cpsolve.formats.values import describe_char

            raise ValueError(f"unexpected character {describe_char(str(sorted(unknown)[0]))}")  # not np.str_('x')
        clicks = np.argwhere(grid == CLICK)
        click = (int(clicks[0][0]), int(clicks[0][1])) if len(clicks) else None
        holes = grid == HOLE
        return cls(mines=grid == MINE, click=click, present=~holes if holes.any() else None)
