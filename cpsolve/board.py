"""The ``Board`` type: where the mines are, which cells exist, and the click.

A board is stored as numpy boolean arrays so the judge can work on a 1000x1000 board,
or on a million small ones, without a Python loop per cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpsolve.symbols import CLICK, HOLE, MINE, SAFE
from cpsolve.words import describe_char

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

    @property
    def safe_count(self) -> int:
        """The number of safe cells (existing cells without a mine)."""
        return int(np.count_nonzero(self.present_mask & ~self.mines))

    def to_rows(self) -> list[str]:
        """The board as text rows: ``*`` mine, ``.`` safe, ``c`` click, ``#`` no cell."""
        grid = np.where(self.mines, MINE, SAFE).astype("<U1")
        if self.present is not None:
            grid[~self.present] = HOLE
        if self.click is not None:
            grid[self.click] = CLICK
        return ["".join(row) for row in grid]

    @classmethod
    def from_rows(cls, rows: list[str], mine_chars: str = MINE) -> Board:
        """Build a board from text rows; every row must have the same length.

        Args:
            rows: The rows: a mine character, ``.`` safe, ``c`` the click, ``#`` no cell.
            mine_chars: The characters that mean a mine: ``*`` by default; the players' boards
                also take the contest's ``M`` (``"M*"``).

        Characters other than these raise ValueError, as does a ragged board. More than one
        ``c`` is kept as the first one here; the judge counts clicks from the text.
        """
        if not rows:
            raise ValueError("empty board")
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise ValueError("rows of different lengths")
        allowed = set(mine_chars + SAFE + CLICK + HOLE)
        for row in rows:
            if not allowed.issuperset(row):
                raise ValueError(f"unexpected character {describe_char(min(set(row) - allowed))}")
        codes = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(len(rows), width)
        mines = np.isin(codes, np.frombuffer(mine_chars.encode("ascii"), dtype=np.uint8))
        clicks = np.argwhere(codes == ord(CLICK))
        click = (int(clicks[0][0]), int(clicks[0][1])) if len(clicks) else None
        holes = codes == ord(HOLE)
        return cls(mines=mines, click=click, present=~holes if holes.any() else None)
